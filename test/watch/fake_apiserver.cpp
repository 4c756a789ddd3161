#include "fake_apiserver.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <cctype>
#include <cstdio>
#include <set>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <openssl/x509.h>

#include "watch/json_util.hpp"

namespace troupe::test {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

// ---------------------------------------------------------------- ResponseWriter

void ResponseWriter::write(std::string_view bytes) {
  if (closed_ || failed_) return;
  if (!write_(bytes)) failed_ = true;
}

void ResponseWriter::respond(int status, const std::string& body, const std::string& content_type,
                             const std::vector<std::pair<std::string, std::string>>& headers) {
  std::string head = "HTTP/1.1 " + std::to_string(status) + " " +
                     std::string(http::obsolete_reason(http::int_to_status(static_cast<unsigned>(status)))) + "\r\n";
  if (!content_type.empty()) head += "Content-Type: " + content_type + "\r\n";
  head += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  for (const auto& [name, value] : headers) head += name + ": " + value + "\r\n";
  head += "\r\n";
  write(head + body);
}

void ResponseWriter::respond_status(int status, const std::string& reason, const std::string& message,
                                    const std::vector<std::pair<std::string, std::string>>& headers) {
  const std::string body = R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":)" +
                           watch::json_quote(message) + R"(,"reason":)" + watch::json_quote(reason) +
                           R"(,"code":)" + std::to_string(status) + "}";
  respond(status, body, "application/json", headers);
}

void ResponseWriter::begin_stream(int status, const std::string& content_type) {
  write("HTTP/1.1 " + std::to_string(status) + " " +
        std::string(http::obsolete_reason(http::int_to_status(static_cast<unsigned>(status)))) +
        "\r\nContent-Type: " + content_type + "\r\nTransfer-Encoding: chunked\r\n\r\n");
}

void ResponseWriter::chunk(std::string_view bytes) {
  if (bytes.empty()) return;
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
  write(std::string(size) + std::string(bytes) + "\r\n");
}

void ResponseWriter::end_stream() { write("0\r\n\r\n"); }

void ResponseWriter::cut() {
  if (closed_) return;
  close_();
  closed_ = true;
}

bool ResponseWriter::wait_for_client_close(std::chrono::milliseconds timeout) {
  if (closed_) return true;
  return wait_closed_(timeout);
}

// ---------------------------------------------------------------- server

namespace {

std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else if (text[i] == '+') {
      out.push_back(' ');
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::map<std::string, std::string> parse_query(std::string_view query) {
  std::map<std::string, std::string> out;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const auto eq = pair.find('=');
    out[percent_decode(pair.substr(0, eq))] = eq == std::string_view::npos ? "" : percent_decode(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

struct FakeApiServer::Impl {
  FakeApiServer* owner = nullptr;
  Handler handler;
  std::unique_ptr<ssl::context> tls;
  net::io_context ioc;
  tcp::acceptor acceptor{ioc};
  std::thread accept_thread;
  std::atomic<bool> stopping{false};

  mutable std::mutex mutex;
  std::vector<std::thread> connection_threads;
  std::set<int> open_fds;
  std::vector<RecordedRequest> requests;

  void accept_loop();
  void serve(tcp::socket socket, int id);
  template <class Stream>
  void serve_requests(Stream& stream, int fd, int id, const std::string& subject);
  bool wait_closed(int fd, std::chrono::milliseconds timeout) const;
};

bool FakeApiServer::Impl::wait_closed(int fd, std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!stopping.load() && std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, static_cast<short>(POLLIN | POLLRDHUP), 0};
    if (::poll(&p, 1, 20) > 0) return true;  // EOF, reset or stray bytes: the client is done with us
  }
  return false;
}

void FakeApiServer::Impl::accept_loop() {
  int next_id = 0;
  for (;;) {
    tcp::socket socket(ioc);
    boost::system::error_code ec;
    acceptor.accept(socket, ec);
    if (ec || stopping.load()) return;
    const int id = ++next_id;
    owner->connections_.fetch_add(1);
    std::lock_guard<std::mutex> lock(mutex);
    connection_threads.emplace_back([this, s = std::move(socket), id]() mutable { serve(std::move(s), id); });
  }
}

template <class Stream>
void FakeApiServer::Impl::serve_requests(Stream& stream, int fd, int id, const std::string& subject) {
  boost::beast::flat_buffer buffer;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(64u << 20);
    boost::system::error_code ec;
    http::read(stream, buffer, parser, ec);
    if (ec || stopping.load()) return;
    const auto& req = parser.get();
    RecordedRequest record;
    record.method = std::string(req.method_string());
    record.target = std::string(req.target());
    const auto question = record.target.find('?');
    record.path = record.target.substr(0, question);
    if (question != std::string::npos) record.query = parse_query(std::string_view(record.target).substr(question + 1));
    for (const auto& field : req) record.headers[lower(std::string(field.name_string()))] = std::string(field.value());
    record.body = req.body();
    record.connection = id;
    record.client_certificate_subject = subject;
    {
      std::lock_guard<std::mutex> lock(mutex);
      requests.push_back(record);
    }
    ResponseWriter writer(
        [&stream](std::string_view bytes) {
          boost::system::error_code write_ec;
          net::write(stream, net::buffer(bytes.data(), bytes.size()), write_ec);
          return !write_ec;
        },
        [fd] { ::shutdown(fd, SHUT_RDWR); },
        [this, fd](std::chrono::milliseconds timeout) { return wait_closed(fd, timeout); });
    handler(record, writer);
    if (!writer.keeps_connection() || writer.failed() || !req.keep_alive()) return;
  }
}

void FakeApiServer::Impl::serve(tcp::socket socket, int id) {
  const int fd = socket.native_handle();
  {
    std::lock_guard<std::mutex> lock(mutex);
    open_fds.insert(fd);
  }
  owner->open_.fetch_add(1);
  if (tls) {
    ssl::stream<tcp::socket&> stream(socket, *tls);
    boost::system::error_code ec;
    stream.handshake(ssl::stream_base::server, ec);
    if (!ec) {
      std::string subject;
      if (X509* peer = SSL_get1_peer_certificate(stream.native_handle())) {
        char name[256];
        X509_NAME_oneline(X509_get_subject_name(peer), name, sizeof name);
        subject = name;
        X509_free(peer);
      }
      serve_requests(stream, fd, id, subject);
    }
  } else {
    serve_requests(socket, fd, id, "");
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    open_fds.erase(fd);
  }
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
  owner->open_.fetch_sub(1);
}

FakeApiServer::FakeApiServer(Handler handler, std::optional<FakeServerTls> tls) : impl_(std::make_unique<Impl>()) {
  impl_->owner = this;
  impl_->handler = std::move(handler);
  if (tls) {
    impl_->tls = std::make_unique<ssl::context>(ssl::context::tls_server);
    impl_->tls->use_certificate_chain(net::buffer(tls->cert_pem));
    impl_->tls->use_private_key(net::buffer(tls->key_pem), ssl::context::pem);
    if (!tls->client_ca_pem.empty()) {
      impl_->tls->add_certificate_authority(net::buffer(tls->client_ca_pem));
      impl_->tls->set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
    }
  }
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  port_ = impl_->acceptor.local_endpoint().port();
  impl_->accept_thread = std::thread([this] { impl_->accept_loop(); });
}

FakeApiServer::~FakeApiServer() { stop(); }

void FakeApiServer::stop() {
  if (impl_->stopping.exchange(true)) return;
  ::shutdown(impl_->acceptor.native_handle(), SHUT_RDWR);
  impl_->accept_thread.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    for (const int fd : impl_->open_fds) ::shutdown(fd, SHUT_RDWR);
    threads.swap(impl_->connection_threads);
  }
  for (auto& thread : threads) thread.join();
  boost::system::error_code ignored;
  impl_->acceptor.close(ignored);
}

std::string FakeApiServer::url() const {
  return std::string(impl_->tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_);
}

std::vector<RecordedRequest> FakeApiServer::requests() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->requests;
}

std::size_t FakeApiServer::request_count() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->requests.size();
}

}  // namespace troupe::test
