#include "sim/http_server.hpp"

#include <array>
#include <atomic>
#include <deque>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace troupe::sim {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kIdleTimeout = std::chrono::minutes(10);
constexpr auto kHandshakeTimeout = std::chrono::seconds(30);
constexpr size_t kWatchWriteBatch = 256 * 1024;
constexpr size_t kMaxDiscardedBytes = 64 * 1024 * 1024;

struct SessionContext {
  ApiHandler& handler;
  ObjectStore& store;
  std::string token;
  size_t max_body_bytes;
  std::chrono::milliseconds bookmark_interval;
};

bool is_public_path(std::string_view path) {
  return path == "/healthz" || path == "/livez" || path == "/readyz" || path == "/version" ||
         path.rfind("/healthz/", 0) == 0 || path.rfind("/livez/", 0) == 0 || path.rfind("/readyz/", 0) == 0;
}

template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
 public:
  Session(Stream stream, SessionContext& ctx)
      : stream_(std::move(stream)), ctx_(ctx), timer_(stream_.get_executor()), bookmark_timer_(stream_.get_executor()) {}

  ~Session() {
    if (watcher_) watcher_->cancel();
  }

  void start() {
    if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
      asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&Session::do_read, this->shared_from_this()));
    } else {
      beast::get_lowest_layer(stream_).expires_after(kHandshakeTimeout);
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code ec) {
                                if (ec) return self->close();
                                self->do_read();
                              });
    }
  }

 private:
  void do_read() {
    parser_.emplace();
    parser_->body_limit(ctx_.max_body_bytes);
    beast::get_lowest_layer(stream_).expires_after(kIdleTimeout);
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Session::on_read, this->shared_from_this()));
  }

  void on_read(beast::error_code ec, size_t) {
    if (ec == http::error::end_of_stream) return close();
    if (ec == http::error::body_limit) return fail_request(request_entity_too_large(ctx_.max_body_bytes));
    if (ec && ec.category() == http::make_error_code(http::error::bad_method).category())
      return fail_request(bad_request("malformed HTTP request: " + ec.message()));
    if (ec) return close();

    auto& req = parser_->get();
    keep_alive_ = req.keep_alive();
    version_ = req.version();
    head_request_ = req.method() == http::verb::head;
    ApiRequest request;
    request.method = std::string(req.method_string());
    std::string_view target(req.target().data(), req.target().size());
    size_t question = target.find('?');
    request.path = std::string(target.substr(0, question));
    if (question != std::string_view::npos) request.query = parse_query(target.substr(question + 1));
    request.content_type = std::string(req[http::field::content_type]);
    request.accept = std::string(req[http::field::accept]);
    request.body = std::move(req.body());

    if (!ctx_.token.empty() && !is_public_path(request.path)) {
      auto auth = req[http::field::authorization];
      if (std::string_view(auth.data(), auth.size()) != "Bearer " + ctx_.token)
        return respond(error_response(unauthorized()));
    }
    ApiResponse response = ctx_.handler.handle(request);
    if (response.watch) return start_watch(std::move(response.watch));
    respond(std::move(response));
  }

  void respond(ApiResponse r) {
    response_ = {};
    response_.version(version_);
    response_.result(static_cast<unsigned>(r.status));
    response_.set(http::field::content_type, r.content_type);
    response_.set(http::field::cache_control, "no-cache, private");
    if (r.retry_after_seconds > 0) response_.set(http::field::retry_after, std::to_string(r.retry_after_seconds));
    response_.keep_alive(keep_alive_);
    if (head_request_) {
      response_.content_length(r.body.size()); // HEAD: the length of what GET would send, no body
    } else {
      response_.body() = std::move(r.body);
      response_.prepare_payload();
    }
    http::async_write(stream_, response_, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      if (!ec && self->discard_rest_) return self->discard_rest();
      if (ec || !self->keep_alive_) return self->close();
      self->do_read();
    });
  }

  // After rejecting a request whose body we will not read (413, 400): keep
  // reading and discarding for a while, so a client still sending its body
  // gets to read our answer instead of a reset connection.
  void discard_rest() {
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
    stream_.async_read_some(asio::buffer(discard_buffer_), [self = this->shared_from_this()](beast::error_code ec,
                                                                                             size_t n) {
      self->discarded_ += n;
      if (ec || self->discarded_ > kMaxDiscardedBytes) return self->close();
      self->discard_rest();
    });
  }

  // A request that cannot be parsed: answer with a Status and hang up.
  void fail_request(const ApiError& error) {
    keep_alive_ = false;
    head_request_ = false;
    discard_rest_ = true;
    version_ = 11;
    respond(error_response(error));
  }

  void close() {
    beast::error_code ignored;
    auto& socket = beast::get_lowest_layer(stream_).socket();
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
  }

  // --- watch streaming ---

  void start_watch(std::shared_ptr<WatchPlan> plan) {
    watcher_ = plan->watcher;
    bookmarks_ = plan->bookmarks;
    beast::get_lowest_layer(stream_).expires_never();
    std::weak_ptr<Session> weak = this->shared_from_this();
    auto executor = stream_.get_executor();
    watcher_->set_wake([weak, executor] {
      asio::post(executor, [weak] {
        if (auto self = weak.lock()) self->drain();
      });
    });
    timer_.expires_after(plan->timeout);
    timer_.async_wait([weak](beast::error_code ec) {
      auto self = weak.lock();
      if (ec || !self || self->watch_closed_) return;
      // Bookmark first (when asked), so the client can resume without a relist.
      if (self->bookmarks_) self->ctx_.store.bookmark(*self->watcher_);
      self->watcher_->finish(nullptr);
    });
    if (bookmarks_) schedule_bookmark();
    // The connection ends with the watch (end_watch closes it): "Connection:
    // close" keeps a client from putting it back in its pool and sending its
    // next request into a socket we are closing.
    out_ = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: no-cache, private\r\n"
           "Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n";
    writing_ = true;
    asio::async_write(stream_, asio::buffer(out_), [self = this->shared_from_this()](beast::error_code ec, size_t) {
      self->writing_ = false;
      if (ec) return self->end_watch();
      self->watch_for_hangup();
      self->drain();
    });
  }

  // A BOOKMARK at the current version every bookmark_interval while the watch lasts.
  void schedule_bookmark() {
    std::weak_ptr<Session> weak = this->shared_from_this();
    bookmark_timer_.expires_after(ctx_.bookmark_interval);
    bookmark_timer_.async_wait([weak](beast::error_code ec) {
      auto self = weak.lock();
      if (ec || !self || self->watch_closed_ || self->watcher_->finished()) return;
      self->ctx_.store.bookmark(*self->watcher_);
      self->schedule_bookmark();
    });
  }

  // The client never sends on a watch connection: a read completing means it
  // hung up (or broke protocol), so the watch ends.
  void watch_for_hangup() {
    stream_.async_read_some(asio::buffer(hangup_byte_), [self = this->shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->end_watch();
      self->watch_for_hangup();
    });
  }

  static void append_chunk(std::string& out, const std::string& line) {
    char head[24];
    int n = std::snprintf(head, sizeof head, "%zx\r\n", line.size());
    out.append(head, static_cast<size_t>(n));
    out.append(line);
    out.append("\r\n");
  }

  void drain() {
    if (writing_ || watch_closed_ || !watcher_) return;
    // Take from the watcher only when our own backlog is sent: the watcher's
    // bounded queue is what notices a client that does not keep up.
    if (backlog_.empty() && !watch_finished_) {
      std::vector<WatchItem> fresh;
      watch_finished_ = watcher_->take(fresh);
      for (auto& item : fresh) backlog_.push_back(std::move(item));
    }
    out_.clear();
    while (!backlog_.empty() && out_.size() < kWatchWriteBatch) {
      const WatchItem& item = backlog_.front();
      if (item.line) {
        append_chunk(out_, *item.line);
      } else {
        append_chunk(out_, watcher_->render(item));
      }
      backlog_.pop_front();
    }
    bool last = out_.empty();
    if (last) {
      if (!watch_finished_) return;
      out_ = "0\r\n\r\n";
    }
    writing_ = true;
    asio::async_write(stream_, asio::buffer(out_), [self = this->shared_from_this(), last](beast::error_code ec, size_t) {
      self->writing_ = false;
      if (ec || last) return self->end_watch();
      self->drain();
    });
  }

  void end_watch() {
    if (watch_closed_) return;
    watch_closed_ = true;
    timer_.cancel();
    bookmark_timer_.cancel();
    watcher_->cancel();
    ctx_.store.unwatch(watcher_.get());
    close();
  }

  Stream stream_;
  SessionContext& ctx_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  bool keep_alive_ = false;
  bool head_request_ = false;
  unsigned version_ = 11;

  std::shared_ptr<Watcher> watcher_;
  asio::steady_timer timer_;
  asio::steady_timer bookmark_timer_;
  std::deque<WatchItem> backlog_;
  std::string out_;
  char hangup_byte_[64];
  bool discard_rest_ = false;
  size_t discarded_ = 0;
  std::array<char, 16384> discard_buffer_;
  bool bookmarks_ = false;
  bool writing_ = false;
  bool watch_finished_ = false;
  bool watch_closed_ = false;
};

