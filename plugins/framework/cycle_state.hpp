#pragma once
// CycleState: what plugins compute for one pod in one scheduling cycle.
// Written at PreFilter/PreScore by the cycle actor; read-only (const) while
// Filter and Score run concurrently in the node actors on other threads, so
// nothing in it may change after PreScore until the cycle picks a node. Each
// plugin instance owns one slot (assigned by the Framework): no map lookups
// and no locking on the hot path.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <typeinfo>
#include <vector>

namespace troupe::plugins {

/// Base of the per-plugin data kept in a CycleState.
struct StateData {
  virtual ~StateData() = default;
};

class CycleState {
 public:
  explicit CycleState(size_t slots = 1) : slots_(slots) {}

  /// Stores a plugin's data (PreFilter, PreScore, Reserve only).
  template <class T>
  void write(size_t slot, std::shared_ptr<const T> data) {
    if (slot >= slots_.size()) slots_.resize(slot + 1);
    slots_[slot] = Slot{std::move(data), &typeid(T)};
  }
  template <class T>
  void write(size_t slot, T data) {
    write<T>(slot, std::make_shared<const T>(std::move(data)));
  }

  /// The plugin's data, or nullptr when absent or of another type.
  template <class T>
  const T* read(size_t slot) const {
    if (slot >= slots_.size() || slots_[slot].type == nullptr || *slots_[slot].type != typeid(T)) return nullptr;
    return static_cast<const T*>(slots_[slot].data.get());
  }

  /// Filter plugins (by their index in the profile's filter list) whose
  /// PreFilter returned Skip: the Framework does not call their Filter.
  uint64_t skip_filter_mask = 0;
  /// Score plugins (by index in the score list) whose PreScore returned Skip.
  uint64_t skip_score_mask = 0;
  /// PreFilter restricted the candidates to these nodes (intersection of
  /// every PreFilter's answer); nullopt = all nodes.
  std::optional<std::set<std::string>> node_names;
  /// The PreFilter plugins that restricted node_names, sorted.
  std::vector<std::string> node_names_plugins;

 private:
  struct Slot {
    std::shared_ptr<const void> data;
    const std::type_info* type = nullptr;
  };
  std::vector<Slot> slots_;
};

}  // namespace troupe::plugins
