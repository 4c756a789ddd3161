#include "tcp_proxy.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace troupe::test {

namespace {

sockaddr_in address(const std::string& host, int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) throw std::runtime_error("tcp proxy: bad host " + host);
  return addr;
}

}  // namespace

TcpProxy::TcpProxy(const std::string& upstream_host, int upstream_port)
    : upstream_host_(upstream_host), upstream_port_(upstream_port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr = address("127.0.0.1", 0);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 64) != 0)
    throw std::runtime_error("tcp proxy: cannot listen");
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { accept_loop(); });
}

TcpProxy::~TcpProxy() {
  stopping_ = true;
  ::shutdown(listen_fd_, SHUT_RDWR);
  acceptor_.join();
  close_all();
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
  ::close(listen_fd_);
}

void TcpProxy::close_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const int fd : fds_) ::shutdown(fd, SHUT_RDWR);
}

void TcpProxy::sever() {
  // Under the lock the accept loop registers connections with: a connection
  // accepted before the sever is either registered (and cut here) or sees
  // severed_ when it registers (and is closed there), never left running.
  std::lock_guard<std::mutex> lock(mutex_);
  severed_ = true;
  for (const int fd : fds_) ::shutdown(fd, SHUT_RDWR);
}

void TcpProxy::resume() { severed_ = false; }

void TcpProxy::accept_loop() {
  while (!stopping_) {
    const int client = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      if (stopping_) return;
      continue;
    }
    if (severed_) {
      ::close(client);
      continue;
    }
    const int upstream = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr = address(upstream_host_, upstream_port_);
    if (::connect(upstream, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(upstream);
      ::close(client);
      continue;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (severed_) {  // severed while connecting upstream
      ::close(upstream);
      ::close(client);
      continue;
    }
    ++connections_;
    fds_.insert(client);
    fds_.insert(upstream);
    auto pair = std::make_shared<Pair>();
    pair->client = client;
    pair->upstream = upstream;
    threads_.emplace_back([this, pair] { pump(pair, pair->client, pair->upstream); });
    threads_.emplace_back([this, pair] { pump(pair, pair->upstream, pair->client); });
  }
}

// Copies one direction until either side closes, then shuts both down so
// the opposite pump ends too; the second pump to finish closes the pair.
void TcpProxy::pump(const std::shared_ptr<Pair>& pair, int from, int to) {
  char buffer[16384];
  for (;;) {
    const ssize_t n = ::read(from, buffer, sizeof buffer);
    if (n <= 0) break;
    ssize_t sent = 0;
    while (sent < n) {
      // send(MSG_NOSIGNAL): a peer that closed must end the pump, not kill the test with SIGPIPE.
      const ssize_t w = ::send(to, buffer + sent, static_cast<std::size_t>(n - sent), MSG_NOSIGNAL);
      if (w <= 0) break;
      sent += w;
    }
    if (sent < n) break;
  }
  ::shutdown(from, SHUT_RDWR);
  ::shutdown(to, SHUT_RDWR);
  if (++pair->finished < 2) return;
  std::lock_guard<std::mutex> lock(mutex_);
  fds_.erase(pair->client);
  fds_.erase(pair->upstream);
  ::close(pair->client);
  ::close(pair->upstream);
}

}  // namespace troupe::test
