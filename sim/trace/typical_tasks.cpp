#include "sim/trace/typical_tasks.hpp"

#include <map>
#include <tuple>

#include "plugins/deviceshare/fragmentation_policy.hpp"

namespace troupe::sim::trace {

namespace ds = plugins::deviceshare;

std::vector<ds::ClassTally> count_trace_classes(const std::vector<TracePod>& trace) {
  using Key = std::tuple<int64_t, int32_t, int32_t, std::string>;  // cpu, milli, count, spec text
  struct Counted {
    ds::ClassTally tally;
    std::vector<int64_t> memory_mib;  // of every pod with the key
  };
  std::map<Key, Counted> counts;
  for (const auto& pod : trace) {
    const std::string spec = pod.gpu_spec_text();
    auto& entry = counts[Key{pod.cpu_milli, pod.gpu_milli, pod.num_gpu, spec}];
    if (entry.tally.count == 0) {
      entry.tally.task.cpu_milli = pod.cpu_milli;
      entry.tally.task.gpu_milli = pod.gpu_milli;
      entry.tally.task.gpu_count = pod.num_gpu;
      entry.tally.task.gpu_models = pod.gpu_spec;
      entry.tally.models_text = spec;
    }
    entry.tally.count += 1;
    entry.memory_mib.push_back(pod.memory_mib);
  }
  std::vector<ds::ClassTally> out;
  out.reserve(counts.size());
  for (auto& [key, entry] : counts) {
    entry.tally.task.memory_mib = ds::lower_median(std::move(entry.memory_mib));
    out.push_back(std::move(entry.tally));
  }
  return out;
}

ds::ObservedTask observed_task(const TracePod& pod) {
  return ds::ObservedTask{pod.cpu_milli, pod.memory_mib, pod.gpu_milli, pod.num_gpu, pod.gpu_spec};
}

Result<ds::TaskDistribution> typical_tasks(const std::vector<TracePod>& trace, double popularity) {
  if (trace.empty()) return Error{"typical tasks: the trace has no pods"};
  auto made = ds::typical_distribution(count_trace_classes(trace), popularity);
  if (!made) return Error{"typical tasks: " + made.message()};
  return made;
}

Result<ds::TaskDistribution> fragmentation_tasks(const std::vector<TracePod>& trace) {
  if (trace.empty()) return Error{"fragmentation tasks: the trace has no pods"};
  auto made = ds::fragmentation_distribution(count_trace_classes(trace), ds::kDefaultCardWasteWeight);
  if (!made) return Error{"fragmentation tasks: " + made.message()};
  return made;
}

}  // namespace troupe::sim::trace
