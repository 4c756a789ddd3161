#pragma once
// Builds the OpenSSL client context for a ClusterConfig: trusted CA bundle (or
// the system roots), optional client certificate, TLS 1.2 as the floor.
// Internal to watch/ (it exposes Asio types).

#include <memory>

#include <boost/asio/ssl/context.hpp>

#include "model/result.hpp"
#include "watch/kube_config.hpp"

namespace troupe::watch {

Result<std::shared_ptr<boost::asio::ssl::context>> make_tls_context(const ClusterConfig& config);

}  // namespace troupe::watch
