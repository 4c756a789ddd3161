#include "plugins/framework/framework.hpp"

#include <algorithm>
#include <chrono>

#include "plugins/framework/node_name_set.hpp"

namespace troupe::plugins {

using config::ExtensionPoint;

namespace {

PluginStatus with_plugin(PluginStatus status, std::string_view plugin) {
  status.plugin = std::string(plugin);
  return status;
}

/// A non-rejection failure becomes an Error naming the plugin and the point.
PluginStatus as_error(PluginStatus status, std::string_view plugin, std::string_view what) {
  std::string message = "running " + std::string(what) + " plugin \"" + std::string(plugin) + "\": " + status.message();
  PluginStatus error(Code::error, std::move(message));
  error.plugin = std::string(plugin);
  return error;
}

template <class T>
void collect(const std::vector<config::EnabledPlugin>& enabled, const Framework& fw,
             const std::function<const Plugin*(const std::string&)>& find, std::vector<const T*>& out) {
  for (const auto& e : enabled)
    if (auto* p = dynamic_cast<const T*>(find(e.name))) out.push_back(p);
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Times one extension point when someone listens (no clock read otherwise).
class PointTimer {
 public:
  PointTimer(FrameworkObserver* observer, MetricPoint point) : observer_(observer), point_(point) {
    if (observer_ != nullptr) start_ = Clock::now();
  }
  void finish(Code code) const {
    if (observer_ != nullptr) observer_->extension_point_done(point_, code, seconds_since(start_));
  }

 private:
  FrameworkObserver* observer_;
  MetricPoint point_;
  Clock::time_point start_;
};

/// Times one plugin call; `observer` is null unless the cycle is sampled.
class PluginTimer {
 public:
  PluginTimer(FrameworkObserver* observer, const Plugin& plugin, MetricPoint point)
      : observer_(observer), plugin_(plugin), point_(point) {
    if (observer_ != nullptr) start_ = Clock::now();
  }
  void finish(Code code) const {
    if (observer_ != nullptr) observer_->plugin_done(plugin_.state_slot(), point_, code, seconds_since(start_));
  }

 private:
  FrameworkObserver* observer_;
  const Plugin& plugin_;
  MetricPoint point_;
  Clock::time_point start_;
};

/// splitmix64: spreads consecutive cycle numbers so the sampled cycles do not
/// follow a pattern the workload could line up with.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

bool in_range(int64_t score) { return score >= kMinNodeScore && score <= kMaxNodeScore; }

PluginStatus invalid_score(std::string_view plugin, int64_t score) {
  return with_plugin(PluginStatus::internal_error("plugin \"" + std::string(plugin) + "\" returns an invalid score " +
                                                  std::to_string(score) + ", it should in the range of [" +
                                                  std::to_string(kMinNodeScore) + ", " +
                                                  std::to_string(kMaxNodeScore) + "] after normalizing"),
                     plugin);
}

}  // namespace

Status Framework::add_plugin(const std::string& name, std::shared_ptr<const Plugin> plugin) {
  // The instance is ours alone: the slot is set before anyone else sees it.
  const_cast<Plugin&>(*plugin).set_state_slot(plugins_.size());
  plugins_.push_back(std::move(plugin));
  return Status::success();
}

const Plugin* Framework::find(const std::string& name) const {
  for (const auto& p : plugins_)
    if (p->name() == name) return p.get();
  return nullptr;
}

Result<Framework> Framework::create(const config::Profile& profile, const Registry& registry) {
  Framework fw;
  fw.profile_name_ = profile.scheduler_name;
  fw.percentage_of_nodes_to_score_ = profile.percentage_of_nodes_to_score;
  for (const std::string& name : profile.plugin_names()) {
    const Registry::Entry* entry = registry.find(name);
    if (entry == nullptr) return Error{"profile \"" + profile.scheduler_name + "\": unknown plugin \"" + name + "\""};
    auto plugin = entry->factory(profile.args_for(name));
    if (!plugin)
      return Error{"profile \"" + profile.scheduler_name + "\": plugin \"" + name + "\": " + plugin.message()};
    if (auto added = fw.add_plugin(name, std::move(plugin).value()); !added) return Error{added.message()};
  }
  std::function<const Plugin*(const std::string&)> find = [&fw](const std::string& n) { return fw.find(n); };
  collect(profile.enabled_at(ExtensionPoint::pre_enqueue), fw, find, fw.pre_enqueue_);
  std::vector<const QueueSortPlugin*> sorts;
  collect(profile.enabled_at(ExtensionPoint::queue_sort), fw, find, sorts);
  if (sorts.size() != 1)
    return Error{"profile \"" + profile.scheduler_name + "\": exactly one queue sort plugin must be enabled"};
  fw.queue_sort_ = sorts[0];
  collect(profile.enabled_at(ExtensionPoint::pre_filter), fw, find, fw.pre_filter_);
  collect(profile.enabled_at(ExtensionPoint::filter), fw, find, fw.filter_);
  collect(profile.enabled_at(ExtensionPoint::post_filter), fw, find, fw.post_filter_);
  collect(profile.enabled_at(ExtensionPoint::pre_score), fw, find, fw.pre_score_);
  collect(profile.enabled_at(ExtensionPoint::reserve), fw, find, fw.reserve_);
  collect(profile.enabled_at(ExtensionPoint::permit), fw, find, fw.permit_);
  collect(profile.enabled_at(ExtensionPoint::pre_bind), fw, find, fw.pre_bind_);
  collect(profile.enabled_at(ExtensionPoint::bind), fw, find, fw.bind_);
  collect(profile.enabled_at(ExtensionPoint::post_bind), fw, find, fw.post_bind_);
  if (fw.filter_.size() > 64) return Error{"profile \"" + profile.scheduler_name + "\": more than 64 filter plugins"};
  if (fw.pre_filter_.size() > 64)
    return Error{"profile \"" + profile.scheduler_name + "\": more than 64 pre-filter plugins"};

  int normalizing = 0;
  for (const auto& e : profile.enabled_at(ExtensionPoint::score)) {
    auto* plugin = dynamic_cast<const ScorePlugin*>(fw.find(e.name));
    if (plugin == nullptr) continue;
    ScoreEntry entry;
    entry.plugin = plugin;
    entry.weight = e.weight > 0 ? e.weight : 1;
    if (plugin->has_normalize_score()) {
      if (normalizing == static_cast<int>(kMaxNormalizingScorePlugins))
        return Error{"profile \"" + profile.scheduler_name + "\": more than " +
                     std::to_string(kMaxNormalizingScorePlugins) + " score plugins with NormalizeScore"};
      entry.normalize_index = normalizing++;
    }
    entry.pre_score_skip_bit = fw.score_.size();
    fw.score_.push_back(entry);
  }
  if (fw.score_.size() > 64) return Error{"profile \"" + profile.scheduler_name + "\": more than 64 score plugins"};
  fw.normalizing_score_plugins_ = static_cast<size_t>(normalizing);
  return fw;
}

std::unique_ptr<CycleState> Framework::new_cycle_state() const {
  // The slot after the plugins' is the Framework's: it marks sampled cycles.
  auto state = std::make_unique<CycleState>(plugins_.size() + 1);
  if (observer_ && sample_percent_ > 0) {
    const uint64_t cycle = cycles_->fetch_add(1, std::memory_order_relaxed);
    if (mix(cycle) % 100 < sample_percent_) state->write<SampledCycle>(plugins_.size(), SampledCycle{});
  }
  return state;
}

bool Framework::records_plugin_metrics(const CycleState& state) const {
  return observer_ && state.read<SampledCycle>(plugins_.size()) != nullptr;
}

void Framework::record_extension_point(MetricPoint point, Code code, double seconds) const {
  if (observer_) observer_->extension_point_done(point, code, seconds);
}

std::string_view Framework::plugin_name(size_t slot) const {
  return slot < plugins_.size() ? plugins_[slot]->name() : std::string_view();
}

std::vector<std::string> Framework::plugin_names(ExtensionPoint point) const {
  std::vector<std::string> out;
  auto add = [&out](const Plugin* p) { out.emplace_back(p->name()); };
  switch (point) {
    case ExtensionPoint::pre_enqueue: for (auto* p : pre_enqueue_) add(p); break;
    case ExtensionPoint::queue_sort: add(queue_sort_); break;
    case ExtensionPoint::pre_filter: for (auto* p : pre_filter_) add(p); break;
    case ExtensionPoint::filter: for (auto* p : filter_) add(p); break;
    case ExtensionPoint::post_filter: for (auto* p : post_filter_) add(p); break;
    case ExtensionPoint::pre_score: for (auto* p : pre_score_) add(p); break;
    case ExtensionPoint::score: for (const auto& e : score_) add(e.plugin); break;
    case ExtensionPoint::reserve: for (auto* p : reserve_) add(p); break;
    case ExtensionPoint::permit: for (auto* p : permit_) add(p); break;
    case ExtensionPoint::pre_bind: for (auto* p : pre_bind_) add(p); break;
    case ExtensionPoint::bind: for (auto* p : bind_) add(p); break;
    case ExtensionPoint::post_bind: for (auto* p : post_bind_) add(p); break;
  }
  return out;
}

// ---- queue -------------------------------------------------------------------

PluginStatus Framework::run_pre_enqueue(const PodInfo& pod) const {
  // No CycleState yet: PreEnqueue's plugin calls are timed when the point is
  // (upstream samples them separately; the queue sees few calls per pod).
  PointTimer timer(pre_enqueue_.empty() ? nullptr : observer_.get(), MetricPoint::pre_enqueue);
  for (auto* p : pre_enqueue_) {
    PluginTimer plugin_timer(observer_.get(), *p, MetricPoint::pre_enqueue);
    PluginStatus s = p->pre_enqueue(pod);
    plugin_timer.finish(s.code);
    if (!s.ok()) {
      timer.finish(s.code);
      return with_plugin(std::move(s), p->name());
    }
  }
  timer.finish(Code::success);
  return {};
}

bool Framework::less(const QueuedPodInfo& a, const QueuedPodInfo& b) const { return queue_sort_->less(a, b); }

std::vector<std::pair<std::string, ClusterEvent>> Framework::cluster_events() const {
  std::vector<std::pair<std::string, ClusterEvent>> out;
  for (const auto& p : plugins_)
    if (auto* ext = dynamic_cast<const EnqueueExtensions*>(p.get()))
      for (const auto& e : ext->events_to_register()) out.emplace_back(std::string(p->name()), e);
  return out;
}

bool Framework::event_may_help(const ClusterEvent& event, const std::set<std::string>& rejectors) const {
  if (rejectors.empty()) return true;
  for (const std::string& name : rejectors) {
    const Plugin* p = find(name);
    auto* ext = dynamic_cast<const EnqueueExtensions*>(p);
    if (ext == nullptr) return true;  // unknown or silent plugin: any event may help
    for (const auto& registered : ext->events_to_register())
      if (registered.matches(event)) return true;
  }
  return false;
}

// ---- scheduling cycle ----------------------------------------------------------

PluginStatus Framework::run_pre_filter(CycleState& state, const PodInfo& pod) const {
  PointTimer timer(observer_.get(), MetricPoint::pre_filter);
  PluginStatus status = run_pre_filter_plugins(state, pod);
  timer.finish(status.code);
  return status;
}

PluginStatus Framework::run_pre_filter_plugins(CycleState& state, const PodInfo& pod) const {
  FrameworkObserver* sampled_observer = sampled(state);
  state.skip_filter_mask = 0;
  state.skip_pre_filter_mask = 0;
  state.node_names.reset();
  state.node_names_plugins.clear();
  // Placing such a pod with its claims ignored would leave it unable to start.
  if (pod.pod != nullptr && pod.pod->spec.has_resource_claims)
    return PluginStatus::unresolvable(kResourceClaimsNotSupported);
  std::vector<std::string> restricting;
  for (size_t index = 0; index < pre_filter_.size(); ++index) {
    const PreFilterPlugin* p = pre_filter_[index];
    PreFilterResult result;
    PluginTimer plugin_timer(sampled_observer, *p, MetricPoint::pre_filter);
    PluginStatus s = p->pre_filter(state, pod, result);
    plugin_timer.finish(s.code);
    if (s.is_skip()) {
      state.skip_pre_filter_mask |= uint64_t{1} << index;
      for (size_t i = 0; i < filter_.size(); ++i)
        if (filter_[i]->name() == p->name()) state.skip_filter_mask |= uint64_t{1} << i;
      continue;
    }
    if (!s.ok()) {
      if (s.is_rejection()) return with_plugin(std::move(s), p->name());
      return as_error(std::move(s), p->name(), "PreFilter");
    }
    if (!result.node_names) continue;
    restricting.emplace_back(p->name());
    narrow_node_names(state.node_names, std::move(*result.node_names));
    if (state.node_names->empty()) {
      std::string message;
      if (restricting.size() == 1) {
        message = "node(s) didn't satisfy plugin " + restricting[0];
      } else {
        message = "node(s) didn't satisfy plugin(s) [";
        for (size_t i = 0; i < restricting.size(); ++i) message += (i ? " " : "") + restricting[i];
        message += "] simultaneously";
      }
      return with_plugin(PluginStatus::unresolvable(std::move(message)), p->name());
    }
  }
  state.node_names_plugins = std::move(restricting);
  std::sort(state.node_names_plugins.begin(), state.node_names_plugins.end());
  return {};
}

std::string Framework::excluded_by_pre_filter_reason(const CycleState& state) {
  std::string reason = "node(s) didn't satisfy plugin(s) [";
  for (size_t i = 0; i < state.node_names_plugins.size(); ++i) {
    if (i > 0) reason += " ";
    reason += state.node_names_plugins[i];
  }
  return reason + "]";
}

PluginStatus Framework::run_filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  FrameworkObserver* sampled_observer = sampled(state);
  for (size_t i = 0; i < filter_.size(); ++i) {
    if (state.skip_filter_mask & (uint64_t{1} << i)) continue;
    PluginTimer plugin_timer(sampled_observer, *filter_[i], MetricPoint::filter);
    PluginStatus s = filter_[i]->filter(state, pod, node);
    plugin_timer.finish(s.code);
    if (s.ok()) continue;
    if (!s.is_rejection()) return as_error(std::move(s), filter_[i]->name(), "Filter");
    return with_plugin(std::move(s), filter_[i]->name());
  }
  return {};
}

PluginStatus Framework::run_pre_filter_extension_add_pod(CycleState& state, const PodInfo& pod, const PodInfo& other,
                                                         const NodeInfo& node) const {
  return run_pre_filter_extensions(state, pod, other, node, /*added=*/true);
}

PluginStatus Framework::run_pre_filter_extension_remove_pod(CycleState& state, const PodInfo& pod,
                                                            const PodInfo& other, const NodeInfo& node) const {
  return run_pre_filter_extensions(state, pod, other, node, /*added=*/false);
}

PluginStatus Framework::run_pre_filter_extensions(CycleState& state, const PodInfo& pod, const PodInfo& other,
                                                  const NodeInfo& node, bool added) const {
  for (size_t index = 0; index < pre_filter_.size(); ++index) {
    if (state.skip_pre_filter_mask & (uint64_t{1} << index)) continue;
    const PreFilterPlugin* p = pre_filter_[index];
    PluginStatus s = added ? p->add_pod(state, pod, other, node) : p->remove_pod(state, pod, other, node);
    if (!s.ok()) return as_error(std::move(s), p->name(), added ? "AddPod on PreFilter" : "RemovePod on PreFilter");
  }
  return {};
}

PostFilterResult Framework::run_post_filter(CycleState& state, const PodInfo& pod,
                                            const NodeStatuses& statuses) const {
  PointTimer timer(observer_.get(), MetricPoint::post_filter);
  PostFilterResult result = run_post_filter_plugins(state, pod, statuses);
  timer.finish(result.status.code);
  return result;
}

PostFilterResult Framework::run_post_filter_plugins(CycleState& state, const PodInfo& pod,
                                                    const NodeStatuses& statuses) const {
  FrameworkObserver* sampled_observer = sampled(state);
  // kube-scheduler's RunPostFilterPlugins: the first success or unresolvable
  // answer wins; otherwise every plugin's reasons, the first rejector named.
  PostFilterResult result;
  std::vector<std::string> reasons;
  std::string rejector;
  for (auto* p : post_filter_) {
    PluginTimer plugin_timer(sampled_observer, *p, MetricPoint::post_filter);
    PostFilterResult r = p->post_filter(state, pod, statuses);
    plugin_timer.finish(r.status.code);
    if (r.status.ok() || r.status.code == Code::unschedulable_and_unresolvable) {
      r.status.plugin = std::string(p->name());
      if (r.message.empty()) r.message = r.status.message();
      return r;
    }
    if (!r.status.is_rejection()) {
      PostFilterResult error;
      error.status = as_error(std::move(r.status), p->name(), "PostFilter");
      error.message = error.status.message();
      return error;
    }
    if (r.nominated_node) result.nominated_node = r.nominated_node;
    reasons.insert(reasons.end(), r.status.reasons.begin(), r.status.reasons.end());
    if (rejector.empty()) rejector = std::string(p->name());
  }
  result.status = PluginStatus(Code::unschedulable, std::move(reasons));
  result.status.plugin = std::move(rejector);
  result.message = result.status.message();
  return result;
}

PluginStatus Framework::run_pre_score(CycleState& state, const PodInfo& pod) const {
  PointTimer timer(observer_.get(), MetricPoint::pre_score);
  FrameworkObserver* sampled_observer = sampled(state);
  state.skip_score_mask = 0;
  for (auto* p : pre_score_) {
    PluginTimer plugin_timer(sampled_observer, *p, MetricPoint::pre_score);
    PluginStatus s = p->pre_score(state, pod);
    plugin_timer.finish(s.code);
    if (s.is_skip()) {
      for (const auto& e : score_)
        if (e.plugin->name() == p->name()) state.skip_score_mask |= uint64_t{1} << e.pre_score_skip_bit;
      continue;
    }
    if (!s.ok()) {
      timer.finish(Code::error);
      return as_error(std::move(s), p->name(), "PreScore");
    }
  }
  timer.finish(Code::success);
  return {};
}

PluginStatus Framework::score_node(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                   NodeScore& out) const {
  out.weighted_sum = 0;
  out.total = 0;
  out.raw.fill(0);
  FrameworkObserver* sampled_observer = sampled(state);
  for (const auto& e : score_) {
    if (state.skip_score_mask & (uint64_t{1} << e.pre_score_skip_bit)) continue;
    PluginTimer plugin_timer(sampled_observer, *e.plugin, MetricPoint::score);
    ScoreResult r = e.plugin->score(state, pod, node);
    plugin_timer.finish(r.status.code);
    if (!r.status.ok()) return as_error(std::move(r.status), e.plugin->name(), "Score");
    if (e.normalize_index >= 0) {
      out.raw[static_cast<size_t>(e.normalize_index)] = r.score;
    } else {
      if (!in_range(r.score)) return invalid_score(e.plugin->name(), r.score);
      out.weighted_sum += r.score * e.weight;
    }
  }
  out.total = out.weighted_sum;
  return {};
}

PluginStatus Framework::finalize_scores(const CycleState& state, const PodInfo& pod,
                                        std::vector<NodeScore>& scores) const {
  for (auto& s : scores) s.total = s.weighted_sum;
  std::vector<int64_t> column(scores.size());
  FrameworkObserver* sampled_observer = sampled(state);
  for (const auto& e : score_) {
    if (e.normalize_index < 0 || (state.skip_score_mask & (uint64_t{1} << e.pre_score_skip_bit))) continue;
    const auto k = static_cast<size_t>(e.normalize_index);
    for (size_t i = 0; i < scores.size(); ++i) column[i] = scores[i].raw[k];
    PluginTimer plugin_timer(sampled_observer, *e.plugin, MetricPoint::score_normalize);
    PluginStatus s = e.plugin->normalize_scores(state, pod, column);
    plugin_timer.finish(s.code);
    if (!s.ok()) return as_error(std::move(s), e.plugin->name(), "NormalizeScore");
    for (size_t i = 0; i < scores.size(); ++i) {
      if (!in_range(column[i])) return invalid_score(e.plugin->name(), column[i]);
      scores[i].total += column[i] * e.weight;
    }
  }
  return {};
}

std::optional<size_t> Framework::select_host(const std::vector<NodeScore>& scores, std::mt19937_64& rng) {
  if (scores.empty()) return std::nullopt;
  // Every highest total is equally likely, as with upstream's reservoir
  // sampling, but with one random draw instead of one per tie (nodes often
  // tie by the hundred).
  int64_t highest = scores[0].total;
  uint64_t ties = 0;
  for (const auto& s : scores) {
    if (s.total > highest) {
      highest = s.total;
      ties = 1;
    } else if (s.total == highest) {
      ++ties;
    }
  }
  uint64_t pick = ties > 1 ? std::uniform_int_distribution<uint64_t>(0, ties - 1)(rng) : 0;
  for (size_t i = 0; i < scores.size(); ++i)
    if (scores[i].total == highest && pick-- == 0) return i;
  return std::nullopt;  // not reached: `ties` counted at least one
}

// ---- on the chosen node -----------------------------------------------------------

PluginStatus Framework::run_reserve(CycleState& state, const std::shared_ptr<const PodInfo>& pod,
                                    NodeInfo& node) const {
  PointTimer timer(observer_.get(), MetricPoint::reserve);
  PluginStatus status = run_reserve_plugins(state, pod, node);
  timer.finish(status.code);
  return status;
}

PluginStatus Framework::run_reserve_plugins(CycleState& state, const std::shared_ptr<const PodInfo>& pod,
                                            NodeInfo& node) const {
  FrameworkObserver* sampled_observer = sampled(state);
  if (!node.add_pod(pod))
    return PluginStatus::internal_error("pod " + pod->key + " is already accounted on node " + node.name());
  for (auto* p : reserve_) {
    PluginTimer plugin_timer(sampled_observer, *p, MetricPoint::reserve);
    PluginStatus s = p->reserve(state, *pod, node);
    plugin_timer.finish(s.code);
    if (s.ok()) continue;
    run_unreserve(state, *pod, node);
    if (s.is_rejection()) return with_plugin(std::move(s), p->name());
    return as_error(std::move(s), p->name(), "Reserve");
  }
  return {};
}

void Framework::run_unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) const {
  PointTimer timer(observer_.get(), MetricPoint::unreserve);
  FrameworkObserver* sampled_observer = sampled(state);
  for (auto it = reserve_.rbegin(); it != reserve_.rend(); ++it) {
    PluginTimer plugin_timer(sampled_observer, **it, MetricPoint::unreserve);
    (*it)->unreserve(state, pod, node);
    plugin_timer.finish(Code::success);
  }
  node.remove_pod(pod_identity(pod));
  timer.finish(Code::success);
}

