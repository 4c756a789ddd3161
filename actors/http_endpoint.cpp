#include "actors/http_endpoint.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace troupe::actors {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr std::size_t kMaxBodyBytes = 4 * 1024 * 1024;

// One connection: read a request, answer it, repeat while keep-alive.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, const HttpHandler& handler) : stream_(std::move(socket)), handler_(handler) {}

  void run() { read(); }

 private:
  void read() {
    parser_.emplace();
    parser_->body_limit(kMaxBodyBytes);
    stream_.expires_after(std::chrono::seconds(60));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec) return close();
    auto& req = parser_->get();
    HttpRequest request{std::string(req.method_string()), std::string(req.target()), req.body()};
    HttpReply reply;
    try {
      reply = handler_(request);
    } catch (const std::exception& e) {
      reply = {500, "text/plain; charset=utf-8", std::string("internal error: ") + e.what() + "\n"};
    }
    response_ = std::make_shared<http::response<http::string_body>>();
    response_->version(req.version());
    response_->result(static_cast<http::status>(reply.status));
    response_->set(http::field::content_type, reply.content_type);
    response_->keep_alive(req.keep_alive());
    response_->body() = std::move(reply.body);
    response_->prepare_payload();
    http::async_write(stream_, *response_,
                      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
  }

  void on_write(beast::error_code ec) {
    if (ec || !response_->keep_alive()) return close();
    read();
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<http::response<http::string_body>> response_;
  const HttpHandler& handler_;
};

}  // namespace

struct HttpEndpoint::Impl {
  net::io_context io{1};
  tcp::acceptor acceptor{io};
  HttpHandler handler;
  std::thread thread;

  void accept() {
    acceptor.async_accept(net::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
      if (ec) {
        if (ec == net::error::operation_aborted) return;
      } else {
        std::make_shared<Session>(std::move(socket), handler)->run();
      }
      accept();
    });
  }
};

HttpEndpoint::HttpEndpoint() = default;

HttpEndpoint::~HttpEndpoint() { stop(); }

Status HttpEndpoint::start(const std::string& listen_address, HttpHandler handler) {
  auto hp = split_host_port(listen_address);
  if (!hp) return hp.error();
  impl_ = std::make_unique<Impl>();
  impl_->handler = std::move(handler);
  beast::error_code ec;
  auto host = hp->first.empty() ? std::string("0.0.0.0") : hp->first;
  auto address = net::ip::make_address(host, ec);
  if (ec) return Error{"invalid listen address \"" + listen_address + "\": " + ec.message()};
  tcp::endpoint endpoint{address, hp->second};
  impl_->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(endpoint, ec);
  if (!ec) impl_->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return Error{"cannot listen on " + listen_address + ": " + ec.message()};
  port_ = impl_->acceptor.local_endpoint().port();
  impl_->accept();
  impl_->thread = std::thread([impl = impl_.get()] { impl->io.run(); });
  return {};
}

void HttpEndpoint::stop() {
  if (!impl_) return;
  net::post(impl_->io, [impl = impl_.get()] {
    beast::error_code ignored;
    impl->acceptor.close(ignored);
    impl->io.stop();
  });
  if (impl_->thread.joinable()) impl_->thread.join();
  impl_.reset();
}

Result<std::pair<std::string, unsigned short>> split_host_port(const std::string& address) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos) return Error{"address \"" + address + "\" must be HOST:PORT"};
  std::string host = address.substr(0, colon);
  std::string port_text = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (port_text.empty() || port_text.size() > 5 ||
      port_text.find_first_not_of("0123456789") != std::string::npos)
    return Error{"address \"" + address + "\" has an invalid port"};
  unsigned long port = std::stoul(port_text);
  if (port > 65535) return Error{"address \"" + address + "\" has an invalid port"};
  return std::make_pair(host, static_cast<unsigned short>(port));
}

}  // namespace troupe::actors
