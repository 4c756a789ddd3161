#include "actors/metrics_registry.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace troupe::actors {

std::vector<double> exponential_buckets(double start, double factor, int count) {
  std::vector<double> out;
  double bound = start;
  for (int i = 0; i < count; ++i, bound *= factor) out.push_back(bound);
  return out;
}

void MetricsRegistry::declare(const std::string& name, Type type, const std::string& help,
                              std::vector<std::string> label_names, std::vector<double> buckets) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (families_.count(name) > 0) return;
  Family& f = families_[name];
  f.type = type;
  f.help = help;
  f.label_names = std::move(label_names);
  f.buckets = std::move(buckets);
}

MetricsRegistry::Series& MetricsRegistry::series_for(const std::string& name, const LabelValues& labels,
                                                     Type expected) {
  auto it = families_.find(name);
  // A metric used without being declared, or with the wrong label count, is a
  // programming error inside troupe: fail loudly in tests rather than render
  // a malformed exposition.
  if (it == families_.end()) throw std::logic_error("metric not declared: " + name);
  Family& f = it->second;
  if (f.type != expected) throw std::logic_error("metric used with the wrong type: " + name);
  if (labels.size() != f.label_names.size()) throw std::logic_error("wrong label count for metric " + name);
  Series& s = f.series[labels];
  if (f.type == Type::histogram && s.bucket_counts.empty()) s.bucket_counts.assign(f.buckets.size(), 0);
  return s;
}

void MetricsRegistry::add(const std::string& name, const LabelValues& labels, double delta) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = families_.find(name);
  Type type = it == families_.end() ? Type::counter : it->second.type;
  series_for(name, labels, type == Type::gauge ? Type::gauge : Type::counter).value += delta;
}

void MetricsRegistry::set(const std::string& name, const LabelValues& labels, double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  series_for(name, labels, Type::gauge).value = value;
}

void MetricsRegistry::replace(const std::string& name, const std::vector<std::pair<LabelValues, double>>& series) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = families_.find(name);
  if (it == families_.end()) throw std::logic_error("metric not declared: " + name);
  Family& f = it->second;
  if (f.type != Type::gauge) throw std::logic_error("metric used with the wrong type: " + name);
  std::map<LabelValues, Series> fresh;
  for (const auto& [labels, value] : series) {
    if (labels.size() != f.label_names.size()) throw std::logic_error("wrong label count for metric " + name);
    fresh[labels].value = value;
  }
  f.series = std::move(fresh);  // checked first: a bad entry leaves the family as it was
}

void MetricsRegistry::observe(const std::string& name, const LabelValues& labels, double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = families_.find(name);
  Series& s = series_for(name, labels, Type::histogram);
  const auto& bounds = it->second.buckets;
  for (size_t i = 0; i < bounds.size(); ++i)
    if (value <= bounds[i]) {
      ++s.bucket_counts[i];
      break;
    }
  s.sum += value;
  ++s.count;
}

void MetricsRegistry::merge(const std::string& name, const LabelValues& labels, const HistogramDelta& delta) {
  if (delta.count == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  Series& s = series_for(name, labels, Type::histogram);
  // The delta's last entry counts values above every bound: only +Inf (the count) has them.
  const size_t bounded = std::min(s.bucket_counts.size(), delta.bucket_counts.size());
  for (size_t i = 0; i < bounded; ++i) s.bucket_counts[i] += delta.bucket_counts[i];
  s.sum += delta.sum;
  s.count += delta.count;
}

std::vector<double> MetricsRegistry::buckets(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = families_.find(name);
  return it == families_.end() ? std::vector<double>{} : it->second.buckets;
}

void MetricsRegistry::add_collector(std::function<void(MetricsRegistry&)> collect) {
  std::lock_guard<std::mutex> lock(collectors_mutex_);
  collectors_.push_back(std::move(collect));
}

void MetricsRegistry::collect() {
  std::lock_guard<std::mutex> lock(collectors_mutex_);
  for (auto& collector : collectors_) collector(*this);
}

double MetricsRegistry::value(const std::string& name, const LabelValues& labels) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = families_.find(name);
  if (it == families_.end()) return 0;
  auto s = it->second.series.find(labels);
  return s == it->second.series.end() ? 0 : s->second.value;
}

