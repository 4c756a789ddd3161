// troupe: one binary, several jobs (see docs/architecture in ../shared and README.md).
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "cmd/commands.hpp"
#include "cmd/malloc_settings.hpp"

namespace {

using troupe::cmd::Command;

// Add a line here when a subcommand is added.
const Command kCommands[] = {
    {"version", troupe::cmd::run_version, "print the troupe version"},
    {"apiserver", troupe::cmd::run_apiserver, "serve an in-memory Kubernetes-compatible API"},
    {"scheduler", troupe::cmd::run_scheduler, "run the secondary scheduler"},
    {"demo", troupe::cmd::run_demo, "start the API server with a sample cluster and show it"},
    {"bench-apiserver", troupe::cmd::run_bench_apiserver, "measure the embedded API server's creates/bindings/watch rates"},
    {"bench", troupe::cmd::run_bench, "measure placement throughput, latency and memory on a synthetic cluster"},
    {"replay", troupe::cmd::run_replay, "replay the openb GPU trace through the scheduler (GPU allocation ratio)"},
    {"bench-deschedule", troupe::cmd::run_bench_deschedule, "time one LowNodeLoad descheduling plan on N synthetic nodes"},
};

void print_usage() {
  std::printf("Usage: troupe <command> [flags]\n\nCommands:\n");
  for (const auto& c : kCommands) std::printf("  %-12s %s\n", c.name, c.summary);
  std::printf("\nRun 'troupe <command> --help' for the flags of a command.\n");
}

}  // namespace

int main(int argc, char** argv) {
  troupe::cmd::apply_malloc_settings();
  // A peer closing a connection must be an error on that connection, never the end of the process.
  std::signal(SIGPIPE, SIG_IGN);
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    print_usage();
    return argc < 2 ? 2 : 0;
  }
  for (const auto& c : kCommands)
    if (std::strcmp(argv[1], c.name) == 0) return c.run(argc - 1, argv + 1);
  std::fprintf(stderr, "troupe: unknown command '%s'\n\n", argv[1]);
  print_usage();
  return 2;
}
