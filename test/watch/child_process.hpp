#pragma once
// ChildProcess: runs a program (the troupe binary) for an integration test,
// reads its stdout line by line, and terminates it (SIGTERM, then SIGKILL) when
// the test is done.

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace troupe::test {

class ChildProcess {
 public:
  /// Starts argv[0] with the given arguments; stderr is inherited (visible in test logs).
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// The next stdout line, or nullopt on EOF or when `timeout` passes first.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout);
  /// SIGTERM, wait up to 10 s, then SIGKILL. Returns the exit status (waitpid form).
  int stop();
  bool started() const { return pid_ > 0; }

 private:
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  std::string buffered_;
  bool reaped_ = false;
  int status_ = 0;
};

}  // namespace troupe::test
