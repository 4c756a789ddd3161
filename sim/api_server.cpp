#include "sim/api_server.hpp"

#include "sim/kubeconfig_writer.hpp"
#include "sim/self_signed_cert.hpp"

namespace troupe::sim {

ApiServer::ApiServer(ApiServerOptions options)
    : options_(std::move(options)), store_(ResourceRegistry::standard(), options_.store), handler_(store_) {
  handler_.create_system_namespaces();
}

ApiServer::~ApiServer() { stop(); }

Status ApiServer::start() {
  HttpServerOptions http;
  http.host = options_.host;
  http.port = options_.port;
  http.threads = options_.threads;
  http.max_body_bytes = options_.max_body_bytes;
  http.token = options_.token;
  http.bookmark_interval = options_.bookmark_interval;
  if (options_.tls) {
    std::vector<std::string> ips = {"127.0.0.1", "::1"};
    if (options_.host != "127.0.0.1" && options_.host != "localhost" && options_.host != "0.0.0.0" &&
        options_.host != "::")
      ips.push_back(options_.host);
    auto material = generate_self_signed({"localhost"}, ips);
    if (!material.ok()) return material.error();
    ca_pem_ = material->ca_cert_pem;
    http.tls = std::move(material.value());
  }
  http_ = std::make_unique<HttpServer>(handler_, store_, std::move(http));
  // The port is known once listening, and requests may arrive from then on:
  // the handler's address is guarded for that.
  Status started = http_->start();
  if (!started.ok()) return started;
  std::string host = options_.host == "0.0.0.0" || options_.host == "::" ? "127.0.0.1" : options_.host;
  handler_.set_server_address(host + ":" + std::to_string(http_->port()));
  if (options_.koordlet.interval.count() > 0) {
    koordlet_ = std::make_unique<FakeKoordlet>(handler_, options_.koordlet);
    koordlet_->start();
  }
  return Status::success();
}

void ApiServer::stop() {
  if (koordlet_) koordlet_->stop();
  if (http_) http_->stop();
}

uint16_t ApiServer::port() const { return http_ ? http_->port() : 0; }

std::string ApiServer::url() const {
  std::string host = options_.host == "0.0.0.0" || options_.host == "::" ? "127.0.0.1" : options_.host;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return std::string(options_.tls ? "https" : "http") + "://" + host + ":" + std::to_string(port());
}

Status ApiServer::write_kubeconfig(const std::string& path) const {
  KubeconfigSpec spec;
  spec.server = url();
  spec.ca_pem = ca_pem_;
  spec.token = options_.token;
  return sim::write_kubeconfig(path, spec);
}

}  // namespace troupe::sim
