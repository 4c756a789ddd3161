#pragma once
// LineFramer: cuts a byte stream into '\n'-terminated lines no matter how the
// transport split it. A Kubernetes watch body is newline-delimited JSON, but the
// server flushes whenever its queue is empty, so chunk boundaries never line up
// with event boundaries (k8s-protocol.md §2.3).

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace troupe::watch {

class LineFramer {
 public:
  /// Called with each complete line, without its "\n" (nor a "\r" before it).
  /// Return false to stop framing (feed() then returns FeedResult::stopped).
  using LineHandler = std::function<bool(std::string_view line)>;

  enum class FeedResult {
    ok,          // all complete lines were delivered
    stopped,     // the handler asked to stop; unconsumed bytes are dropped
    overflow,    // a line grew past max_line_bytes; the framer must be reset
  };

  /// 64 MiB by default: far above any real object (etcd caps them at 1.5 MiB),
  /// low enough that a server that never sends '\n' cannot exhaust memory.
  explicit LineFramer(std::size_t max_line_bytes = 64u << 20) : max_line_bytes_(max_line_bytes) {}

  FeedResult feed(std::string_view bytes, const LineHandler& on_line);

  /// Bytes of an unfinished line held back for the next feed().
  std::size_t pending_bytes() const { return partial_.size(); }
  /// The unfinished line, e.g. to report what a server cut off.
  std::string_view pending() const { return partial_; }
  void reset();

 private:
  bool deliver(std::string_view line, const LineHandler& on_line);
  FeedResult overflow();

  std::size_t max_line_bytes_;
  std::string partial_;
  bool overflowed_ = false;
};

}  // namespace troupe::watch
