#include "sim/trace/typical_tasks.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace troupe::sim::trace {

namespace {

using Key = std::tuple<int64_t, int32_t, int32_t, std::string>;  // cpu, milli, count, spec text

struct KeyCount {
  Key key;
  std::vector<std::string> models;
  size_t count = 0;
};

std::vector<KeyCount> count_keys(const std::vector<TracePod>& trace) {
  std::map<Key, KeyCount> counts;
  for (const auto& pod : trace) {
    Key key{pod.cpu_milli, pod.gpu_milli, pod.num_gpu, pod.gpu_spec_text()};
    auto& entry = counts[key];
    entry.key = key;
    entry.models = pod.gpu_spec;
    ++entry.count;
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
    plugins::deviceshare::GpuTaskClass task;
    task.cpu_milli = std::get<0>(entry.key);
    task.gpu_milli = std::get<1>(entry.key);
    task.gpu_count = std::get<2>(entry.key);
    task.gpu_models = entry.models;
    task.weight = static_cast<double>(entry.count);
    classes.push_back(std::move(task));
    cumulative += entry.count;
    if (static_cast<double>(cumulative) >= needed) break;
  }
  auto made = plugins::deviceshare::TaskDistribution::make(std::move(classes));
  if (!made) return Error{"typical tasks: " + made.message()};
  return made;
}

}  // namespace troupe::sim::trace
