#include "plugins/descheduler/low_node_load.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <unordered_map>

#include "model/pod_requests.hpp"
#include "plugins/descheduler/evictor_filter.hpp"
#include "plugins/descheduler/node_fit.hpp"
#include "plugins/descheduler/pod_classes.hpp"
#include "plugins/descheduler/victim_order.hpp"

namespace troupe::plugins::descheduler {

namespace {

bool is_low(NodeClass c) { return c == NodeClass::low || c == NodeClass::both_low; }
bool is_prod_target(NodeClass c) { return c == NodeClass::prod_low || c == NodeClass::both_low; }

void add_to(Amounts& into, const Amounts& amounts, int64_t sign) {
  for (size_t i = 0; i < into.size(); ++i) into[i] += sign * amounts[i];
}

/// Σ over targets of (threshold - usage), per axis.
Amounts room_of(const std::vector<NodeLoad*>& targets, size_t axes, bool prod) {
  Amounts room(axes, 0);
  for (const NodeLoad* t : targets) {
    const Amounts& threshold = prod ? t->prod_high : t->high;
    const Amounts& used = prod ? t->prod_usage : t->usage;
    for (size_t i = 0; i < axes; ++i) room[i] += threshold[i] - used[i];
  }
  return room;
}

bool budget_left(const Amounts& budget) {
  return std::all_of(budget.begin(), budget.end(), [](int64_t v) { return v > 0; });
}

/// "85.00%". std::to_chars formats as printf's "%.2f" does (C++17
/// [charconv]) without the locale and varargs machinery; it runs twice per
/// over-used resource of every planned eviction.
void append_percent(std::string& text, int64_t part, int64_t whole) {
  char digits[64];
  const double value = whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  const auto written = std::to_chars(digits, digits + sizeof digits, value, std::chars_format::fixed, 2);
  text.append(digits, written.ptr);
  text += '%';
}

/// One pool's round: the state both phases share.
class PoolPlanner {
 public:
  PoolPlanner(const NodePool& pool, const LowNodeLoadArgs& args, const LowNodeLoadInput& input,
              AnomalyDetectors& detectors, EvictionLimits& limits, LowNodeLoadPlan& plan)
      : pool_(pool), args_(args), input_(input), detectors_(detectors), limits_(limits), plan_(plan),
        axes_(axes_for(pool.thresholds)) {
    for (const auto& name : axes_.names) {
      auto it = pool.thresholds.weights.find(name);
      weights_.push_back(it == pool.thresholds.weights.end() ? 0 : it->second);
    }
  }

  void run(const std::vector<const NodeLoadInput*>& nodes);

 private:
  struct Phase {
    bool prod = false;
    std::vector<NodeLoad*> sources;
    std::vector<NodeLoad*> targets;
    Amounts budget;
  };

  std::vector<NodeLoad*> anomalous(const std::vector<NodeLoad*>& hot);
  void sort_sources(std::vector<NodeLoad*>& sources, bool prod) const;
  void balance(Phase& phase);
  void drain(NodeLoad& source, Phase& phase);
  std::vector<Victim> candidates(const NodeLoad& source, bool prod);
  std::optional<std::string> candidate_refusal(const Pod& pod) const;
  NodeLoad* find_target(const Pod& pod, const Amounts& usage, Phase& phase);
  ResourceList& requested_on(NodeLoad& target);
  std::string reason(const NodeLoad& source, bool prod) const;
  void note(const std::string& text) { plan_.notes.push_back((pool_.name.empty() ? "" : "pool " + pool_.name + ": ") + text); }

