#include "watch/http_client.hpp"

#include <condition_variable>
#include <mutex>
#include <vector>

#include <boost/beast/http/verb.hpp>
#include <spdlog/spdlog.h>

#include "watch/http_connection.hpp"
#include "watch/tls_context.hpp"
#include "watch/token_source.hpp"

namespace troupe::watch {

namespace http = boost::beast::http;
using Clock = std::chrono::steady_clock;

struct HttpClient::Impl {
  ConnectionTarget target;
  std::shared_ptr<TokenSource> tokens;
  HttpClientOptions options;

  mutable std::mutex mutex;
  std::condition_variable returned;
  std::vector<std::unique_ptr<HttpConnection>> idle;  // back = most recently used
  std::size_t open = 0;
  std::size_t created = 0;

  std::unique_ptr<HttpConnection> borrow(Clock::time_point deadline, const CancelToken* cancel, std::string& error);
  void give_back(std::unique_ptr<HttpConnection> connection, bool reusable);
  void drop_idle();
  std::unique_ptr<HttpConnection> open_new(Clock::time_point deadline, const CancelToken* cancel, std::string& error);
  Result<HttpConnection::WireRequest> build(const HttpRequest& request) const;
  HttpResponse request_once(HttpConnection::WireRequest& wire, Clock::time_point deadline, const CancelToken* cancel);
};

namespace {

Clock::time_point deadline_after(std::chrono::milliseconds timeout, std::chrono::milliseconds fallback) {
  return Clock::now() + (timeout.count() > 0 ? timeout : fallback);
}

void set_authorization(HttpConnection::WireRequest& wire, const std::string& token) {
  if (token.empty()) {
    wire.erase(http::field::authorization);
  } else {
    wire.set(http::field::authorization, "Bearer " + token);
  }
}

}  // namespace

std::unique_ptr<HttpConnection> HttpClient::Impl::open_new(Clock::time_point deadline, const CancelToken* cancel,
                                                         std::string& error) {
  auto connection = std::make_unique<HttpConnection>(target);
  error = connection->connect(std::min(deadline, Clock::now() + options.connect_timeout), cancel);
  if (!error.empty()) return nullptr;
  return connection;
}

std::unique_ptr<HttpConnection> HttpClient::Impl::borrow(Clock::time_point deadline, const CancelToken* cancel,
                                                       std::string& error) {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    // Close connections idle for long: the server (or a load balancer) has
    // probably dropped them already.
    while (!idle.empty() && Clock::now() - idle.front()->idle_since() > options.idle_connection_timeout) {
      idle.erase(idle.begin());
      --open;
    }
    while (!idle.empty()) {
      auto connection = std::move(idle.back());
      idle.pop_back();
      if (!connection->closed_by_peer()) return connection;
      --open;
    }
    if (open < options.max_connections) break;
    if (cancel != nullptr && cancel->cancelled()) {
      error = "request cancelled";
      return nullptr;
    }
    // Wake up now and then to notice cancellation; connections come back quickly.
    const auto wake = std::min(deadline, Clock::now() + std::chrono::milliseconds(100));
    returned.wait_until(lock, wake);
    if (Clock::now() >= deadline) {
      error = "no free connection to " + target.url.to_string() + " before the deadline (pool of " +
              std::to_string(options.max_connections) + " busy)";
      return nullptr;
    }
  }
  ++open;
  ++created;
  lock.unlock();
  auto connection = open_new(deadline, cancel, error);
  if (!connection) {
    lock.lock();
    --open;
    returned.notify_one();
  }
  return connection;
}

void HttpClient::Impl::give_back(std::unique_ptr<HttpConnection> connection, bool reusable) {
  if (reusable) connection->mark_idle();
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (reusable) {
      idle.push_back(std::move(connection));
    } else {
      --open;
    }
  }
  returned.notify_one();
  // A connection not reused is destroyed (closed) here, outside the lock.
}

void HttpClient::Impl::drop_idle() {
  std::vector<std::unique_ptr<HttpConnection>> doomed;
  {
    std::lock_guard<std::mutex> lock(mutex);
    open -= idle.size();
    doomed.swap(idle);
  }
  returned.notify_all();
}

Result<HttpConnection::WireRequest> HttpClient::Impl::build(const HttpRequest& request) const {
  const http::verb verb = http::string_to_verb(request.method);
  if (verb == http::verb::unknown) return Error{"http: unknown method \"" + request.method + "\""};
  if (request.target.empty() || request.target.front() != '/')
    return Error{"http: request target must start with '/': \"" + request.target + "\""};
  HttpConnection::WireRequest wire{verb, target.url.base_path + request.target, 11};
  wire.set(http::field::host, target.url.host_header);
  wire.set(http::field::user_agent, options.user_agent);
  wire.set(http::field::accept, "application/json");
  if (!request.content_type.empty()) wire.set(http::field::content_type, request.content_type);
  wire.body() = request.body;
  wire.keep_alive(true);
  wire.prepare_payload();
  set_authorization(wire, tokens->token());
  return wire;
}