// ---- binding cycle --------------------------------------------------------------------

PermitOutcome Framework::run_permit(CycleState& state, const PodInfo& pod, const std::string& node_name) const {
  PointTimer timer(observer_.get(), MetricPoint::permit);
  PermitOutcome outcome = run_permit_plugins(state, pod, node_name);
  timer.finish(outcome.status.code);
  return outcome;
}

PermitOutcome Framework::run_permit_plugins(CycleState& state, const PodInfo& pod,
                                            const std::string& node_name) const {
  FrameworkObserver* sampled_observer = sampled(state);
  PermitOutcome outcome;
  for (auto* p : permit_) {
    PluginTimer plugin_timer(sampled_observer, *p, MetricPoint::permit);
    PermitResult r = p->permit(state, pod, node_name);
    plugin_timer.finish(r.status.code);
    if (r.status.ok()) continue;
    if (r.status.code == Code::wait) {
      outcome.waiting.emplace_back(std::string(p->name()), std::min(r.timeout, kMaxPermitWait));
      continue;
    }
    outcome.status = r.status.is_rejection() ? with_plugin(std::move(r.status), p->name())
                                             : as_error(std::move(r.status), p->name(), "Permit");
    outcome.waiting.clear();
    return outcome;
  }
  if (!outcome.waiting.empty()) outcome.status = PluginStatus(Code::wait);
  return outcome;
}

