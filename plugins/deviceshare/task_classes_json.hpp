#pragma once
// A task distribution written as the Fragmentation strategy's `taskClasses`
// configuration (fragmentation.hpp: parse_task_distribution reads it back):
//
//   [{"cpuMilli":3152,"memory":"16384Mi","gpuMilli":810,"gpuCount":1,"weight":0.25}, ...]
//
// JSON is YAML, so the list pastes under scoringStrategy.taskClasses as is:
// what the scheduler learned (the learnedTaskClasses debug service) becomes
// a fixed configuration. Zero memory, GPU fields of CPU-only classes and
// empty model lists are left out, as a hand-written class would.

#include <string>

#include "plugins/deviceshare/fragmentation.hpp"

namespace troupe::plugins::deviceshare {

/// The classes of `tasks` in their order, weights as stored (they sum to 1).
std::string task_classes_json(const TaskDistribution& tasks);

}  // namespace troupe::plugins::deviceshare
