#include "plugins/gpushare/gpushare_node_state.hpp"

namespace troupe::plugins::gpushare {

void GpuShareNodeState::on_node_changed(const Node* node) {
  // A deleted node keeps its last capacity: its pods are still accounted
  // until their own deletions arrive.
  if (node != nullptr) gpus_.set_node(*node);
}

}  // namespace troupe::plugins::gpushare
