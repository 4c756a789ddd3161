#include <catch2/catch.hpp>

#include "sim/trace/csv_table.hpp"
#include "sim/trace/openb_trace.hpp"

using namespace troupe::sim::trace;

namespace {

const char* kPodHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";

}  // namespace

TEST_CASE("trace pods: well-formed rows", "[trace][csv]") {
  const std::string csv = std::string(kPodHeader) +
                          "openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0\r\n"
                          "openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061\n"
                          "\n"
                          "openb-pod-0002,88000,327680,8,1000,V100M32|V100M32||G2,LS,Running,1,2,3\n"
                          "openb-pod-0003,12500,0,0,0,T4,BE,Running,1,2,3\n"
                          "openb-pod-0004,3000,100,1,1500,,BE,Running,1,2,3\n"
                          "openb-pod-0005,3000,100,0,300,,BE,Running,1,2,3\n";
  auto pods = parse_trace_pods(csv, "pods.csv");
  REQUIRE(pods.ok());
  REQUIRE(pods->size() == 6);
  struct Expect {
    const char* name;
    int64_t cpu, memory;
    int32_t num_gpu, gpu_milli;
    std::string spec;
    bool shares, cpu_only;
    int64_t total;
  };
  const std::vector<Expect> expected = {
      {"openb-pod-0000", 12000, 16384, 1, 1000, "", false, false, 1000},
      {"openb-pod-0001", 6000, 12288, 1, 460, "", true, false, 460},
      {"openb-pod-0002", 88000, 327680, 8, 1000, "V100M32|G2", false, false, 8000},  // repeats and empties dropped
      {"openb-pod-0003", 12500, 0, 0, 0, "", false, true, 0},                       // CPU-only: spec not read
      {"openb-pod-0004", 3000, 100, 1, 1000, "", false, false, 1000},               // > 1000 read as a whole GPU
      {"openb-pod-0005", 3000, 100, 0, 0, "", false, true, 0},                      // gpu_milli without GPUs ignored
  };
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& e = expected[i];
    const auto& p = (*pods)[i];
    INFO(e.name);
    CHECK(p.name == e.name);
    CHECK(p.cpu_milli == e.cpu);
    CHECK(p.memory_mib == e.memory);
    CHECK(p.num_gpu == e.num_gpu);
    CHECK(p.gpu_milli == e.gpu_milli);
    CHECK(p.gpu_spec_text() == e.spec);
    CHECK(p.shares_gpu() == e.shares);
    CHECK(p.cpu_only() == e.cpu_only);
    CHECK(p.total_gpu_milli() == e.total);
  }
}

TEST_CASE("trace pods: the five-column multigpu form has no gpu_spec", "[trace][csv]") {
  auto pods = parse_trace_pods("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,2,2,1000\n", "multi.csv");
  REQUIRE(pods.ok());
  CHECK((*pods)[0].gpu_spec.empty());
  CHECK((*pods)[0].total_gpu_milli() == 2000);
}

TEST_CASE("trace pods: malformed input names file, line and column", "[trace][csv]") {
  const std::string h = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n";
  struct Case {
    std::string csv;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"", "pods.csv: empty file, expected a header row"},
      {"\n\n", "pods.csv: empty file"},
      {"name,cpu_milli,memory_mib,num_gpu\np,1,2,0\n", "pods.csv:1: missing column 'gpu_milli'"},
      {h + "p,1,2,0,0\n", "pods.csv:2: expected 6 fields (6 columns in the header), got 5"},
      {h + "p,1,2,0,0,,extra\n", "pods.csv:2: expected 6 fields"},
      {h + "a,1,2,0,0,\n\nb,x,2,0,0,\n", "pods.csv:4: column cpu_milli: 'x' is not an integer"},
      {h + "p,1,,0,0,\n", "pods.csv:2: column memory_mib: '' is not an integer"},
      {h + "p,1.5,2,0,0,\n", "column cpu_milli: '1.5' is not an integer"},
      {h + "p,99999999999999999999,2,0,0,\n", "column cpu_milli: '99999999999999999999' is not an integer"},
      {h + "p,-1,2,0,0,\n", "pods.csv:2: column cpu_milli: -1 is negative"},
      {h + "p,1,2,-1,0,\n", "column num_gpu: -1 is negative"},
      {h + "p,1,2,2000,1000,\n", "column num_gpu: 2000 is too large (at most 1024)"},
      {h + "p,1,2,1,-5,\n", "column gpu_milli: -5 is negative"},
      {h + "p,1,2,1,0,\n", "pods.csv:2: num_gpu 1 with gpu_milli 0"},
      {h + "p,1,2,2,500,\n", "pods.csv:2: num_gpu 2 with gpu_milli 500: a multi-GPU task must use whole GPUs"},
      {h + ",1,2,0,0,\n", "pods.csv:2: empty name"},
      {h + "p,1,2,0,0,\nq,1,2,0,0,\np,1,2,0,0,\n", "pods.csv:4: repeated name 'p'"},
  };
  for (const auto& c : cases) {
    INFO(c.csv);
    auto pods = parse_trace_pods(c.csv, "pods.csv");
    REQUIRE_FALSE(pods.ok());
    CHECK_THAT(pods.message(), Catch::StartsWith("pods.csv") && Catch::Contains(c.error));
  }
}

