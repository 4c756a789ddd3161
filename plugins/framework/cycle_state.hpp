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

  /// Stores a plugin's data (PreFilter, PreScore, Reserve; and the cycle's
  /// preemption search for the plugin that runs it, before PostFilter).
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

  /// Whether no other CycleState shares the slot's data: a copy's slot
  /// written since the copy was made (preemption's dry run updates such
  /// data in place instead of copying it again for every pod it moves).
  bool sole_owner(size_t slot) const { return slot < slots_.size() && slots_[slot].data.use_count() == 1; }

  /// Hands every plugin of this cycle an input an actor owns and updates
  /// between cycles (e.g. the GPU task classes learned from the pods seen so
  /// far), one per type, immutable once shared. `version` names the content:
  /// equal versions are equal inputs. `read_by_filter`: false when no Filter
  /// plugin reads it (the learned task classes: Score and Reserve do), so
  /// Filter verdicts computed under another version of it still hold.
  /// Written before PreFilter, like the slots (the reservation diagnosis,
  /// read by PostFilter alone, is shared once no node fits).
  template <class T>
  void share_input(std::shared_ptr<const T> input, uint64_t version, bool read_by_filter = true) {
    for (auto& in : inputs_)
      if (*in.type == typeid(T)) {
        in = Input{std::move(input), &typeid(T), version, read_by_filter};
        return;
      }
    inputs_.push_back(Input{std::move(input), &typeid(T), version, read_by_filter});
  }

  /// The shared input of type T, or nullptr.
  template <class T>
  const T* input() const {
    for (const auto& in : inputs_)
      if (*in.type == typeid(T)) return static_cast<const T*>(in.data.get());
    return nullptr;
  }

  /// The version the input of type T was shared under (0 = none shared).
  template <class T>
  uint64_t input_version() const {
    for (const auto& in : inputs_)
      if (*in.type == typeid(T)) return in.version;
    return 0;
  }

  /// What the shared inputs are, as one number (0 = none): results a plugin
  /// computed under other inputs must not be reused (the evaluation cache
  /// keys pod classes on it).
  uint64_t inputs_version() const { return combined_version(false); }
  /// The same, of the inputs Filter plugins read: Filter verdicts computed
  /// under another inputs_version but this filter_inputs_version still hold.
  uint64_t filter_inputs_version() const { return combined_version(true); }

  /// Filter plugins (by their index in the profile's filter list) whose
  /// PreFilter returned Skip: the Framework does not call their Filter.
  uint64_t skip_filter_mask = 0;
  /// PreFilter plugins (by index in the pre-filter list) that returned Skip:
  /// their PreFilterExtensions are not called either.
  uint64_t skip_pre_filter_mask = 0;
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
  struct Input {
    std::shared_ptr<const void> data;
    const std::type_info* type = nullptr;
    uint64_t version = 0;
    bool read_by_filter = true;
  };

  uint64_t combined_version(bool filter_only) const {
    const Input* only = nullptr;
    size_t count = 0;
    uint64_t v = 0;
    for (const auto& in : inputs_) {
      if (filter_only && !in.read_by_filter) continue;
      only = &in;
      ++count;
      v = (v * 0x9e3779b97f4a7c15ULL) ^ in.version;
    }
    return count == 1 ? only->version : v;
  }
  std::vector<Slot> slots_;
  std::vector<Input> inputs_;
};

}  // namespace troupe::plugins
