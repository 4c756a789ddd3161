// troupe apiserver: the embedded, in-memory, Kubernetes-compatible API server.
#include <csignal>
#include <cstdio>
#include <string>

#include <pthread.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "cmd/commands.hpp"
#include "cmd/flags.hpp"
#include "model/go_duration.hpp"
#include "sim/api_server.hpp"
#include "sim/loader.hpp"
#include "sim/simulated_usage.hpp"

namespace troupe::cmd {

namespace {

const char* kSummary =
    "Serves an in-memory Kubernetes API (core pods/nodes/namespaces/events/configmaps, bindings, evictions,\n"
    "leases, PodDisruptionBudgets, ReplicaSets and the Koordinator, NodeResourceTopology and scheduler-plugins\n"
    "CRDs) that kubectl and client libraries can use. Prints the URL on stdout once ready; stops on\n"
    "SIGINT/SIGTERM. Nothing is persisted.\n"
    "\n"
    "With --node-metrics-interval it also plays Koordinator's koordlet: every interval it writes, for every\n"
    "Node, a NodeMetric (slo.koordinator.sh/v1alpha1) named after it, for LowNodeLoad and LoadAwareScheduling.\n"
    "A pod bound to the node (and not Succeeded/Failed) uses its cpu/memory requests times its annotation\n"
    "sim.troupe.dev/usage-ratio (e.g. \"0.9\"; 0-100; default --node-metrics-usage-ratio); the node's annotation\n"
    "sim.troupe.dev/base-usage ('{\"cpu\":\"500m\",\"memory\":\"1Gi\"}') adds usage outside its pods (systemUsage).\n"
    "A malformed annotation is logged and ignored (the pod runs at the default ratio; no base usage).";

std::vector<FlagSpec> specs() {
  return {
      {"listen", true, "HOST:PORT to listen on (default 127.0.0.1:0: a free port)"},
      {"write-kubeconfig", true, "write a kubeconfig for this server to FILE once it is ready"},
      {"tls", false, "serve HTTPS with a self-signed CA generated at start (its CA goes into the kubeconfig)"},
      {"token", true, "require 'Authorization: Bearer T' on every request but health checks (401 otherwise)"},
      {"load", true, "create the objects in a YAML/JSON FILE or every such file in DIR (repeatable)"},
      {"threads", true, "HTTP worker threads (default 2)"},
      {"history", true, "events kept for watch resume, over all resources; a resource resumes until one of its own events is dropped (default 50000)"},
      {"watch-queue", true, "events a watcher may fall behind before it is cut off with 410 (default 50000)"},
      {"bookmark-interval", true, "seconds between the BOOKMARKs of a watch that allows them (default 60)"},
      {"max-body", true, "largest request body in bytes (default 3145728; larger gets 413)"},
      {"node-metrics-interval", true, "act as a fake koordlet: write a NodeMetric per Node every DURATION, e.g. 5s (default: off)"},
      {"node-metrics-usage-ratio", true, "usage ratio of pods without the annotation (default 1)"},
      {"help", false, "show this help"},
  };
}

Result<std::pair<std::string, uint16_t>> parse_listen(const std::string& text) {
  auto colon = text.rfind(':');
  if (colon == std::string::npos) return Error{"--listen " + text + ": expected HOST:PORT, e.g. 127.0.0.1:6443"};
  std::string host = text.substr(0, colon);
  std::string port = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) host = "0.0.0.0";
  char* end = nullptr;
  unsigned long value = std::strtoul(port.c_str(), &end, 10);
  if (port.empty() || *end != '\0' || value > 65535) return Error{"--listen " + text + ": the port must be 0-65535"};
  return std::make_pair(host, static_cast<uint16_t>(value));
}

/// --node-metrics-interval and --node-metrics-usage-ratio.
Result<sim::FakeKoordletOptions> koordlet_options(const Flags& flags) {
  sim::FakeKoordletOptions options;
  if (flags.has("node-metrics-interval")) {
    std::string text = flags.get("node-metrics-interval");
    auto interval = parse_go_duration(text);
    if (!interval) return Error{"--node-metrics-interval " + text + ": " + interval.message()};
    options.interval = std::chrono::duration_cast<std::chrono::milliseconds>(*interval);
    if (options.interval.count() <= 0)
      return Error{"--node-metrics-interval " + text + ": must be at least 1ms"};
  }
  if (flags.has("node-metrics-usage-ratio")) {
    auto ratio = sim::parse_usage_ratio(flags.get("node-metrics-usage-ratio"));
    if (!ratio) return Error{"--node-metrics-usage-ratio: " + ratio.message()};
    if (options.interval.count() == 0) return Error{"--node-metrics-usage-ratio needs --node-metrics-interval"};
    options.default_usage_ratio = *ratio;
  }
  return options;
}

}  // namespace

