#include "watch/tls_context.hpp"

#include <boost/asio/buffer.hpp>
#include <openssl/ssl.h>

namespace troupe::watch {

namespace ssl = boost::asio::ssl;

Result<std::shared_ptr<ssl::context>> make_tls_context(const ClusterConfig& config) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  boost::system::error_code ec;
  SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);

  if (config.insecure_skip_tls_verify) {
    ctx->set_verify_mode(ssl::verify_none);
  } else {
    ctx->set_verify_mode(ssl::verify_peer);
    if (config.ca_pem.empty()) {
      ctx->set_default_verify_paths(ec);
      if (ec) return Error{"tls: cannot load the system CA certificates: " + ec.message()};
    } else {
      ctx->add_certificate_authority(boost::asio::buffer(config.ca_pem), ec);
      if (ec) return Error{"tls: certificate-authority of " + config.source + ": not valid PEM: " + ec.message()};
    }
  }
  if (!config.client_cert_pem.empty()) {
    ctx->use_certificate_chain(boost::asio::buffer(config.client_cert_pem), ec);
    if (ec) return Error{"tls: client-certificate of " + config.source + ": " + ec.message()};
    ctx->use_private_key(boost::asio::buffer(config.client_key_pem), ssl::context::pem, ec);
    if (ec) return Error{"tls: client-key of " + config.source + ": " + ec.message()};
    if (SSL_CTX_check_private_key(ctx->native_handle()) != 1)
      return Error{"tls: client-key of " + config.source + " does not match its client-certificate"};
  }
  return ctx;
}

}  // namespace troupe::watch