HttpResponse HttpClient::Impl::request_once(HttpConnection::WireRequest& wire, Clock::time_point deadline,
                                            const CancelToken* cancel) {
  for (int attempt = 0;; ++attempt) {
    std::string error;
    auto connection = borrow(deadline, cancel, error);
    if (!connection) {
      HttpResponse failed;
      failed.error = error;
      failed.cancelled = cancel != nullptr && cancel->cancelled();
      return failed;
    }
    Exchange exchange = connection->exchange(wire, deadline, options.max_response_bytes, cancel);
    const bool cancelled = cancel != nullptr && cancel->cancelled();
    if (exchange.nothing_received && attempt == 0 && !cancelled && Clock::now() < deadline) {
      // The server closed a kept-alive connection while it sat in the pool
      // (restart, idle timeout). Its siblings are likely dead too.
      spdlog::debug("http-client pooled connection to {} was closed by the server ({}); reconnecting",
                    target.url.to_string(), exchange.response.error);
      give_back(std::move(connection), false);
      drop_idle();
      continue;
    }
    give_back(std::move(connection), exchange.reusable && !cancelled);
    exchange.response.resent = attempt > 0;
    return std::move(exchange.response);
  }
}

HttpClient::HttpClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpClient::~HttpClient() = default;

Result<std::shared_ptr<HttpClient>> HttpClient::create(const ClusterConfig& config, HttpClientOptions options) {
  auto tokens = make_token_source(config);
  if (!tokens) return tokens.error();
  return create(config, std::move(options), *tokens);
}

Result<std::shared_ptr<HttpClient>> HttpClient::create(const ClusterConfig& config, HttpClientOptions options,
                                                       std::shared_ptr<TokenSource> tokens) {
  auto url = parse_server_url(config.server);
  if (!url) return Error{config.source.empty() ? url.message() : config.source + ": " + url.message()};
  auto impl = std::make_unique<Impl>();
  impl->target.url = *url;
  impl->target.verify_name = config.tls_server_name.empty() ? url->host : config.tls_server_name;
  impl->target.verify = !config.insecure_skip_tls_verify;
  if (url->tls) {
    auto ctx = make_tls_context(config);
    if (!ctx) return ctx.error();
    impl->target.tls = *ctx;
  }
  if (options.max_connections == 0) options.max_connections = 1;
  impl->tokens = tokens ? std::move(tokens) : TokenSource::fixed("");
  impl->options = std::move(options);
  return std::shared_ptr<HttpClient>(new HttpClient(std::move(impl)));
}

HttpResponse HttpClient::request(const HttpRequest& request, const CancelToken* cancel) {
  auto wire = impl_->build(request);
  if (!wire) {
    HttpResponse bad;
    bad.error = wire.message();
    return bad;
  }
  const auto deadline = deadline_after(request.timeout, impl_->options.request_timeout);
  HttpResponse response = impl_->request_once(*wire, deadline, cancel);
  if (response.status == 401 && impl_->tokens->refresh_after_unauthorized()) {
    set_authorization(*wire, impl_->tokens->token());
    response = impl_->request_once(*wire, deadline, cancel);
  }
  return response;
}

StreamResult HttpClient::stream(const HttpRequest& request, const BodyHandler& on_body, const CancelToken* cancel) {
  StreamResult out;
  auto wire = impl_->build(request);
  if (!wire) {
    out.error = wire.message();
    return out;
  }
  const auto idle_timeout = request.timeout.count() > 0 ? request.timeout : impl_->options.stream_idle_timeout;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const auto header_deadline = Clock::now() + impl_->options.request_timeout;
    std::string error;
    auto connection = impl_->open_new(header_deadline, cancel, error);
    if (!connection) {
      out.error = error;
      out.cancelled = cancel != nullptr && cancel->cancelled();
      return out;
    }
    out = connection->stream(*wire, header_deadline, idle_timeout, on_body, cancel);
    if (out.status == 401 && attempt == 0 && impl_->tokens->refresh_after_unauthorized()) {
      set_authorization(*wire, impl_->tokens->token());
      continue;
    }
    break;
  }
  return out;
}

std::string HttpClient::server() const { return impl_->target.url.to_string(); }

PoolStats HttpClient::pool_stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return PoolStats{impl_->open, impl_->idle.size(), impl_->created};
}

const HttpClientOptions& HttpClient::options() const { return impl_->options; }

}  // namespace troupe::watch
