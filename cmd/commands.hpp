#pragma once
// The subcommands of the one `troupe` executable. Each lives in its own file
// in cmd/ and is listed in the table in cmd/main.cpp.

namespace troupe::cmd {

/// argv[0] is the subcommand's own name; flags follow.
using CommandMain = int (*)(int argc, char** argv);

struct Command {
  const char* name;
  CommandMain run;
  const char* summary;
};

int run_version(int argc, char** argv);
int run_apiserver(int argc, char** argv);
int run_demo(int argc, char** argv);
int run_bench_apiserver(int argc, char** argv);
int run_scheduler(int argc, char** argv);
int run_bench(int argc, char** argv);
int run_replay(int argc, char** argv);
int run_bench_deschedule(int argc, char** argv);

}  // namespace troupe::cmd
