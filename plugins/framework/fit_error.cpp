#include "plugins/framework/fit_error.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace troupe::plugins {

FailureHistogram::FailureHistogram(const FailureHistogram& other)
    : counts_(other.counts_), plugins_(other.plugins_), rejected_nodes_(other.rejected_nodes_) {}

FailureHistogram::FailureHistogram(FailureHistogram&& other) noexcept
    : counts_(std::move(other.counts_)), plugins_(std::move(other.plugins_)), rejected_nodes_(other.rejected_nodes_) {
  other.forget_last();
}

FailureHistogram& FailureHistogram::operator=(const FailureHistogram& other) {
  if (this == &other) return *this;
  counts_ = other.counts_;
  plugins_ = other.plugins_;
  rejected_nodes_ = other.rejected_nodes_;
  forget_last();
  return *this;
}

FailureHistogram& FailureHistogram::operator=(FailureHistogram&& other) noexcept {
  if (this == &other) return *this;
  counts_ = std::move(other.counts_);
  plugins_ = std::move(other.plugins_);
  rejected_nodes_ = other.rejected_nodes_;
  forget_last();
  other.forget_last();
  return *this;
}

void FailureHistogram::count(const std::string& reason, int64_t nodes) {
  if (last_count_ == nullptr || last_count_->first != reason) last_count_ = &*counts_.try_emplace(reason, 0).first;
  last_count_->second += nodes;
}

void FailureHistogram::note_plugin(const std::string& plugin) {
  if (plugin.empty() || (last_plugin_ != nullptr && *last_plugin_ == plugin)) return;
  last_plugin_ = &*plugins_.insert(plugin).first;
}

void FailureHistogram::add(const PluginStatus& status) {
  for (const auto& reason : status.reasons) count(reason, 1);
  note_plugin(status.plugin);
  ++rejected_nodes_;
}

void FailureHistogram::add_reason(const std::string& reason, int64_t nodes, const std::string& plugin) {
  if (nodes <= 0) return;
  count(reason, nodes);
  note_plugin(plugin);
  rejected_nodes_ += nodes;
}

void FailureHistogram::merge(const FailureHistogram& other) {
  for (const auto& [reason, count] : other.counts_) counts_[reason] += count;
  plugins_.insert(other.plugins_.begin(), other.plugins_.end());
  rejected_nodes_ += other.rejected_nodes_;
}

namespace {

std::string header(int64_t total_nodes) { return "0/" + std::to_string(total_nodes) + " nodes are available:"; }

void append_post_filter(std::string& message, std::string_view post_filter_message) {
  if (post_filter_message.empty()) return;
  message += " ";
  message += post_filter_message;
  message += ".";
}

}  // namespace

std::string fit_error_message(int64_t total_nodes, const std::map<std::string, int64_t>& reason_counts,
                              std::string_view post_filter_message) {
  std::vector<std::string> entries;
  entries.reserve(reason_counts.size());
  for (const auto& [reason, count] : reason_counts) entries.push_back(std::to_string(count) + " " + reason);
  std::sort(entries.begin(), entries.end());
  std::string message = header(total_nodes);
  if (!entries.empty()) {
    message += " ";
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i > 0) message += ", ";
      message += entries[i];
    }
    message += ".";
  }
  append_post_filter(message, post_filter_message);
  return message;
}

std::string pre_filter_fit_error_message(int64_t total_nodes, std::string_view pre_filter_message,
                                         std::string_view post_filter_message) {
  std::string message = header(total_nodes);
  if (!pre_filter_message.empty()) {
    message += " ";
    message += pre_filter_message;
    message += ".";
  }
  append_post_filter(message, post_filter_message);
  return message;
}

int64_t num_feasible_nodes_to_find(int32_t percentage, int64_t total_nodes) {
  if (total_nodes < kMinFeasibleNodesToFind || percentage >= 100) return total_nodes;
  int64_t p = percentage;
  if (p <= 0) {
    p = 50 - total_nodes / 125;
    if (p < kMinFeasibleNodesPercentageToFind) p = kMinFeasibleNodesPercentageToFind;
  }
  int64_t nodes = total_nodes * p / 100;
  return nodes < kMinFeasibleNodesToFind ? kMinFeasibleNodesToFind : nodes;
}

}  // namespace troupe::plugins