  const NodePool& pool_;
  const LowNodeLoadArgs& args_;
  const LowNodeLoadInput& input_;
  AnomalyDetectors& detectors_;
  EvictionLimits& limits_;
  LowNodeLoadPlan& plan_;
  ResourceAxes axes_;
  std::vector<int64_t> weights_;
  std::vector<NodeLoad> loads_;
  std::unordered_map<const NodeLoad*, ResourceList> requested_;
  size_t first_verdict_ = 0;  // plan_.nodes index of loads_[0]; the rest follow in order
  bool stopped_ = false;  // maxNoOfPodsToEvictTotal reached
};

std::vector<NodeLoad*> PoolPlanner::anomalous(const std::vector<NodeLoad*>& hot) {
  const AnomalyCondition& condition = pool_.thresholds.anomaly;
  std::vector<NodeLoad*> out;
  for (NodeLoad* load : hot) {
    // consecutiveAbnormalities == 1 turns detection off: every hot node acts.
    const bool act = condition.consecutive_abnormalities == 1 || detectors_.mark_abnormal(load->name(), condition, input_.now);
    if (!act) continue;
    plan_.nodes[first_verdict_ + static_cast<size_t>(load - loads_.data())].anomalous = true;
    out.push_back(load);
  }
  return out;
}

void PoolPlanner::sort_sources(std::vector<NodeLoad*>& sources, bool prod) const {
  std::vector<std::pair<int64_t, NodeLoad*>> scored;
  for (NodeLoad* load : sources) {
    scored.emplace_back(node_usage_score(prod ? load->prod_usage : load->usage, load->capacity, weights_), load);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < sources.size(); ++i) sources[i] = scored[i].second;
}

std::optional<std::string> PoolPlanner::candidate_refusal(const Pod& pod) const {
  if (args_.evictable_namespaces && !has_evict_annotation(pod)) {
    if (auto refusal = namespace_refusal(pod.meta.namespace_name, *args_.evictable_namespaces)) return refusal;
  }
  if (!args_.pod_selectors.empty()) {
    const bool selected = std::any_of(args_.pod_selectors.begin(), args_.pod_selectors.end(),
                                      [&](const PodSelector& s) { return s.selector.matches(pod.meta.labels); });
    if (!selected) return "pod matches none of the podSelectors";
  }
  if (input_.evictor) return input_.evictor(pod);
  return std::nullopt;
}

/// A node's pod metrics sorted by (name, namespace) for lookups that build
/// no "namespace/name" strings (a hot node is searched once per pod).
class PodMetricIndex {
 public:
  explicit PodMetricIndex(const std::vector<PodMetricInfo>& metrics) {
    sorted_.reserve(metrics.size());
    for (const PodMetricInfo& m : metrics) sorted_.push_back(&m);
    std::stable_sort(sorted_.begin(), sorted_.end(),
                     [](const PodMetricInfo* a, const PodMetricInfo* b) { return less(*a, b->name, b->namespace_name); });
  }

  /// The pod's metric, or nullptr; a pod reported twice gets its last entry.
  const PodMetricInfo* find(const std::string& ns, const std::string& name) const {
    auto first = std::lower_bound(sorted_.begin(), sorted_.end(), nullptr,
                                  [&](const PodMetricInfo* m, std::nullptr_t) { return less(*m, name, ns); });
    auto it = first;
    while (it != sorted_.end() && (*it)->name == name && (*it)->namespace_name == ns) ++it;
    return it == first ? nullptr : *(it - 1);
  }

