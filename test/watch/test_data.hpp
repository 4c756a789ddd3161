#pragma once
// Helpers shared by the watch/ suites: reading files under test/watch/data,
// temporary directories, and polling for a condition with a deadline (tests
// wait for effects, they never assert on elapsed time).

#include <chrono>
#include <functional>
#include <string>

namespace troupe::test {

/// The contents of test/watch/data/<name>; fails the test if unreadable.
std::string read_data_file(const std::string& name);

/// A fresh directory under /tmp, removed (with its files) on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  /// Writes `content` to path()/name and returns the full path.
  std::string write(const std::string& name, const std::string& content) const;

 private:
  std::string path_;
};

/// Polls `condition` every few milliseconds until it holds or `timeout` passes.
bool eventually(const std::function<bool()>& condition,
                std::chrono::milliseconds timeout = std::chrono::milliseconds(10'000));

}  // namespace troupe::test
