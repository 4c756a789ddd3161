// troupe bench-apiserver: how fast the embedded API server accepts pod
// creates and bindings from C concurrent keep-alive HTTP clients, and how
// fast it fans the resulting watch events out to W watchers. The server runs
// in this process on a free loopback port; clients and watchers are plain
// synchronous Beast connections on their own threads.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "cmd/commands.hpp"
#include "cmd/flags.hpp"
#include "sim/api_server.hpp"

namespace troupe::cmd {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

const char* kSummary =
    "Measures the embedded API server: pod creates/s and bindings/s (POST pods/NAME/binding) from C concurrent\n"
    "keep-alive clients, and watch fan-out events/s to W watchers of all pods. Runs the server in-process.";

std::vector<FlagSpec> bench_specs() {
  return {
      {"pods", true, "pods to create and then bind (default 5000)"},
      {"watchers", true, "concurrent watchers of /api/v1/pods (default 1)"},
      {"clients", true, "concurrent keep-alive HTTP clients (default 4)"},
      {"threads", true, "API server threads (default 2)"},
      {"json", false, "print the results as JSON"},
      {"help", false, "show this help"},
  };
}

std::string pod_json(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default","labels":{"app":"bench","tier":"batch"},)"
         R"("annotations":{"bench.troupe.dev/note":"a pod of typical size"}},)"
         R"("spec":{"schedulerName":"troupe","restartPolicy":"Always","terminationGracePeriodSeconds":30,)"
         R"("tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],)"
         R"("containers":[{"name":"main","image":"registry.example.com/bench/app:1.2.3",)"
         R"("command":["/bin/app","--serve"],"env":[{"name":"MODE","value":"bench"}],)"
         R"("ports":[{"containerPort":8080,"protocol":"TCP"}],)"
         R"("resources":{"requests":{"cpu":"500m","memory":"1Gi"},"limits":{"cpu":"1","memory":"2Gi"}}}]}})";
}

std::string binding_json(const std::string& name, int node) {
  return R"({"apiVersion":"v1","kind":"Binding","metadata":{"name":")" + name +
         R"(","annotations":{"scheduling.koordinator.sh/resource-status":"{\"cpuset\":\"0-1\"}"}},)"
         R"("target":{"apiVersion":"v1","kind":"Node","name":"node-)" + std::to_string(node) + R"("}})";
}

// One keep-alive client connection issuing POSTs.
class Client {
 public:
  explicit Client(uint16_t port) : stream_(ioc_) { stream_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port)); }

  unsigned post(const std::string& target, const std::string& body) {
    http::request<http::string_body> req{http::verb::post, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::content_type, "application/json");
    req.keep_alive(true);
    req.body() = body;
    req.prepare_payload();
    http::write(stream_, req);
    http::response<http::string_body> res;
    http::read(stream_, buffer_, res);
    return res.result_int();
  }

 private:
  asio::io_context ioc_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
};

// A raw watch connection counting newline-terminated events in the
// chunk-decoded body until `expected` arrived or the deadline passed.
class WatchCounter {
 public:
  WatchCounter(uint16_t port, const std::string& rv) : socket_(ioc_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    std::string request = "GET /api/v1/pods?watch=1&resourceVersion=" + rv +
                          " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n";
    asio::write(socket_, asio::buffer(request));
  }

  void count_until(size_t expected, Clock::time_point deadline) {
    std::vector<char> buf(1 << 16);
    while (events_ < expected && Clock::now() < deadline) {
      beast::error_code ec;
      size_t n = socket_.read_some(asio::buffer(buf), ec);
      if (ec) break;
      feed(buf.data(), n);
    }
    finished_at_ = Clock::now();
  }

  size_t events() const { return events_; }
  Clock::time_point finished_at() const { return finished_at_; }

 private:
  // HTTP headers, then chunks "<hex>\r\n<data>\r\n".
  void feed(const char* data, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      char c = data[i];
      switch (state_) {
        case State::headers:
          header_tail_ = (header_tail_ << 8) | static_cast<unsigned char>(c);
          if ((header_tail_ & 0xffffffffu) == 0x0d0a0d0au) state_ = State::size;
          break;
        case State::size:
          if (c == '\n') {
            state_ = remaining_ == 0 ? State::size : State::data;
          } else if (std::isxdigit(static_cast<unsigned char>(c))) {
            remaining_ = remaining_ * 16 + static_cast<size_t>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (std::tolower(c) - 'a' + 10));
          }
          break;
        case State::data:
          if (c == '\n') ++events_;
          if (--remaining_ == 0) state_ = State::data_end;
          break;
        case State::data_end:
          if (c == '\n') state_ = State::size;
          break;
      }
    }
  }

  enum class State { headers, size, data, data_end };
  asio::io_context ioc_;
  tcp::socket socket_;
  State state_ = State::headers;
  uint64_t header_tail_ = 0;
  size_t remaining_ = 0;
  size_t events_ = 0;
  Clock::time_point finished_at_;
};

struct Phase {
  std::string name;
  size_t count = 0;
  double seconds = 0;
  size_t failures = 0;
  double rate() const { return seconds > 0 ? static_cast<double>(count) / seconds : 0; }
};

