#include <cstdio>

#include "cmd/commands.hpp"

namespace troupe::cmd {

int run_version(int, char**) {
  std::printf("troupe 0.1.0 (C++17, CAF 0.17)\n");
  return 0;
}

}  // namespace troupe::cmd