PluginStatus Framework::run_pre_bind(CycleState& state, const PodInfo& pod, const std::string& node_name,
                                     BindingChanges& changes) const {
  PointTimer timer(observer_.get(), MetricPoint::pre_bind);
  FrameworkObserver* sampled_observer = sampled(state);
  for (auto* p : pre_bind_) {
    PluginTimer plugin_timer(sampled_observer, *p, MetricPoint::pre_bind);
    PluginStatus s = p->pre_bind(state, pod, node_name, changes);
    plugin_timer.finish(s.code);
    if (s.ok()) continue;
    timer.finish(s.is_rejection() ? s.code : Code::error);
    if (s.is_rejection()) return with_plugin(std::move(s), p->name());
    return as_error(std::move(s), p->name(), "PreBind");
  }
  timer.finish(Code::success);
  return {};
}

PluginStatus Framework::run_bind(const CycleState& state, const PodInfo& pod, const std::string& node_name) const {
  for (auto* p : bind_) {
    PluginStatus s = p->bind(state, pod, node_name);
    if (s.is_skip()) continue;
    if (s.ok() || s.is_rejection()) return with_plugin(std::move(s), p->name());
    return as_error(std::move(s), p->name(), "Bind");
  }
  return PluginStatus(Code::skip);
}

void Framework::run_post_bind(const CycleState& state, const PodInfo& pod, const std::string& node_name) const {
  PointTimer timer(observer_.get(), MetricPoint::post_bind);
  FrameworkObserver* sampled_observer = sampled(state);
  for (auto* p : post_bind_) {
    PluginTimer plugin_timer(sampled_observer, *p, MetricPoint::post_bind);
    p->post_bind(state, pod, node_name);
    plugin_timer.finish(Code::success);
  }
  timer.finish(Code::success);
}

}  // namespace troupe::plugins