using TlsStream = beast::ssl_stream<beast::tcp_stream>;

}  // namespace

struct HttpServer::Impl {
  Impl(ApiHandler& handler, ObjectStore& store, HttpServerOptions opts)
      : options(std::move(opts)),
        ctx{handler, store, options.token, options.max_body_bytes, options.bookmark_interval},
        ioc(static_cast<int>(std::max<size_t>(options.threads, 1))),
        acceptor(asio::make_strand(ioc)) {}

  void accept() {
    acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
      if (!acceptor.is_open()) return;
      if (!ec) {
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        if (tls_context) {
          std::make_shared<Session<TlsStream>>(TlsStream(beast::tcp_stream(std::move(socket)), *tls_context), ctx)
              ->start();
        } else {
          std::make_shared<Session<beast::tcp_stream>>(beast::tcp_stream(std::move(socket)), ctx)->start();
        }
      }
      accept();
    });
  }

  // Declared before the io_context so that sessions still queued in it,
  // destroyed with it, never outlive what they point to.
  HttpServerOptions options;
  std::unique_ptr<ssl::context> tls_context;
  SessionContext ctx;
  asio::io_context ioc;
  // On a strand: its accept handlers and stop()'s close never run at once on
  // two io threads (the close nulled the descriptor under a re-armed accept).
  tcp::acceptor acceptor;
  std::vector<std::thread> threads;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
  uint16_t port = 0;
  bool stopped = false;
};