int run_apiserver(int argc, char** argv) {
  auto parsed = Flags::parse(argc, argv, 1, specs());
  if (!parsed.ok()) {
    std::fprintf(stderr, "troupe apiserver: %s\n\n%s", parsed.message().c_str(),
                 Flags::usage("apiserver", kSummary, specs()).c_str());
    return 2;
  }
  const Flags& flags = parsed.value();
  if (flags.has("help")) {
    std::printf("%s", Flags::usage("apiserver", kSummary, specs()).c_str());
    return 0;
  }
  sim::ApiServerOptions options;
  auto listen = parse_listen(flags.get("listen", "127.0.0.1:0"));
  auto threads = flags.get_count("threads", options.threads, 1);
  auto history = flags.get_count("history", options.store.history_capacity, 1);
  auto queue = flags.get_count("watch-queue", options.store.watch_queue_limit, 1);
  auto max_body = flags.get_count("max-body", options.max_body_bytes, 1);
  auto bookmarks = flags.get_count("bookmark-interval", 60, 1);
  for (const auto* r : {&threads, &history, &queue, &max_body, &bookmarks}) {
    if (!r->ok()) {
      std::fprintf(stderr, "troupe apiserver: %s\n", r->message().c_str());
      return 2;
    }
  }
  if (!listen.ok()) {
    std::fprintf(stderr, "troupe apiserver: %s\n", listen.message().c_str());
    return 2;
  }
  auto koordlet = koordlet_options(flags);
  if (!koordlet.ok()) {
    std::fprintf(stderr, "troupe apiserver: %s\n", koordlet.message().c_str());
    return 2;
  }
  options.koordlet = koordlet.value();
  // stdout carries the URL (and nothing else: a client may never drain it).
  spdlog::set_default_logger(spdlog::stderr_color_mt("apiserver"));
  options.host = listen->first;
  options.port = listen->second;
  options.tls = flags.has("tls");
  options.token = flags.get("token");
  options.threads = threads.value();
  options.store.history_capacity = history.value();
  options.store.watch_queue_limit = queue.value();
  options.max_body_bytes = max_body.value();
  options.bookmark_interval = std::chrono::seconds(bookmarks.value());

  // The worker threads inherit a mask without SIGINT/SIGTERM; this thread waits for them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  sim::ApiServer server(options);
  for (const auto& path : flags.get_all("load")) {
    auto loaded = sim::load_path(server.handler(), path);
    if (!loaded.ok()) {
      std::fprintf(stderr, "troupe apiserver: %s\n", loaded.message().c_str());
      return 1;
    }
    std::fprintf(stderr, "troupe apiserver: loaded %zu objects from %s\n", loaded.value(), path.c_str());
  }
  Status started = server.start();
  if (!started.ok()) {
    std::fprintf(stderr, "troupe apiserver: %s\n", started.message().c_str());
    return 1;
  }
  if (flags.has("write-kubeconfig")) {
    Status written = server.write_kubeconfig(flags.get("write-kubeconfig"));
    if (!written.ok()) {
      std::fprintf(stderr, "troupe apiserver: %s\n", written.message().c_str());
      return 1;
    }
  }
  std::printf("%s\n", server.url().c_str());
  std::fflush(stdout);

  int received = 0;
  sigwait(&signals, &received);
  std::fprintf(stderr, "troupe apiserver: %s received, shutting down\n", received == SIGINT ? "SIGINT" : "SIGTERM");
  server.stop();
  return 0;
}

}  // namespace troupe::cmd
