#pragma once
// HttpConnection: one TCP (optionally TLS) connection to the API server, used
// by one thread at a time. Internal to watch/ — HttpClient is the public face.
//
// Each connection owns a private io_context and drives Beast's asynchronous
// operations to completion on the calling thread. That gives blocking calls
// with real deadlines (Beast's synchronous calls have none), and a way to
// interrupt them from another thread: CancelToken posts a close into that
// io_context.

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "watch/http_client.hpp"
#include "watch/server_url.hpp"

namespace troupe::watch {

/// Where to connect and how to check the peer, shared by all connections.
struct ConnectionTarget {
  ServerUrl url;
  std::shared_ptr<boost::asio::ssl::context> tls;  // null for http://
  std::string verify_name;                         // name checked in (and sent as SNI for) the certificate
  bool verify = true;
};

/// Outcome of one request/response exchange.
struct Exchange {
  HttpResponse response;
  bool reusable = false;          // keep-alive and cleanly finished
  /// A reused connection failed before a single response byte (the server may
  /// have dropped it while idle), and the request is safe to send again.
  bool nothing_received = false;
};

class HttpConnection {
 public:
  using Clock = std::chrono::steady_clock;
  using WireRequest = boost::beast::http::request<boost::beast::http::string_body>;

  explicit HttpConnection(const ConnectionTarget& target);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  /// Resolve, connect, TLS handshake. Returns "" or the error.
  std::string connect(Clock::time_point deadline, const CancelToken* cancel);

  Exchange exchange(WireRequest& request, Clock::time_point deadline, std::size_t max_body,
                    const CancelToken* cancel);

  StreamResult stream(WireRequest& request, Clock::time_point header_deadline, std::chrono::milliseconds idle_timeout,
                      const HttpClient::BodyHandler& on_body, const CancelToken* cancel);

  /// True once this connection carried a request (so a failure may mean the
  /// server closed it while idle).
  bool used() const { return used_; }
  /// True when the server closed this idle connection (or sent something
  /// unasked) since its last response: checked before reuse, so that a request
  /// that must not be sent twice does not go out on a dead connection.
  bool closed_by_peer();
  Clock::time_point idle_since() const { return idle_since_; }
  void mark_idle() { idle_since_ = Clock::now(); }

 private:
  template <class Initiate>
  boost::system::error_code run(Initiate&& initiate);
  template <class F>
  decltype(auto) with_stream(F&& f);
  boost::beast::tcp_stream& tcp();
  CancelToken::Hook watch_cancel(const CancelToken* cancel);
  void close_socket();
  std::string describe(const boost::system::error_code& ec, const char* step) const;

  const ConnectionTarget& target_;
  boost::asio::io_context ioc_;
  std::unique_ptr<boost::beast::tcp_stream> plain_;
  std::unique_ptr<boost::beast::ssl_stream<boost::beast::tcp_stream>> tls_;
  boost::beast::flat_buffer buffer_;
  bool used_ = false;
  bool cancelled_ = false;  // only touched on the owning thread (set by the posted close)
  Clock::time_point idle_since_;
};

}  // namespace troupe::watch