uint64_t MetricsRegistry::count(const std::string& name, const LabelValues& labels) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = families_.find(name);
  if (it == families_.end()) return 0;
  auto s = it->second.series.find(labels);
  return s == it->second.series.end() ? 0 : s->second.count;
}

namespace {

std::string escape_label_value(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string escape_help(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string format_number(double v) {
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (std::isnan(v)) return "NaN";
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

// `{a="x",b="y"` without the closing brace, so histograms can append `le`.
std::string open_labels(const std::vector<std::string>& names, const LabelValues& values) {
  std::string out = "{";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ",";
    out += names[i] + "=\"" + escape_label_value(values[i]) + "\"";
  }
  return out;
}

std::string labels_text(const std::vector<std::string>& names, const LabelValues& values) {
  return names.empty() ? "" : open_labels(names, values) + "}";
}

const char* type_name(MetricsRegistry::Type t) {
  switch (t) {
    case MetricsRegistry::Type::counter: return "counter";
    case MetricsRegistry::Type::gauge: return "gauge";
    case MetricsRegistry::Type::histogram: return "histogram";
  }
  return "untyped";
}

}  // namespace

std::string MetricsRegistry::render() {
  collect();
  std::lock_guard<std::mutex> lock(mutex_);
  std::ostringstream out;
  for (const auto& [name, f] : families_) {
    out << "# HELP " << name << " " << escape_help(f.help) << "\n";
    out << "# TYPE " << name << " " << type_name(f.type) << "\n";
    for (const auto& [labels, s] : f.series) {
      if (f.type != Type::histogram) {
        out << name << labels_text(f.label_names, labels) << " " << format_number(s.value) << "\n";
        continue;
      }
      std::string open = open_labels(f.label_names, labels);
      std::string sep = f.label_names.empty() ? "" : ",";
      uint64_t cumulative = 0;
      for (size_t i = 0; i < f.buckets.size(); ++i) {
        cumulative += s.bucket_counts[i];
        out << name << "_bucket" << open << sep << "le=\"" << format_number(f.buckets[i]) << "\"} " << cumulative
            << "\n";
      }
      out << name << "_bucket" << open << sep << "le=\"+Inf\"} " << s.count << "\n";
      out << name << "_sum" << labels_text(f.label_names, labels) << " " << format_number(s.sum) << "\n";
      out << name << "_count" << labels_text(f.label_names, labels) << " " << s.count << "\n";
    }
  }
  return out.str();
}

void declare_scheduler_metrics(MetricsRegistry& r) {
  // Only families troupe records. Preemption metrics are not recorded yet
  // and so are not declared (README, "Observing").
  using T = MetricsRegistry::Type;
  r.declare("scheduler_schedule_attempts_total", T::counter,
            "[STABLE] Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be "
            "scheduled, while 'error' means an internal scheduler problem.",
            {"profile", "result"});
  r.declare("scheduler_scheduling_attempt_duration_seconds", T::histogram,
            "[STABLE] Scheduling attempt latency in seconds (scheduling algorithm + binding)", {"profile", "result"},
            exponential_buckets(0.001, 2, 15));
  r.declare("scheduler_scheduling_algorithm_duration_seconds", T::histogram,
            "[ALPHA] Scheduling algorithm latency in seconds", {}, exponential_buckets(0.001, 2, 15));
  r.declare("scheduler_pending_pods", T::gauge,
            "[STABLE] Number of pending pods, by the queue type. 'active' means number of pods in activeQ; "
            "'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that "
            "the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the "
            "scheduler never attempted to schedule because they are gated.",
            {"queue"});
  r.declare("scheduler_unschedulable_pods", T::gauge,
            "[ALPHA] The number of unschedulable pods broken down by plugin name. A pod will increment the gauge for "
            "all plugins that caused it to not schedule and so this metric have meaning only when broken down by "
            "plugin.",
            {"plugin", "profile"});
  r.declare("scheduler_pod_scheduling_sli_duration_seconds", T::histogram,
            "[BETA] E2e latency for a pod being scheduled, from the time the pod enters the scheduling queue and "
            "might involve multiple scheduling attempts.",
            {"attempts"}, exponential_buckets(0.01, 2, 20));
  r.declare("scheduler_pod_scheduling_attempts", T::histogram,
            "[STABLE] Number of attempts to successfully schedule a pod.", {}, exponential_buckets(1, 2, 5));
  r.declare("scheduler_preemption_attempts_total", T::counter,
            "[STABLE] Total preemption attempts in the cluster till now", {});
  r.declare("scheduler_preemption_victims", T::histogram, "[STABLE] Number of selected preemption victims", {},
            exponential_buckets(1, 2, 7));
  r.declare("scheduler_permit_wait_duration_seconds", T::histogram,
            "[ALPHA] Duration of waiting on permit.", {"result"}, exponential_buckets(0.001, 2, 15));
  r.declare("scheduler_waiting_gang_group_number", T::gauge,
            "The number of gang groups with pods waiting at Permit (Koordinator's Coscheduling).", {});
  // Koordinator's, observed when a node is chosen (CollectSchedulePodResult).
  r.declare("scheduler_pod_scheduling_evaluated_nodes", T::histogram,
            "The number of nodes the scheduler evaluated the pod against in the filtering phase and beyond when "
            "find the suggested node",
            {}, exponential_buckets(1, 2, 24));
  r.declare("scheduler_pod_scheduling_feasible_nodes", T::histogram,
            "The number of of nodes out of the evaluated ones that fit the pod when find the suggested node", {},
            exponential_buckets(1, 2, 24));
  r.declare("troupe_preemption_pdbs", T::gauge, "PodDisruptionBudgets the scheduler's preemption knows.", {});
  r.declare("scheduler_queue_incoming_pods_total", T::counter,
            "[STABLE] Number of pods added to scheduling queues by event and queue type.", {"event", "queue"});
  r.declare("scheduler_framework_extension_point_duration_seconds", T::histogram,
            "[STABLE] Latency for running all plugins of a specific extension point.",
            {"extension_point", "status", "profile"}, exponential_buckets(0.0001, 2, 12));
  r.declare("scheduler_plugin_execution_duration_seconds", T::histogram,
            "[ALPHA] Duration for running a plugin at a specific extension point.",
            {"plugin", "extension_point", "status"}, exponential_buckets(0.00001, 1.5, 20));
  r.declare("troupe_actor_mailbox_depth", T::gauge,
            "Messages waiting in the mailboxes of the actors of a kind, as last seen by each when it handled one.",
            {"actor"});
  r.declare("troupe_actor_messages_total", T::counter, "Messages handled by the actors of a kind.", {"actor"});
  r.declare("troupe_actor_message_duration_seconds", T::histogram,
            "Time the actors of a kind spent handling one message.", {"actor"}, exponential_buckets(0.00001, 2, 20));
  r.declare("troupe_bindings_total", T::counter, "Binding requests by result.", {"result"});
  r.declare("troupe_events_dropped_total", T::counter,
            "Events (Scheduled, FailedScheduling) not written because the event lane was full "
            "(troupe.eventQueueSize): Bindings go first and events are best effort, as kube-scheduler's.",
            {"reason"});
  r.declare("troupe_event_queue_length", T::gauge,
            "Events waiting in the API writer's event lane (written when no Binding waits).", {});
  r.declare("troupe_watch_events_total", T::counter, "Watch events received, by resource and type.",
            {"resource", "type"});
}

}  // namespace troupe::actors