// Runs `per_item(client, i)` for i in [0, n) split across `clients` threads.
template <class Fn>
Phase run_phase(const std::string& name, uint16_t port, size_t n, size_t clients, Fn per_item) {
  std::atomic<size_t> failures{0};
  std::vector<std::thread> threads;
  auto start = Clock::now();
  for (size_t c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      Client client(port);
      for (size_t i = c; i < n; i += clients)
        if (!per_item(client, i)) ++failures;
    });
  }
  for (auto& t : threads) t.join();
  Phase p;
  p.name = name;
  p.count = n;
  p.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  p.failures = failures.load();
  return p;
}

}  // namespace

int run_bench_apiserver(int argc, char** argv) {
  auto parsed = Flags::parse(argc, argv, 1, bench_specs());
  if (!parsed.ok()) {
    std::fprintf(stderr, "troupe bench-apiserver: %s\n\n%s", parsed.message().c_str(),
                 Flags::usage("bench-apiserver", kSummary, bench_specs()).c_str());
    return 2;
  }
  const Flags& flags = parsed.value();
  if (flags.has("help")) {
    std::printf("%s", Flags::usage("bench-apiserver", kSummary, bench_specs()).c_str());
    return 0;
  }
  auto pods = flags.get_count("pods", 5000, 1);
  auto watchers = flags.get_count("watchers", 1, 0);
  auto clients = flags.get_count("clients", 4, 1);
  auto threads = flags.get_count("threads", 2, 1);
  for (const auto* r : {&pods, &watchers, &clients, &threads}) {
    if (!r->ok()) {
      std::fprintf(stderr, "troupe bench-apiserver: %s\n", r->message().c_str());
      return 2;
    }
  }
  const size_t n = pods.value();

  sim::ApiServerOptions options;
  options.threads = threads.value();
  options.store.history_capacity = std::max<size_t>(2 * n + 100, 1000);
  options.store.watch_queue_limit = 2 * n + 100; // the benchmark measures throughput, not cut-offs
  sim::ApiServer server(options);
  Status started = server.start();
  if (!started.ok()) {
    std::fprintf(stderr, "troupe bench-apiserver: %s\n", started.message().c_str());
    return 1;
  }
  const uint16_t port = server.port();
  const std::string rv = std::to_string(server.store().resource_version());

  // Watchers connect first and count every event of both phases.
  std::vector<std::unique_ptr<WatchCounter>> counters;
  for (size_t i = 0; i < watchers.value(); ++i) counters.push_back(std::make_unique<WatchCounter>(port, rv));
  std::this_thread::sleep_for(std::chrono::milliseconds(200)); // let the watches register
  auto watch_start = Clock::now();
  std::vector<std::thread> watch_threads;
  for (auto& c : counters)
    watch_threads.emplace_back([&c, n] { c->count_until(2 * n, Clock::now() + std::chrono::minutes(5)); });

  Phase creates = run_phase("create pods", port, n, clients.value(), [](Client& client, size_t i) {
    return client.post("/api/v1/namespaces/default/pods", pod_json("bench-" + std::to_string(i))) == 201;
  });
  Phase binds = run_phase("bind pods", port, n, clients.value(), [](Client& client, size_t i) {
    std::string name = "bench-" + std::to_string(i);
    return client.post("/api/v1/namespaces/default/pods/" + name + "/binding",
                       binding_json(name, static_cast<int>(i % 100))) == 201;
  });
  for (auto& t : watch_threads) t.join();
  Phase fanout;
  fanout.name = "watch fan-out";
  for (auto& c : counters) {
    fanout.count += c->events();
    fanout.seconds = std::max(fanout.seconds, std::chrono::duration<double>(c->finished_at() - watch_start).count());
    if (c->events() < 2 * n) fanout.failures += 2 * n - c->events();
  }
  server.stop();

  std::vector<Phase> phases = {creates, binds};
  if (!counters.empty()) phases.push_back(fanout);
  if (flags.has("json")) {
    std::printf("{\"pods\":%zu,\"watchers\":%zu,\"clients\":%zu,\"server_threads\":%zu,\"phases\":[", n,
                watchers.value(), clients.value(), threads.value());
    for (size_t i = 0; i < phases.size(); ++i)
      std::printf("%s{\"name\":\"%s\",\"count\":%zu,\"seconds\":%.3f,\"per_second\":%.0f,\"failures\":%zu}",
                  i ? "," : "", phases[i].name.c_str(), phases[i].count, phases[i].seconds, phases[i].rate(),
                  phases[i].failures);
    std::printf("]}\n");
  } else {
    std::printf("troupe bench-apiserver: %zu pods, %zu watchers, %zu clients, %zu server threads\n\n", n,
                watchers.value(), clients.value(), threads.value());
    std::printf("%-16s %10s %10s %12s %10s\n", "phase", "count", "seconds", "per second", "failures");
    for (const auto& p : phases)
      std::printf("%-16s %10zu %10.3f %12.0f %10zu\n", p.name.c_str(), p.count, p.seconds, p.rate(), p.failures);
  }
  bool ok = true;
  for (const auto& p : phases) ok = ok && p.failures == 0;
  return ok ? 0 : 1;
}

}  // namespace troupe::cmd
