#pragma once
// SCHEDULING CYCLE actor: kube-scheduler's scheduleOne, one pod at a time.
//
//   pop ─► PreFilter ─► Filter (fan-out to NODE actors) ─► PostFilter if none fit
//       ─► PreScore ─► Score (fan-out) ─► finalize + selectHost ─► Reserve on the
//       owning NODE actor ─► Permit ─► PreBind ─► hand the Binding to the API WRITER
//       ─► pop the next pod (binding runs concurrently, like bindingCycle)
//
// A failed binding unreserves on the node and sends the pod back to the QUEUE
// with backoff; an unplaceable pod gets PodScheduled=False and a FailedScheduling event.

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include <caf/all.hpp>

#include "actors/api_writer.hpp"
#include "actors/atoms.hpp"
#include "actors/cycle_messages.hpp"
#include "actors/metrics_registry.hpp"
#include "actors/node_actor.hpp"
#include "actors/queue_actor.hpp"

namespace troupe::actors {

using cycle_actor = caf::typed_actor<
    // Start popping pods (sent once everything is synced and we lead).
    caf::reacts_to<atom::start>,
    // INTERNAL: pop and schedule the next pod.
    caf::reacts_to<atom::next>>;

struct CycleDeps {
  queue_actor queue;
  std::vector<node_actor> nodes;  // the partitions, indexed by partition_of()
  api_writer_actor writer;
  std::shared_ptr<MetricsRegistry> metrics;
  int32_t percentage_of_nodes_to_score = 0;  // the configuration's; a profile's own wins
  uint64_t seed = 0;                          // for selectHost's tie-break
};

struct cycle_actor_state {
  CycleDeps deps;
  std::mt19937_64 rng;
  uint64_t cycle = 0;
  int64_t total_nodes = 0;  // as the partitions last reported
  bool started = false;

  static inline const char* name = "scheduling-cycle";
};

cycle_actor::behavior_type cycle_actor_fn(cycle_actor::stateful_pointer<cycle_actor_state> self, CycleDeps deps);

}  // namespace troupe::actors