TEST_CASE("trace nodes: rows, errors and the GPU cluster", "[trace][csv]") {
  const std::string csv =
      "sn,cpu_milli,memory_mib,gpu,model\n"
      "openb-node-0000,32000,262144,0,\n"
      "openb-node-0001,96000,393216,8,G2\n"
      "openb-node-0002,104000,524288,2,T4\n";
  auto nodes = parse_trace_nodes(csv, "nodes.csv");
  REQUIRE(nodes.ok());
  REQUIRE(nodes->size() == 3);
  CHECK((*nodes)[1].name == "openb-node-0001");
  CHECK((*nodes)[1].cpu_milli == 96000);
  CHECK((*nodes)[1].memory_mib == 393216);
  CHECK((*nodes)[1].gpu_count == 8);
  CHECK((*nodes)[1].model == "G2");
  CHECK((*nodes)[0].model.empty());
  CHECK(cluster_gpu_milli(*nodes) == 10000);
  auto gpu = gpu_nodes_only(*nodes);
  REQUIRE(gpu.size() == 2);
  CHECK(gpu[0].name == "openb-node-0001");

  struct Case {
    std::string csv;
    const char* error;
  };
  const std::string h = "sn,cpu_milli,memory_mib,gpu,model\n";
  const std::vector<Case> cases = {
      {"sn,cpu_milli,memory_mib,gpu\nn,1,1,0\n", "nodes.csv:1: missing column 'model'"},
      {h + "n,1,1,0\n", "nodes.csv:2: expected 5 fields"},
      {h + "n,1,1,x,\n", "nodes.csv:2: column gpu: 'x' is not an integer"},
      {h + "n,1,-1,0,\n", "nodes.csv:2: column memory_mib: -1 is negative"},
      {h + "n,1,1,0,\nn,1,1,0,\n", "nodes.csv:3: repeated name 'n'"},
  };
  for (const auto& c : cases) {
    INFO(c.csv);
    auto parsed = parse_trace_nodes(c.csv, "nodes.csv");
    REQUIRE_FALSE(parsed.ok());
    CHECK_THAT(parsed.message(), Catch::Contains(c.error));
  }
}

TEST_CASE("trace files: missing file and the shipped traces", "[trace][csv]") {
  auto missing = load_trace_pods("/nonexistent/pods.csv");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.message(), Catch::StartsWith("/nonexistent/pods.csv: cannot open"));

  // The data folder beside the repository (shared/data), when present.
  const std::string dir = std::string(TROUPE_SOURCE_DIR) + "/../shared/data/openb-gpu-2023/";
  auto nodes = load_trace_nodes(dir + "openb_node_list_gpu_node.csv");
  if (!nodes.ok()) {
    WARN("trace data not found: " << nodes.message());
    return;
  }
  CHECK(nodes->size() == 1213);
  CHECK(cluster_gpu_milli(*nodes) == 6212000);
  auto pods = load_trace_pods(dir + "openb_pod_list_default.csv");
  REQUIRE(pods.ok());
  CHECK(pods->size() == 8152);
  size_t shared = 0;
  int64_t total = 0;
  for (const auto& p : *pods) {
    shared += p.shares_gpu() ? 1 : 0;
    total += p.total_gpu_milli();
  }
  CHECK(shared == 3078);                       // fgd-method.md §2.2 trace summary
  CHECK(total == Approx(0.9798 * 6212000).epsilon(0.0001));
}

TEST_CASE("trace files: mutated input never crashes and errors name the file", "[trace][csv]") {
  const std::string valid = std::string(kPodHeader) +
                            "openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0\n"
                            "openb-pod-0001,6000,12288,1,460,V100M16|T4,LS,Running,427061,12902960,427061\n"
                            "openb-pod-0002,88000,327680,8,1000,,LS,Running,1,2,3\n";
  const std::string alphabet = ",|\n\r-0123456789ax ";
  uint64_t state = 20240601;
  auto next = [&state] {  // xorshift: a fixed, seeded sequence of mutations
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  size_t parsed = 0, rejected = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text = valid;
    const int edits = 1 + static_cast<int>(next() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = next() % text.size();
      switch (next() % 3) {
        case 0: text[at] = alphabet[next() % alphabet.size()]; break;
        case 1: text.erase(at, 1 + next() % 8); break;
        default: text.insert(at, 1, alphabet[next() % alphabet.size()]); break;
      }
    }
    auto pods = parse_trace_pods(text, "fuzz.csv");
    if (pods.ok()) {
      ++parsed;
      for (const auto& p : *pods) {
        CHECK(p.cpu_milli >= 0);
        CHECK((p.cpu_only() ? p.gpu_milli == 0 : (p.gpu_milli > 0 && p.gpu_milli <= 1000)));
      }
    } else {
      ++rejected;
      CHECK_THAT(pods.message(), Catch::StartsWith("fuzz.csv"));
    }
  }
  // Both outcomes occur: the mutations are neither all harmless nor all fatal.
  CHECK(parsed > 0);
  CHECK(rejected > 0);
}
