#pragma once
// PrioritySort: the queue order. Higher spec.priority first; equal priority
// in the order the pods were queued.

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

class PrioritySort final : public QueueSortPlugin {
 public:
  static constexpr const char* kName = names::kPrioritySort;
  std::string_view name() const override { return kName; }
  bool less(const QueuedPodInfo& a, const QueuedPodInfo& b) const override;
};

}  // namespace troupe::plugins
