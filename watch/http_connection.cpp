#include "watch/http_connection.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <openssl/ssl.h>
#include <poll.h>

namespace troupe::watch {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using boost::system::error_code;

namespace {

// Non-200 stream bodies are Status objects; anything longer is not worth keeping.
constexpr std::size_t kMaxErrorBody = 1 << 20;
constexpr std::size_t kStreamBufferBytes = 64 * 1024;

std::optional<int> parse_retry_after(const http::fields& fields) {
  const auto it = fields.find(http::field::retry_after);
  if (it == fields.end()) return std::nullopt;
  const std::string value(it->value());
  if (value.empty() || value.size() > 9 || value.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;  // HTTP-date form: client-go ignores it too
  return std::stoi(value);
}

// Methods a transport may send again when a reused connection died before any answer,
// as Go's transport does: a request sent in full may have been processed.
bool replayable(http::verb method) {
  return method == http::verb::get || method == http::verb::head || method == http::verb::options;
}

std::string header_value(const http::fields& fields, http::field name) {
  const auto it = fields.find(name);
  return it == fields.end() ? std::string{} : std::string(it->value());
}

}  // namespace

HttpConnection::HttpConnection(const ConnectionTarget& target) : target_(target) {
  if (target_.tls) {
    tls_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(ioc_, *target_.tls);
  } else {
    plain_ = std::make_unique<beast::tcp_stream>(ioc_);
  }
  idle_since_ = Clock::now();
}

HttpConnection::~HttpConnection() { close_socket(); }

beast::tcp_stream& HttpConnection::tcp() { return tls_ ? beast::get_lowest_layer(*tls_) : *plain_; }

template <class F>
decltype(auto) HttpConnection::with_stream(F&& f) {
  return tls_ ? f(*tls_) : f(*plain_);
}

// Starts one asynchronous operation and runs this connection's io_context
// until it completed: a blocking call whose deadline is the stream's expiry.
template <class Initiate>
error_code HttpConnection::run(Initiate&& initiate) {
  error_code result = net::error::operation_aborted;
  initiate([&result](error_code ec, auto&&...) { result = ec; });
  ioc_.restart();
  ioc_.run();
  return result;
}

void HttpConnection::close_socket() {
  error_code ignored;
  tcp().socket().shutdown(tcp::socket::shutdown_both, ignored);
  tcp().socket().close(ignored);
}

bool HttpConnection::closed_by_peer() {
  if (buffer_.size() > 0) return true;  // bytes nobody asked for: the exchange is out of step
  pollfd socket{};
  socket.fd = tcp().socket().native_handle();
  socket.events = POLLIN | POLLRDHUP;
  // An idle HTTP/1.1 connection has nothing to read: readable means the peer's
  // FIN or reset (or a TLS close_notify) is waiting.
  return ::poll(&socket, 1, 0) != 0;
}

CancelToken::Hook HttpConnection::watch_cancel(const CancelToken* cancel) {
  if (cancel == nullptr) return {};
  return cancel->on_cancel([this] {
    net::post(ioc_, [this] {
      cancelled_ = true;
      close_socket();
    });
  });
}

std::string HttpConnection::describe(const error_code& ec, const char* step) const {
  if (ec == beast::error::timeout) return std::string(step) + " to " + target_.url.to_string() + ": timed out";
  return std::string(step) + " to " + target_.url.to_string() + ": " + ec.message();
}

std::string HttpConnection::connect(Clock::time_point deadline, const CancelToken* cancel) {
  CancelToken::Hook hook = watch_cancel(cancel);
  tcp::resolver::results_type endpoints;
  error_code ec;
  const net::ip::address literal = net::ip::make_address(target_.url.host, ec);
  if (!ec) {
    endpoints = tcp::resolver::results_type::create(tcp::endpoint(literal, std::stoi(target_.url.port)),
                                                    target_.url.host, target_.url.port);
  } else {
    // The resolver has no expiry of its own; a timer cancels it at the deadline.
    tcp::resolver resolver(ioc_);
    net::steady_timer timer(ioc_, deadline);
    timer.async_wait([&resolver](error_code timer_ec) {
      if (!timer_ec) resolver.cancel();
    });
    ec = run([&](auto handler) {
      resolver.async_resolve(target_.url.host, target_.url.port,
                             [&, handler](error_code resolve_ec, tcp::resolver::results_type results) mutable {
                               endpoints = std::move(results);
                               timer.cancel();
                               handler(resolve_ec);
                             });
    });
    if (ec) return describe(ec == net::error::operation_aborted ? error_code(beast::error::timeout) : ec, "resolve");
  }

  tcp().expires_at(deadline);
  ec = run([&](auto handler) { tcp().async_connect(endpoints, handler); });
  if (cancelled_) return "connect: cancelled";
  if (ec) return describe(ec, "connect");
  tcp().socket().set_option(tcp::no_delay(true), ec);

  if (tls_) {
    const std::string& name = target_.verify_name;
    error_code not_an_address;
    net::ip::make_address(name, not_an_address);
    const bool name_is_ip = !not_an_address;
    // SNI carries host names only (RFC 6066 §3); an IP literal is not sent.
    if (!name_is_ip && SSL_set_tlsext_host_name(tls_->native_handle(), name.c_str()) != 1)
      return "tls: cannot set server name " + name;
    if (target_.verify) tls_->set_verify_callback(net::ssl::host_name_verification(name));
    tcp().expires_at(deadline);
    ec = run([&](auto handler) { tls_->async_handshake(net::ssl::stream_base::client, handler); });
    if (cancelled_) return "tls handshake: cancelled";
    if (ec) return describe(ec, "tls handshake");
  }
  return "";
}

Exchange HttpConnection::exchange(WireRequest& request, Clock::time_point deadline, std::size_t max_body,
                                  const CancelToken* cancel) {
  CancelToken::Hook hook = watch_cancel(cancel);
  Exchange out;
  const bool was_used = used_;
  used_ = true;

  tcp().expires_at(deadline);
  error_code ec = with_stream([&](auto& s) { return run([&](auto h) { http::async_write(s, request, h); }); });
  if (ec) {
    out.response.cancelled = cancelled_;
    out.response.error = cancelled_ ? "request cancelled" : describe(ec, "send request");
    out.nothing_received = was_used;
    return out;
  }

  http::response_parser<http::string_body> parser;
  parser.body_limit(max_body);
  tcp().expires_at(deadline);
  ec = with_stream([&](auto& s) { return run([&](auto h) { http::async_read(s, buffer_, parser, h); }); });
  if (ec) {
    out.response.cancelled = cancelled_;
    out.response.error = cancelled_ ? "request cancelled" : describe(ec, "read response");
    out.nothing_received = was_used && !parser.got_some() && replayable(request.method());
    return out;
  }
  auto message = parser.release();
  out.response.status = static_cast<int>(message.result_int());
  out.response.content_type = header_value(message, http::field::content_type);
  out.response.retry_after_seconds = parse_retry_after(message);
  out.response.body = std::move(message.body());
  out.reusable = message.keep_alive();
  return out;
}

StreamResult HttpConnection::stream(WireRequest& request, Clock::time_point header_deadline,
                                    std::chrono::milliseconds idle_timeout, const HttpClient::BodyHandler& on_body,
                                    const CancelToken* cancel) {
  CancelToken::Hook hook = watch_cancel(cancel);
  StreamResult out;
  used_ = true;
  auto fail = [&](const error_code& ec, const char* step) {
    out.cancelled = cancelled_ || (cancel != nullptr && cancel->cancelled());
    out.error = out.cancelled ? "stream cancelled" : describe(ec, step);
    return out;
  };

  tcp().expires_at(header_deadline);
  error_code ec = with_stream([&](auto& s) { return run([&](auto h) { http::async_write(s, request, h); }); });
  if (ec) return fail(ec, "send request");

  http::response_parser<http::buffer_body> parser;
  parser.body_limit(boost::none);  // a watch never ends by size
  tcp().expires_at(header_deadline);
  ec = with_stream([&](auto& s) { return run([&](auto h) { http::async_read_header(s, buffer_, parser, h); }); });
  if (ec) return fail(ec, "read response header");
  out.status = static_cast<int>(parser.get().result_int());
  out.retry_after_seconds = parse_retry_after(parser.get());
  const bool ok = out.status == 200;

  char chunk[kStreamBufferBytes];
  while (!parser.is_done()) {
    parser.get().body().data = chunk;
    parser.get().body().size = sizeof chunk;
    tcp().expires_after(idle_timeout);
    // read_some, not read: hand over each event as soon as it arrives instead
    // of waiting for the buffer to fill.
    ec = with_stream([&](auto& s) { return run([&](auto h) { http::async_read_some(s, buffer_, parser, h); }); });
    if (ec == http::error::need_buffer) ec = {};
    const std::size_t n = sizeof chunk - parser.get().body().size;
    if (n > 0) {
      if (ok) {
        out.body_bytes += n;
        if (!on_body(std::string_view(chunk, n))) {
          out.stopped_by_handler = true;
          return out;
        }
      } else if (out.body.size() < kMaxErrorBody) {
        out.body.append(chunk, std::min(n, kMaxErrorBody - out.body.size()));
      }
    }
    if (ec) return fail(ec, "read watch stream");
  }
  out.clean_end = true;
  return out;
}

}  // namespace troupe::watch
