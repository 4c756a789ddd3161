// troupe demo: starts the embedded API server with the sample cluster and
// prints the cluster; with --serve it keeps serving for kubectl.
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include <pthread.h>
#include <rapidjson/document.h>

#include "cmd/commands.hpp"
#include "cmd/demo_scheduling.hpp"
#include "cmd/flags.hpp"
#include "sim/api_server.hpp"
#include "sim/sample_cluster.hpp"

namespace troupe::cmd {

namespace {

const char* kSummary =
    "Starts the embedded API server with a small heterogeneous sample cluster (CPU, A100 and T4 nodes with\n"
    "Koordinator Devices and NUMA topology, a team namespace, running and pending pods) and prints it.";

std::vector<FlagSpec> demo_specs() {
  return {
      {"serve", false, "keep serving after printing (stop with Ctrl-C)"},
      {"listen", true, "HOST:PORT for the API server (default 127.0.0.1:0)"},
      {"write-kubeconfig", true, "write a kubeconfig for the server to FILE"},
      {"help", false, "show this help"},
  };
}

using Table = std::vector<std::vector<std::string>>;

void print_table(const Table& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      widths[i] = std::max(widths[i], row[i].size());
    }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 3, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
}

std::string str(const rapidjson::Value& v, std::initializer_list<const char*> path) {
  const rapidjson::Value* at = &v;
  for (const char* key : path) {
    if (!at->IsObject()) return "";
    auto it = at->FindMember(key);
    if (it == at->MemberEnd()) return "";
    at = &it->value;
  }
  return at->IsString() ? at->GetString() : "";
}

// Labels other than the well-known kubernetes.io ones, "k=v,k=v".
std::string interesting_labels(const rapidjson::Value& obj) {
  std::string out;
  auto meta = obj.FindMember("metadata");
  if (meta == obj.MemberEnd() || !meta->value.HasMember("labels")) return "";
  for (const auto& l : meta->value["labels"].GetObject()) {
    std::string key = l.name.GetString();
    // Well-known labels, and GPU labels the GPUS column already shows.
    if (key.find("kubernetes.io/") != std::string::npos || key.rfind("node.koordinator.sh/gpu-", 0) == 0) continue;
    if (!out.empty()) out += ",";
    out += key + "=" + (l.value.IsString() ? l.value.GetString() : "");
  }
  return out.empty() ? "<none>" : out;
}

std::string taints(const rapidjson::Value& node) {
  std::string out;
  auto spec = node.FindMember("spec");
  if (spec == node.MemberEnd() || !spec->value.HasMember("taints") || !spec->value["taints"].IsArray()) return "<none>";
  for (const auto& t : spec->value["taints"].GetArray()) {
    if (!out.empty()) out += ",";
    out += str(t, {"key"}) + "=" + str(t, {"value"}) + ":" + str(t, {"effect"});
  }
  return out.empty() ? "<none>" : out;
}

void print_cluster(sim::ObjectStore& store) {
  const auto& reg = store.registry();
  Table nodes = {{"NODE", "CPU", "MEMORY", "GPUS", "LABELS", "TAINTS"}};
  for (const auto& o : store.list(*reg.find("", "v1", "nodes"), {}).items) {
    rapidjson::Document d;
    d.Parse(o->json.c_str());
    std::string gpus = str(d, {"status", "allocatable", "nvidia.com/gpu"});
    std::string model = str(d, {"metadata", "labels", "node.koordinator.sh/gpu-model"});
    nodes.push_back({o->name, str(d, {"status", "allocatable", "cpu"}), str(d, {"status", "allocatable", "memory"}),
                     gpus.empty() ? "-" : gpus + " x " + (model.empty() ? "gpu" : model), interesting_labels(d),
                     taints(d)});
  }
  print_table(nodes);
  std::printf("\n");
  Table pods = {{"NAMESPACE", "POD", "NODE", "PHASE", "SCHEDULER"}};
  for (const auto& o : store.list(*reg.find("", "v1", "pods"), {}).items) {
    rapidjson::Document d;
    d.Parse(o->json.c_str());
    std::string node = str(d, {"spec", "nodeName"});
    pods.push_back({o->ns, o->name, node.empty() ? "<pending>" : node, str(d, {"status", "phase"}),
                    str(d, {"spec", "schedulerName"})});
  }
  print_table(pods);
  std::printf("\n%zu devices, %zu node resource topologies, %zu pod groups, %zu elastic quotas\n",
              store.object_count(*reg.find("scheduling.koordinator.sh", "v1alpha1", "devices")),
              store.object_count(*reg.find("topology.node.k8s.io", "v1alpha2", "noderesourcetopologies")),
              store.object_count(*reg.find("scheduling.sigs.k8s.io", "v1alpha1", "podgroups")),
              store.object_count(*reg.find("scheduling.sigs.k8s.io", "v1alpha1", "elasticquotas")));
}

}  // namespace

int run_demo(int argc, char** argv) {
  auto parsed = Flags::parse(argc, argv, 1, demo_specs());
  if (!parsed.ok()) {
    std::fprintf(stderr, "troupe demo: %s\n\n%s", parsed.message().c_str(),
                 Flags::usage("demo", kSummary, demo_specs()).c_str());
    return 2;
  }
  const Flags& flags = parsed.value();
  if (flags.has("help")) {
    std::printf("%s", Flags::usage("demo", kSummary, demo_specs()).c_str());
    return 0;
  }
  sim::ApiServerOptions options;
  std::string listen = flags.get("listen", "127.0.0.1:0");
  auto colon = listen.rfind(':');
  char* end = nullptr;
  unsigned long port = colon == std::string::npos ? 70000 : std::strtoul(listen.c_str() + colon + 1, &end, 10);
  if (colon == std::string::npos || port > 65535 || *end != '\0') {
    std::fprintf(stderr, "troupe demo: --listen %s: expected HOST:PORT\n", listen.c_str());
    return 2;
  }
  options.host = listen.substr(0, colon);
  options.port = static_cast<uint16_t>(port);

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  sim::ApiServer server(options);
  auto loaded = sim::load_sample_cluster(server.handler());
  if (!loaded.ok()) {
    std::fprintf(stderr, "troupe demo: %s\n", loaded.message().c_str());
    return 1;
  }
  Status started = server.start();
  if (!started.ok()) {
    std::fprintf(stderr, "troupe demo: %s\n", started.message().c_str());
    return 1;
  }
  if (flags.has("write-kubeconfig")) {
    Status written = server.write_kubeconfig(flags.get("write-kubeconfig"));
    if (!written.ok()) {
      std::fprintf(stderr, "troupe demo: %s\n", written.message().c_str());
      return 1;
    }
  }
  std::printf("API server: %s (%zu sample objects)\n\n", server.url().c_str(), loaded.value());
  print_cluster(server.store());
  std::fflush(stdout);
  int scheduled = run_scheduling_demo(server);
  std::fflush(stdout);
  if (flags.has("serve")) {
    std::printf("\nserving; try: kubectl --server %s get nodes   (Ctrl-C to stop)\n", server.url().c_str());
    std::fflush(stdout);
    int received = 0;
    sigwait(&signals, &received);
  }
  server.stop();
  return scheduled;
}

}  // namespace troupe::cmd
