#pragma once
// TcpProxy: forwards 127.0.0.1:<port> to an upstream address, byte for byte,
// so a test can sever a client's connections to a real server on demand
// (TLS passes through untouched).

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace troupe::test {

class TcpProxy {
 public:
  TcpProxy(const std::string& upstream_host, int upstream_port);
  ~TcpProxy();
  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;

  int port() const { return port_; }

  /// Cuts every open connection and refuses (closes at once) new ones until resume().
  void sever();
  void resume();
  int connections() const { return connections_.load(); }

 private:
  struct Pair {
    int client = -1;
    int upstream = -1;
    std::atomic<int> finished{0};
  };
  void accept_loop();
  void pump(const std::shared_ptr<Pair>& pair, int from, int to);
  void close_all();

  std::string upstream_host_;
  int upstream_port_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> severed_{false};
  std::atomic<int> connections_{0};
  std::mutex mutex_;
  std::set<int> fds_;
  std::vector<std::thread> threads_;
  std::thread acceptor_;
};

}  // namespace troupe::test