HttpServer::HttpServer(ApiHandler& handler, ObjectStore& store, HttpServerOptions options)
    : impl_(std::make_unique<Impl>(handler, store, std::move(options))) {}

HttpServer::~HttpServer() { stop(); }

Status HttpServer::start() {
  Impl& s = *impl_;
  std::string where = s.options.host + ":" + std::to_string(s.options.port);
  if (s.options.tls) {
    s.tls_context = std::make_unique<ssl::context>(ssl::context::tls_server);
    beast::error_code ec;
    s.tls_context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                               ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    s.tls_context->use_certificate_chain(asio::buffer(s.options.tls->server_cert_pem), ec);
    if (!ec) s.tls_context->use_private_key(asio::buffer(s.options.tls->server_key_pem), ssl::context::pem, ec);
    if (ec) return Error{"cannot load the TLS certificate: " + ec.message()};
  }
  beast::error_code ec;
  auto address = asio::ip::make_address(s.options.host == "localhost" ? "127.0.0.1" : s.options.host, ec);
  if (ec) return Error{"--listen " + where + ": \"" + s.options.host + "\" is not an IP address"};
  tcp::endpoint endpoint(address, s.options.port);
  s.acceptor.open(endpoint.protocol(), ec);
  if (!ec) s.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) s.acceptor.bind(endpoint, ec);
  if (!ec) s.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Error{"cannot listen on " + where + ": " + ec.message()};
  s.port = s.acceptor.local_endpoint().port();
  s.work.emplace(s.ioc.get_executor());
  s.accept();
  for (size_t i = 0; i < std::max<size_t>(s.options.threads, 1); ++i) s.threads.emplace_back([&s] { s.ioc.run(); });
  return Status::success();
}

void HttpServer::stop() {
  Impl& s = *impl_;
  if (s.stopped) return;
  s.stopped = true;
  // Let watch streams end with their terminating chunk before the loop stops.
  s.ctx.store.finish_watches();
  asio::post(s.acceptor.get_executor(), [&s] {
    beast::error_code ignored;
    s.acceptor.close(ignored);
  });
  if (!s.threads.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  s.work.reset();
  s.ioc.stop();
  for (auto& t : s.threads)
    if (t.joinable()) t.join();
  s.threads.clear();
}

uint16_t HttpServer::port() const { return impl_->port; }

}  // namespace troupe::sim
