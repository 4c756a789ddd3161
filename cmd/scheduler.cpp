// `troupe scheduler`: the secondary scheduler (see actors/scheduler_runtime.hpp).
#include <csignal>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "actors/scheduler_runtime.hpp"
#include "cmd/commands.hpp"
#include "cmd/flags.hpp"
#include "config/feature_gates.hpp"
#include "plugins/registry.hpp"

namespace troupe::cmd {

namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

const std::vector<FlagSpec> kFlags = {
    {"config", true, "KubeSchedulerConfiguration file (default: one profile 'troupe-scheduler', every plugin)"},
    {"kubeconfig", true, "kubeconfig file (default: $KUBECONFIG, in-cluster, then ~/.kube/config)"},
    {"metrics-bind-address", true, "address for /metrics, /healthz, /readyz (default: troupe.bindAddress of the config, 0.0.0.0:10259)"},
    {"extender-bind-address", true,
     "serve the scheduler-extender verbs (/gpushare-scheduler/*, /deviceshare/*) at HOST:PORT for a stock kube-scheduler (default: off)"},
    {"descheduler-config", true,
     "DeschedulerConfiguration file: LowNodeLoad balancing, dryRun, limits (default: only execute PodMigrationJobs)"},
    {"leader-elect", true, "override leaderElection.leaderElect (true/false)"},
    {"feature-gates", true,
     "Name=true|false,... as koord-scheduler's: DevicePluginAdaption sets DeviceShare's devicePluginAdaption where a "
     "profile leaves it unset; other gates are ignored with a warning"},
    {"log-level", true, "trace, debug, info, warn, error (default info)"},
    {"help", false, "show this help"},
};

/// --log-level: one of spdlog's names (an unknown one would silently turn logging off).
Result<spdlog::level::level_enum> log_level(const Flags& flags) {
  const std::string name = flags.get("log-level", "info");
  for (const char* known : {"trace", "debug", "info", "warn", "warning", "error", "err", "critical", "off"})
    if (name == known) return spdlog::level::from_str(name);
  return Error{"--log-level: unknown level \"" + name + "\" (trace, debug, info, warn, error, critical, off)"};
}

/// --leader-elect: true or false, nothing else.
Result<std::optional<bool>> leader_elect(const Flags& flags) {
  if (!flags.has("leader-elect")) return std::optional<bool>{};
  const std::string value = flags.get("leader-elect");
  if (value == "true" || value == "false") return std::optional<bool>{value == "true"};
  return Error{"--leader-elect: must be true or false, got \"" + value + "\""};
}

Result<config::SchedulerConfiguration> load_config(const Flags& flags) {
  if (flags.has("config")) return plugins::load_scheduler_configuration(flags.get("config"));
  return plugins::parse_scheduler_configuration(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
}

/// --descheduler-config FILE, or nullptr when not given.
Result<std::shared_ptr<const config::DeschedulerConfiguration>> load_descheduler_config(const Flags& flags) {
  if (!flags.has("descheduler-config")) return std::shared_ptr<const config::DeschedulerConfiguration>{};
  const std::string path = flags.get("descheduler-config");
  std::ifstream file(path);
  if (!file) return Error{path + ": cannot read the file"};
  std::stringstream text;
  text << file.rdbuf();
  auto parsed = config::load_descheduler_configuration(text.str());
  if (!parsed) return Error{path + ": " + parsed.message()};
  return std::shared_ptr<const config::DeschedulerConfiguration>(
      std::make_shared<config::DeschedulerConfiguration>(std::move(*parsed)));
}

}  // namespace

int run_scheduler(int argc, char** argv) {
  auto flags = Flags::parse(argc, argv, 1, kFlags);
  if (!flags) {
    std::fprintf(stderr, "troupe scheduler: %s\n", flags.message().c_str());
    return 2;
  }
  if (flags->has("help")) {
    std::printf("%s", Flags::usage("scheduler", "Run the secondary scheduler.", kFlags).c_str());
    return 0;
  }
  auto level = log_level(*flags);
  auto elect = leader_elect(*flags);
  if (!level || !elect) {
    std::fprintf(stderr, "troupe scheduler: %s\n", (!level ? level.message() : elect.message()).c_str());
    return 2;
  }
  // stdout carries the "running" line only: a parent that reads it need not drain a log.
  spdlog::set_default_logger(spdlog::stderr_color_mt("scheduler"));
  spdlog::set_level(*level);

  auto config = load_config(*flags);
  if (!config) {
    std::fprintf(stderr, "troupe scheduler: invalid configuration: %s\n", config.message().c_str());
    return 2;
  }
  auto gates = config::parse_feature_gates(flags->get("feature-gates", ""));
  if (!gates) {
    std::fprintf(stderr, "troupe scheduler: %s\n", gates.message().c_str());
    return 2;
  }
  for (const auto& warning : config::apply_feature_gates(*config, *gates)) spdlog::warn("{}", warning);
  auto descheduler = load_descheduler_config(*flags);
  if (!descheduler) {
    std::fprintf(stderr, "troupe scheduler: invalid descheduler configuration: %s\n", descheduler.message().c_str());
    return 2;
  }
  if (*elect) {
    if (auto checked = config::apply_leader_elect_flag(*config, **elect); !checked) {
      std::fprintf(stderr, "troupe scheduler: --leader-elect=true: invalid configuration: %s\n",
                   checked.message().c_str());
      return 2;
    }
  }
  std::string kubeconfig = flags->get("kubeconfig", config->client_connection.kubeconfig);
  auto cluster = watch::resolve_config(kubeconfig);
  if (!cluster) {
    std::fprintf(stderr, "troupe scheduler: %s\n", cluster.message().c_str());
    return 2;
  }

  actors::SchedulerOptions options;
  options.config = std::move(*config);
  options.cluster = std::move(*cluster);
  options.metrics_address = flags->get("metrics-bind-address", options.config.troupe.bind_address);
  options.extender_address = flags->get("extender-bind-address", "");
  options.descheduler = std::move(*descheduler);
  auto runtime = actors::SchedulerRuntime::start(std::move(options));
  if (!runtime) {
    std::fprintf(stderr, "troupe scheduler: %s\n", runtime.message().c_str());
    return 1;
  }
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  if ((*runtime)->extender_port() != 0)
    std::printf("troupe scheduler extender on port %u\n", (*runtime)->extender_port());
  std::printf("troupe scheduler running; metrics on port %u\n", (*runtime)->metrics_port());
  std::fflush(stdout);
  while (!g_stop && (*runtime)->healthy()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::string problem = (*runtime)->health_problem();
  (*runtime)->stop();
  if (!problem.empty()) {
    std::fprintf(stderr, "troupe scheduler: %s, exiting\n", problem.c_str());
    return 1;
  }
  return 0;
}

}  // namespace troupe::cmd
