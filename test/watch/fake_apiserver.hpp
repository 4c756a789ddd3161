#pragma once
// FakeApiServer: a small scripted HTTP/1.1 server (optionally TLS) on
// 127.0.0.1:<random port> for testing watch/ against real sockets: canned
// responses, chunked watch streams split wherever a test likes, abrupt
// connection cuts, silent closing of kept-alive connections. Each connection
// is served by its own thread with Beast's synchronous calls; the test's
// handler decides every response.

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace troupe::test {

struct RecordedRequest {
  std::string method;
  std::string target;                         // path and query as sent
  std::string path;                           // target without the query
  std::map<std::string, std::string> query;   // decoded query parameters
  std::map<std::string, std::string> headers; // names in lower case
  std::string body;
  int connection = 0;                         // which accepted connection carried it (1, 2, ...)
  std::string client_certificate_subject;     // TLS client certificate, if one was presented
};

/// Writes a response to one connection. Raw bytes go out exactly as given, so
/// tests control chunk boundaries.
class ResponseWriter {
 public:
  using WriteFn = std::function<bool(std::string_view)>;
  using CloseFn = std::function<void()>;
  using WaitFn = std::function<bool(std::chrono::milliseconds)>;

  ResponseWriter(WriteFn write, CloseFn close, WaitFn wait_closed)
      : write_(std::move(write)), close_(std::move(close)), wait_closed_(std::move(wait_closed)) {}

  /// A complete response with Content-Length. `headers` are added verbatim.
  void respond(int status, const std::string& body, const std::string& content_type = "application/json",
               const std::vector<std::pair<std::string, std::string>>& headers = {});
  /// A Kubernetes Status error body for `status`.
  void respond_status(int status, const std::string& reason, const std::string& message,
                      const std::vector<std::pair<std::string, std::string>>& headers = {});

  /// Chunked response: headers now, then chunk() calls, then end_stream().
  void begin_stream(int status = 200, const std::string& content_type = "application/json");
  /// One HTTP chunk holding exactly `bytes` (empty input is ignored).
  void chunk(std::string_view bytes);
  void end_stream();

  /// Closes the TCP connection at once, mid-response if need be.
  void cut();
  /// Blocks until the client closes the connection (true) or `timeout` passes.
  bool wait_for_client_close(std::chrono::milliseconds timeout);

  bool failed() const { return failed_; }
  bool closed() const { return closed_; }
  /// False makes the server drop the connection after this response without
  /// saying so (no "Connection: close"), like a server's idle timeout.
  void keep_connection(bool keep) { keep_ = keep; }
  bool keeps_connection() const { return keep_ && !closed_; }

 private:
  void write(std::string_view bytes);

  WriteFn write_;
  CloseFn close_;
  WaitFn wait_closed_;
  bool failed_ = false;
  bool closed_ = false;
  bool keep_ = true;
};

struct FakeServerTls {
  std::string cert_pem;
  std::string key_pem;
  std::string client_ca_pem;  // non-empty: client certificates are requested and verified
};

class FakeApiServer {
 public:
  using Handler = std::function<void(const RecordedRequest&, ResponseWriter&)>;

  explicit FakeApiServer(Handler handler, std::optional<FakeServerTls> tls = std::nullopt);
  ~FakeApiServer();
  FakeApiServer(const FakeApiServer&) = delete;
  FakeApiServer& operator=(const FakeApiServer&) = delete;

  /// "http://127.0.0.1:PORT" or "https://…".
  std::string url() const;
  int port() const { return port_; }

  std::vector<RecordedRequest> requests() const;
  std::size_t request_count() const;
  int connections_accepted() const { return connections_.load(); }
  /// Connections currently open.
  int connections_open() const { return open_.load(); }

  /// Closes everything and joins all threads; called by the destructor.
  void stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
  std::atomic<int> connections_{0};
  std::atomic<int> open_{0};
};

}  // namespace troupe::test