 private:
  static bool less(const PodMetricInfo& m, const std::string& name, const std::string& ns) {
    const int by_name = m.name.compare(name);
    return by_name != 0 ? by_name < 0 : m.namespace_name < ns;
  }
  std::vector<const PodMetricInfo*> sorted_;
};

std::vector<Victim> PoolPlanner::candidates(const NodeLoad& source, bool prod) {
  const PodMetricIndex metrics(source.input->metric->pods_metric);
  std::vector<Victim> victims;
  victims.reserve(source.input->pods.size());
  for (const auto& pod : source.input->pods) {
    if (prod && koord_priority_class(*pod) != KoordPriorityClass::prod) continue;
    if (auto refusal = candidate_refusal(*pod)) {
      plan_.skipped.push_back({pod, *refusal});
      continue;
    }
    Victim victim{pod, std::nullopt};
    if (const PodMetricInfo* metric = metrics.find(pod->meta.namespace_name, pod->meta.name))
      victim.usage = amounts_of(axes_, metric->pod_usage.resources);
    for (size_t i = 0; victim.usage && i < axes_.size(); ++i) {
      if (std::string_view(axes_.names[i]) == "pods") (*victim.usage)[i] = 1;
    }
    victims.push_back(std::move(victim));
  }
  return victims;
}

ResourceList& PoolPlanner::requested_on(NodeLoad& target) {
  auto it = requested_.find(&target);
  if (it != requested_.end()) return it->second;
  if (target.input->requested) return requested_[&target] = *target.input->requested;
  ResourceList requested;
  for (const auto& pod : target.input->pods) requested += pod_requests(pod->spec);
  return requested_[&target] = std::move(requested);
}

/// used + extra stays at or under the threshold on every axis (no copy:
/// this runs for every target a victim is tried on).
bool fits_under(const Amounts& used, const Amounts& extra, const Amounts& threshold) {
  for (size_t i = 0; i < used.size(); ++i) {
    if (used[i] + extra[i] > threshold[i]) return false;
  }
  return true;
}

NodeLoad* PoolPlanner::find_target(const Pod& pod, const Amounts& usage, Phase& phase) {
  std::optional<ResourceList> requests;
  for (NodeLoad* target : phase.targets) {
    if (!fits_under(target->usage, usage, target->high)) continue;
    if (phase.prod && !fits_under(target->prod_usage, usage, target->prod_high)) continue;
    if (args_.node_fit) {
      if (!requests) requests = pod_requests(pod.spec);
      if (node_fit_failure(pod, *requests, NodeRoom{target->input->node.get(), requested_on(*target)})) continue;
      requested_on(*target) += *requests;
    }
    return target;
  }
  return nullptr;
}

std::string PoolPlanner::reason(const NodeLoad& source, bool prod) const {
  const Amounts& used = prod ? source.prod_usage : source.usage;
  const Amounts& high = prod ? source.prod_high : source.high;
  std::string text = prod ? "node is overutilized by prod pods" : "node is overutilized";
  const char* separator = ", ";
  for (size_t i = 0; i < axes_.size(); ++i) {
    if (used[i] <= high[i]) continue;
    text += separator;
    text += axes_.names[i];
    text += " usage(";
    append_percent(text, used[i], source.capacity[i]);
    text += ")>threshold(";
    append_percent(text, high[i], source.capacity[i]);
    text += ')';
    separator = ", ";
  }
  return text;
}

void PoolPlanner::drain(NodeLoad& source, Phase& phase) {
  std::vector<Victim> victims = candidates(source, phase.prod);
  if (victims.empty()) return;
  const Amounts& used = phase.prod ? source.prod_usage : source.usage;
  const Amounts& high = phase.prod ? source.prod_high : source.high;
  Amounts excess(axes_.size(), 0);
  for (size_t i = 0; i < excess.size(); ++i) excess[i] = std::max<int64_t>(0, used[i] - high[i]);
  sort_victims(victims, excess, weights_);
  for (Victim& victim : victims) {
    if (!over_any(phase.prod ? source.prod_usage : source.usage, high)) {
      detectors_.reset(source.name());
      return;
    }
    if (!budget_left(phase.budget)) return;
    if (limits_.total_reached()) {
      stopped_ = true;
      return;
    }
    if (limits_.node_reached(source.name())) return;
    const Pod& pod = *victim.pod;
    if (auto refusal = limits_.refusal(source.name(), pod.meta.namespace_name)) {
      plan_.skipped.push_back({victim.pod, *refusal});
      continue;
    }
    if (!victim.usage) {
      plan_.skipped.push_back({victim.pod, "no usage reported for the pod in NodeMetric"});
      continue;
    }
    NodeLoad* target = find_target(pod, *victim.usage, phase);
    if (!target) {
      plan_.skipped.push_back({victim.pod, "no low node can take the pod without exceeding its high thresholds"});
      continue;
    }
    const bool pod_is_prod = koord_priority_class(pod) == KoordPriorityClass::prod;
    plan_.evictions.push_back({victim.pod, source.name(), pool_.name, phase.prod, target->name(), reason(source, phase.prod)});
    limits_.record(source.name(), pod.meta.namespace_name);
    add_to(phase.budget, *victim.usage, -1);
    add_to(source.usage, *victim.usage, -1);
    add_to(target->usage, *victim.usage, 1);
    if (phase.prod || pod_is_prod) {
      add_to(source.prod_usage, *victim.usage, -1);
      add_to(target->prod_usage, *victim.usage, 1);
    }
  }
}

void PoolPlanner::balance(Phase& phase) {
  const char* what = phase.prod ? "prod" : "node";
  if (phase.sources.empty()) return;
  if (phase.targets.empty()) {
    note(std::string("no target nodes for ") + what + " usage");
    return;
  }
  sort_sources(phase.sources, phase.prod);
  for (NodeLoad* source : phase.sources) {
    if (stopped_) return;
    drain(*source, phase);
  }
}

void PoolPlanner::run(const std::vector<const NodeLoadInput*>& nodes) {
  const LoadThresholds& t = pool_.thresholds;
  const bool with_prod = !t.prod_low.empty() || !t.prod_high.empty();
  loads_ = measure_nodes(nodes, axes_, t, args_.node_metric_expiration_seconds, input_.now, with_prod);
  std::vector<NodeLoad*> lows, hot, prod_hot, prod_targets, both_low;
  first_verdict_ = plan_.nodes.size();
  plan_.nodes.reserve(plan_.nodes.size() + loads_.size());
  for (NodeLoad& load : loads_) {
    plan_.nodes.push_back({load.name(), pool_.name, load.node_class, false});
    if (is_low(load.node_class)) lows.push_back(&load);
    if (load.node_class == NodeClass::both_low) both_low.push_back(&load);
    if (load.node_class == NodeClass::high) hot.push_back(&load);
    if (load.node_class == NodeClass::prod_high) prod_hot.push_back(&load);
    if (is_prod_target(load.node_class)) prod_targets.push_back(&load);
  }
  for (NodeLoad* low : lows) detectors_.reset(low->name());
  if (lows.empty()) return note("no node is under the low thresholds");
  if (static_cast<int64_t>(lows.size()) <= args_.number_of_nodes) return note("no more low nodes than numberOfNodes");
  if (lows.size() == loads_.size()) return note("every node is under the low thresholds");
  if (hot.empty() && prod_hot.empty()) return note("no node is above the high thresholds");

  Phase node_phase{false, anomalous(hot), lows, room_of(lows, axes_.size(), false)};
  Phase prod_phase{true, anomalous(prod_hot), prod_targets, {}};
  if (node_phase.sources.empty() && prod_phase.sources.empty()) return note("no hot node has been hot long enough");
  const Amounts both_room_before = room_of(both_low, axes_.size(), false);
  balance(node_phase);
  // Both-low nodes serve both phases: prod may use what the node phase left of them.
  Amounts prod_budget = room_of(prod_targets, axes_.size(), true);
  const Amounts both_prod_room = room_of(both_low, axes_.size(), true);
  for (size_t i = 0; i < axes_.size(); ++i) {
    const int64_t both_left = std::min(both_room_before[i], node_phase.budget[i]);
    prod_budget[i] -= both_prod_room[i];
    prod_budget[i] += std::min(both_prod_room[i], both_left);
  }
  prod_phase.budget = prod_budget;
  if (!stopped_) balance(prod_phase);
  // As Koordinator, once some node acted every hot node starts counting afresh.
  for (NodeLoad* load : hot) detectors_.mark_normal(load->name(), input_.now);
  for (NodeLoad* load : prod_hot) detectors_.mark_normal(load->name(), input_.now);
}

bool selected(const std::optional<LabelSelector>& selector, const Node& node) {
  return !selector || selector->matches(node.meta.labels);
}

}  // namespace

LowNodeLoadPlan plan_low_node_load(const LowNodeLoadInput& input, const LowNodeLoadArgs& args,
                                   AnomalyDetectors& detectors, EvictionLimits& limits) {
  LowNodeLoadPlan plan;
  if (args.paused) {
    plan.notes.push_back("LowNodeLoad is paused");
    return plan;
  }
  detectors.expire(input.now, args.effective_detector_cache_timeout(input.descheduling_interval));
  std::vector<bool> taken(input.nodes.size(), false);
  for (const NodePool& pool : args.pools()) {
    // A node belongs to the first pool whose selector takes it.
    std::vector<const NodeLoadInput*> members;
    for (size_t i = 0; i < input.nodes.size(); ++i) {
      const NodeLoadInput& node = input.nodes[i];
      if (taken[i] || !node.node || !selected(args.node_selector, *node.node) || !selected(pool.node_selector, *node.node)) continue;
      taken[i] = true;
      members.push_back(&node);
    }
    if (members.empty()) {
      plan.notes.push_back((pool.name.empty() ? std::string() : "pool " + pool.name + ": ") + "no nodes to process");
      continue;
    }
    PoolPlanner(pool, args, input, detectors, limits, plan).run(members);
    if (limits.total_reached()) break;
  }
  return plan;
}

}  // namespace troupe::plugins::descheduler
