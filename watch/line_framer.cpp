#include "watch/line_framer.hpp"

namespace troupe::watch {

bool LineFramer::deliver(std::string_view line, const LineHandler& on_line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return on_line(line);
}

LineFramer::FeedResult LineFramer::overflow() {
  overflowed_ = true;
  partial_.clear();
  return FeedResult::overflow;
}

LineFramer::FeedResult LineFramer::feed(std::string_view bytes, const LineHandler& on_line) {
  if (overflowed_) return FeedResult::overflow;
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos) {
      if (partial_.size() + bytes.size() > max_line_bytes_) return overflow();
      partial_.append(bytes);
      return FeedResult::ok;
    }
    if (partial_.size() + newline > max_line_bytes_) return overflow();
    bool keep_going = true;
    if (partial_.empty()) {
      // Common case: the whole line is in this buffer; hand it over without a copy.
      keep_going = deliver(bytes.substr(0, newline), on_line);
    } else {
      partial_.append(bytes.substr(0, newline));
      keep_going = deliver(partial_, on_line);
      partial_.clear();
    }
    bytes.remove_prefix(newline + 1);
    if (!keep_going) return FeedResult::stopped;
  }
  return FeedResult::ok;
}

void LineFramer::reset() {
  partial_.clear();
  overflowed_ = false;
}

}  // namespace troupe::watch
