#include "sim/trace/typical_tasks.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "plugins/deviceshare/fragmentation_policy.hpp"

namespace troupe::sim::trace {

namespace {

using Key = std::tuple<int64_t, int32_t, int32_t, std::string>;  // cpu, milli, count, spec text

struct KeyCount {
  Key key;
  std::vector<std::string> models;
  size_t count = 0;
  std::vector<int64_t> memory_mib;  // of every pod with the key
};

plugins::deviceshare::GpuTaskClass class_of(const KeyCount& entry, double weight) {
  plugins::deviceshare::GpuTaskClass task;
  task.cpu_milli = std::get<0>(entry.key);
  task.gpu_milli = std::get<1>(entry.key);
  task.gpu_count = std::get<2>(entry.key);
  task.gpu_models = entry.models;
  task.weight = weight;
  return task;
}

// The lower median: a value some pod of the class really asked for.
int64_t median_memory(std::vector<int64_t> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[(values.size() - 1) / 2];
}

std::vector<KeyCount> count_keys(const std::vector<TracePod>& trace) {
  std::map<Key, KeyCount> counts;
  for (const auto& pod : trace) {
    Key key{pod.cpu_milli, pod.gpu_milli, pod.num_gpu, pod.gpu_spec_text()};
    auto& entry = counts[key];
    entry.key = key;
    entry.models = pod.gpu_spec;
    ++entry.count;
    entry.memory_mib.push_back(pod.memory_mib);
  }
  std::vector<KeyCount> out;
  for (auto& [key, entry] : counts) out.push_back(std::move(entry));
  std::sort(out.begin(), out.end(), [](const KeyCount& a, const KeyCount& b) {
    if (a.count != b.count) return a.count > b.count;
    return a.key > b.key;
  });
  return out;
}

}  // namespace

Result<plugins::deviceshare::TaskDistribution> typical_tasks(const std::vector<TracePod>& trace, double popularity) {
  if (trace.empty()) return Error{"typical tasks: the trace has no pods"};
  if (!(popularity > 0 && popularity <= 1))
    return Error{"typical tasks: popularity must be in (0, 1], got " + std::to_string(popularity)};
  const double needed = popularity * static_cast<double>(trace.size());
  std::vector<plugins::deviceshare::GpuTaskClass> classes;
  size_t cumulative = 0;
  for (const auto& entry : count_keys(trace)) {
    classes.push_back(class_of(entry, static_cast<double>(entry.count)));
    cumulative += entry.count;
    if (static_cast<double>(cumulative) >= needed) break;
  }
  auto made = plugins::deviceshare::TaskDistribution::make(std::move(classes));
  if (!made) return Error{"typical tasks: " + made.message()};
  return made;
}

Result<plugins::deviceshare::TaskDistribution> fragmentation_tasks(const std::vector<TracePod>& trace) {
  if (trace.empty()) return Error{"fragmentation tasks: the trace has no pods"};
  const std::vector<KeyCount> keys = count_keys(trace);
  const double needed = kTypicalPopularity * static_cast<double>(trace.size());
  std::vector<plugins::deviceshare::GpuTaskClass> classes;
  size_t cumulative = 0, popular = 0;
  while (popular < keys.size() && static_cast<double>(cumulative) < needed) cumulative += keys[popular++].count;
  // Weights as probabilities: the popular prefix sums to 1 (as typical_tasks),
  // a rare multi-GPU class gets its share of the whole trace, scaled down.
  for (size_t i = 0; i < popular; ++i) {
    auto task = class_of(keys[i], static_cast<double>(keys[i].count) / static_cast<double>(cumulative));
    task.memory_mib = median_memory(keys[i].memory_mib);
    classes.push_back(std::move(task));
  }
  for (size_t i = popular; i < keys.size(); ++i) {
    if (std::get<2>(keys[i].key) < 2) continue;
    auto task = class_of(keys[i], kRareMultiGpuShare * static_cast<double>(keys[i].count) / static_cast<double>(trace.size()));
    task.memory_mib = median_memory(keys[i].memory_mib);
    classes.push_back(std::move(task));
  }
  auto made = plugins::deviceshare::TaskDistribution::make(std::move(classes));
  if (!made) return Error{"fragmentation tasks: " + made.message()};
  if (auto set = made->set_card_waste_weight(plugins::deviceshare::kDefaultCardWasteWeight); !set)
    return Error{"fragmentation tasks: " + set.message()};
  return made;
}

}  // namespace troupe::sim::trace
