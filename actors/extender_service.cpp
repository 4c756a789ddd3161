#include "actors/extender_service.hpp"

#include <spdlog/spdlog.h>

#include "actors/extender_protocol.hpp"
#include "actors/partitioning.hpp"
#include "plugins/deviceshare/deviceshare_plugin.hpp"
#include "plugins/deviceshare/gpushare_inspect.hpp"
#include "plugins/gpushare/gpushare_plugin.hpp"
#include "plugins/registry.hpp"
#include "watch/object_writes.hpp"

namespace troupe::actors {

namespace {

constexpr auto kActorTimeout = std::chrono::seconds(10);
constexpr auto kBindTimeout = std::chrono::seconds(60);
constexpr const char* kDeviceShareProfile = "troupe-extender-deviceshare";
constexpr const char* kGpuShareProfile = "troupe-extender-gpushare";

// One profile per verb set: PrioritySort and DefaultBinder only because a
// Framework needs them; Filter/Score/Reserve/PreBind are the device plugin's.
std::string extender_profiles_yaml() {
  auto profile = [](const char* name, const char* plugin) {
    return std::string("- schedulerName: ") + name +
           "\n  plugins:\n    multiPoint:\n      enabled: [{name: PrioritySort}, {name: " + plugin +
           "}, {name: DefaultBinder}]\n      disabled: [{name: \"*\"}]\n";
  };
  return "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n" +
         profile(kDeviceShareProfile, plugins::deviceshare::DeviceShare::kName) +
         profile(kGpuShareProfile, plugins::gpushare::AliyunGpuShare::kName);
}

// kube-scheduler keeps unresolvable failures apart: preemption cannot help there.
void record_failure(ExtenderFilterVerdict& verdict, const std::string& node, const plugins::PluginStatus& status) {
  auto& failed =
      status.code == plugins::Code::unschedulable_and_unresolvable ? verdict.failed_unresolvable : verdict.failed;
  failed[node] = status.message();
}

HttpReply json_reply(int status, std::string body) { return {status, "application/json", std::move(body)}; }

HttpReply filter_error(const ExtenderArgs& args, const std::string& message) {
  ExtenderFilterVerdict verdict;
  verdict.error = message;
  return json_reply(200, extender_filter_result_json(args, verdict));
}

}  // namespace

Result<std::unique_ptr<ExtenderService>> ExtenderService::create(ExtenderServiceDeps deps,
                                                                 const config::SchedulerConfiguration& config) {
  auto parsed = plugins::parse_scheduler_configuration(extender_profiles_yaml());
  if (!parsed) return Error{"extender profiles: " + parsed.message()};
  for (const auto& p : config.profiles) {
    YAML::Node args = p.args_for(plugins::deviceshare::DeviceShare::kName);
    if (args.IsNull() || !args.IsDefined()) continue;
    parsed->profiles[0].plugin_args[plugins::deviceshare::DeviceShare::kName] = args;
    break;
  }
  auto frameworks = plugins::make_frameworks(*parsed);
  if (!frameworks) return Error{"extender: " + frameworks.message()};
  auto deviceshare = std::make_shared<const plugins::Framework>(std::move((*frameworks)[0]));
  auto gpushare = std::make_shared<const plugins::Framework>(std::move((*frameworks)[1]));
  return std::unique_ptr<ExtenderService>(new ExtenderService(std::move(deps), deviceshare, gpushare));
}

ExtenderService::ExtenderService(ExtenderServiceDeps deps, std::shared_ptr<const plugins::Framework> deviceshare,
                                 std::shared_ptr<const plugins::Framework> gpushare)
    : deps_(std::move(deps)),
      deviceshare_(std::move(deviceshare)),
      gpushare_(std::move(gpushare)),
      deviceshare_learning_(deviceshare_) {}

void ExtenderService::share_learned(const std::shared_ptr<const plugins::Framework>& framework,
                                    const PodInfoPtr& pod, bool count, plugins::CycleState& state) {
  if (framework == deviceshare_) deviceshare_learning_.on_request(pod, count, state);
}

HttpReply ExtenderService::serve(const HttpRequest& request) {
  const std::string path = request.target.substr(0, request.target.find('?'));
  if (path == "/version" && request.method == "GET") return {200, "text/plain", "0.1.0"};
  const std::string inspect_path = "/gpushare-scheduler/inspect";
  if (path == inspect_path || path.rfind(inspect_path + "/", 0) == 0) {
    if (request.method != "GET") return {405, "text/plain", "use GET\n"};
    return inspect(path.size() > inspect_path.size() ? path.substr(inspect_path.size() + 1) : "");
  }
  struct Route {
    const char* path;
    const std::shared_ptr<const plugins::Framework>* framework;
    enum { filter, prioritize, bind } verb;
  };
  const Route routes[] = {
      {"/gpushare-scheduler/filter", &gpushare_, Route::filter},
      {"/gpushare-scheduler/bind", &gpushare_, Route::bind},
      {"/deviceshare/filter", &deviceshare_, Route::filter},
      {"/deviceshare/prioritize", &deviceshare_, Route::prioritize},
      {"/deviceshare/bind", &deviceshare_, Route::bind},
  };
  for (const auto& route : routes) {
    if (path != route.path) continue;
    if (request.method != "POST") return {405, "text/plain", "use POST\n"};
    switch (route.verb) {
      case Route::filter: return filter(*route.framework, request.body);
      case Route::prioritize: return prioritize(*route.framework, request.body);
      case Route::bind: return bind(*route.framework, request.body);
    }
  }
  return {404, "text/plain", "404 page not found\n"};
}

bool ExtenderService::evaluate(const std::shared_ptr<const plugins::Framework>& framework,
                               const std::shared_ptr<const plugins::PodInfo>& pod,
                               const std::shared_ptr<plugins::CycleState>& state,
                               const std::vector<std::string>& names, bool score, std::vector<Evaluation>& out,
                               std::string& error) {
  std::vector<std::vector<std::string>> by_partition(deps_.nodes.size());
  for (const auto& name : names) by_partition[partition_of(name, deps_.nodes.size())].push_back(name);
  auto request = std::make_shared<CycleRequest>();
  request->framework = framework;
  request->pod = pod;
  request->state = state;
  caf::scoped_actor self{*deps_.system};
  bool answered = true;
  for (size_t i = 0; i < by_partition.size(); ++i) {
    if (by_partition[i].empty()) continue;
    auto part = std::make_shared<const std::vector<std::string>>(std::move(by_partition[i]));
    self->request(deps_.nodes[i], kActorTimeout, atom::evaluate_v, CycleRequestPtr(request), NodeNamesPtr(part),
                  score)
        .receive([&](EvaluationPtr e) { out.push_back(*e); },
                 [&](caf::error& e) {
                   answered = false;
                   error = "node partition did not answer: " + caf::to_string(e);
                 });
  }
  return answered;
}

HttpReply ExtenderService::filter(const std::shared_ptr<const plugins::Framework>& framework,
                                  const std::string& body) {
  auto args = parse_extender_args(body);
  if (!args) return filter_error(ExtenderArgs{}, args.message());
  auto pod = plugins::PodInfo::make(args->pod);
  std::shared_ptr<plugins::CycleState> state = framework->new_cycle_state();
  share_learned(framework, pod, /*count=*/true, *state);
  auto pre = framework->run_pre_filter(*state, *pod);
  ExtenderFilterVerdict verdict;
  if (pre.is_skip()) {  // the pod asks for nothing this plugin decides
    verdict.passed = args->node_names;
    return json_reply(200, extender_filter_result_json(*args, verdict));
  }
  if (!pre.ok()) {
    for (const auto& name : args->node_names) record_failure(verdict, name, pre);
    if (pre.code == plugins::Code::error) verdict.error = pre.message();
    return json_reply(200, extender_filter_result_json(*args, verdict));
  }
  std::vector<Evaluation> parts;
  std::string error;
  if (!evaluate(framework, pod, state, args->node_names, false, parts, error))
    return filter_error(*args, error);
  std::set<std::string> feasible;
  for (const auto& part : parts) {
    if (!part.error.empty()) return filter_error(*args, part.error);
    feasible.insert(part.feasible.begin(), part.feasible.end());
    for (const auto& [name, status] : part.failed) record_failure(verdict, name, status);
  }
  for (const auto& name : args->node_names)  // request order
    if (feasible.count(name) > 0) verdict.passed.push_back(name);
  return json_reply(200, extender_filter_result_json(*args, verdict));
}

HttpReply ExtenderService::prioritize(const std::shared_ptr<const plugins::Framework>& framework,
                                      const std::string& body) {
  auto args = parse_extender_args(body);
  if (!args) return {400, "text/plain", args.message() + "\n"};
  auto pod = plugins::PodInfo::make(args->pod);
  std::shared_ptr<plugins::CycleState> state = framework->new_cycle_state();
  share_learned(framework, pod, /*count=*/true, *state);
  std::vector<std::pair<std::string, int64_t>> priorities;
  for (const auto& name : args->node_names) priorities.emplace_back(name, 0);
  auto pre = framework->run_pre_filter(*state, *pod);
  if (!pre.ok()) return json_reply(200, host_priority_list_json(priorities));  // nothing to prefer
  auto pre_score = framework->run_pre_score(*state, *pod);
  if (!pre_score.ok() && !pre_score.is_skip()) return {500, "text/plain", pre_score.message() + "\n"};
  std::vector<Evaluation> parts;
  std::string error;
  if (!evaluate(framework, pod, state, args->node_names, true, parts, error)) return {503, "text/plain", error + "\n"};
  std::vector<plugins::NodeScore> scores;
  for (auto& part : parts) {
    if (!part.error.empty()) return {500, "text/plain", part.error + "\n"};
    for (auto& s : part.scores) scores.push_back(std::move(s));
  }
  auto finalized = framework->finalize_scores(*state, *pod, scores);
  if (!finalized.ok()) return {500, "text/plain", finalized.message() + "\n"};
  std::map<std::string, int64_t> total;
  for (const auto& s : scores) total[s.node_name] = s.total;
  // The profile's weights sum to 1 (one scoring plugin): totals are 0..100;
  // kube-scheduler multiplies an extender's 0..10 by MaxNodeScore/10 again.
  for (auto& [name, score] : priorities) {
    auto it = total.find(name);
    score = it == total.end() ? 0 : it->second * kExtenderScoreMax / plugins::kMaxNodeScore;
  }
  return json_reply(200, host_priority_list_json(priorities));
}

HttpReply ExtenderService::inspect(const std::string& node_name) {
  namespace ds = plugins::deviceshare;
  std::vector<node_actor> asked = deps_.nodes;
  if (!node_name.empty()) asked = {deps_.nodes[partition_of(node_name, deps_.nodes.size())]};
  caf::scoped_actor self{*deps_.system};
  std::vector<std::string> parts;
  std::string error;
  for (const auto& partition : asked)
    self->request(partition, kActorTimeout, atom::gpushare_inspect_v, node_name)
        .receive([&](const std::string& part) { if (!part.empty()) parts.push_back(part); },
                 [&](caf::error& e) { error = "node partition did not answer: " + caf::to_string(e); });
  if (!error.empty()) return json_reply(503, ds::gpushare_inspect_json({}, error));
  if (!node_name.empty() && parts.empty())
    return json_reply(404, ds::gpushare_inspect_json({}, "node \"" + node_name + "\" not found"));
  return json_reply(200, ds::gpushare_inspect_json(parts, ""));
}

HttpReply ExtenderService::bind(const std::shared_ptr<const plugins::Framework>& framework, const std::string& body) {
  auto args = parse_extender_binding_args(body);
  if (!args) return json_reply(500, extender_binding_result_json(args.message()));
  auto fail = [](const std::string& message) { return json_reply(500, extender_binding_result_json(message)); };

  // The pod as the API server has it now (the scheduler only sends its name).
  auto fetched = watch::get_object(*deps_.api, "/api/v1/namespaces/" + args->pod_namespace + "/pods/" + args->pod_name);
  if (!fetched.ok) return fail("cannot read pod " + args->pod_namespace + "/" + args->pod_name + ": " + fetched.message);
  auto decoded = decode_pod_json(fetched.body);
  if (!decoded) return fail("pod " + args->pod_namespace + "/" + args->pod_name + ": " + decoded.message());
  if (!args->pod_uid.empty() && decoded->meta.uid != args->pod_uid)
    return fail("pod " + args->pod_namespace + "/" + args->pod_name + " has uid " + decoded->meta.uid + ", not " +
                args->pod_uid);
  auto pod = plugins::PodInfo::make(std::move(*decoded));

  auto request = std::make_shared<CycleRequest>();
  request->framework = framework;
  request->pod = pod;
  request->state = framework->new_cycle_state();
  share_learned(framework, pod, /*count=*/false, *request->state);
  auto pre = framework->run_pre_filter(*request->state, *pod);
  if (!pre.ok() && !pre.is_skip()) return fail(pre.message());

  const node_actor& owner = deps_.nodes[partition_of(args->node, deps_.nodes.size())];
  caf::scoped_actor self{*deps_.system};
  std::string error;
  self->request(owner, kActorTimeout, atom::reserve_v, CycleRequestPtr(request), args->node)
      .receive([&](const ReserveOutcome& r) { if (!r.ok) error = r.message.empty() ? "reserve failed" : r.message; },
               [&](caf::error& e) { error = "node partition did not answer: " + caf::to_string(e); });
  if (!error.empty()) return fail(error);
  auto unreserve = [&] { self->send(owner, atom::unreserve_v, CycleRequestPtr(request), args->node); };

  plugins::BindingChanges changes;
  auto pre_bind = framework->run_pre_bind(*request->state, *pod, args->node, changes);
  if (!pre_bind.ok()) {
    unreserve();
    return fail(pre_bind.message());
  }
  auto job = std::make_shared<BindJob>();
  job->ns = pod->meta().namespace_name;
  job->name = pod->meta().name;
  job->uid = pod->meta().uid;
  job->node = args->node;
  job->profile = pod->spec().scheduler_name;
  job->annotations = std::move(changes.annotations);
  job->pod_patches = std::move(changes.pod_patches);
  job->patch_before_binding = changes.patch_before_binding;
  WriteOutcome outcome;
  self->request(deps_.writer, kBindTimeout, atom::bind_v, BindJobPtr(job))
      .receive([&](const WriteOutcome& o) { outcome = o; },
               [&](caf::error& e) { outcome = WriteOutcome{false, 0, caf::to_string(e), {}}; });
  if (!outcome.ok) {
    unreserve();
    return fail("binding " + job->ns + "/" + job->name + " to " + job->node + ": " + outcome.message);
  }
  spdlog::info("extender bound {}/{} to {}", job->ns, job->name, job->node);
  return json_reply(200, extender_binding_result_json(""));
}

}  // namespace troupe::actors
