#pragma once
// When a NodeMetric's change may let a pod LoadAwareScheduling rejected fit
// (Koordinator loadaware/queueinghint.go): koordlet rewrites every node's
// NodeMetric each report interval, and retrying every rejected pod on each
// report would keep them cycling for nothing. A report retries them when it
// is the node's first or last (`before` or `after` null), when either has
// no status.nodeMetric, or when some resource of the node's usage is new or
// lower than before.

#include "model/node_metric.hpp"

namespace troupe::plugins::load_aware {

bool node_metric_may_make_room(const NodeMetric* before, const NodeMetric* after);

}  // namespace troupe::plugins::load_aware
