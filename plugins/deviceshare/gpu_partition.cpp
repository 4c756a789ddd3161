#include "plugins/deviceshare/gpu_partition.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "model/json.hpp"
#include "plugins/deviceshare/go_json.hpp"

namespace troupe::plugins::deviceshare {

namespace {

MinorMask hash_minors(const std::vector<int32_t>& minors) {
  MinorMask mask = 0;
  for (int32_t m : minors) mask |= minor_bit(m);
  return mask;
}

Result<int64_t> parse_int_key(std::string_view key) {
  std::string text(key);
  if (text.empty()) return Error{"key \"\" is not an integer"};
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size() || text[0] == ' ' || text[0] == '+')
    return Error{"key " + go_json_string(key) + " is not an integer"};
  return static_cast<int64_t>(v);
}

Status decode_partition(const JsonValue& v, const std::string& path, GpuPartition& out) {
  if (!v.IsObject()) return Error{path + ": expected an object, got " + describe_json(v)};
  for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
    const std::string_view key = member_name(m->name);
    const JsonValue& value = m->value;
    if (value.IsNull()) continue;
    const std::string field = path + "." + std::string(key);
    if (equals_fold(key, "minors")) {
      if (!value.IsArray()) return Error{field + ": expected an array, got " + describe_json(value)};
      out.minors.clear();
      for (rapidjson::SizeType i = 0; i < value.Size(); ++i) {
        if (!value[i].IsInt()) return Error{field + "[" + std::to_string(i) + "]: expected an integer"};
        out.minors.push_back(value[i].GetInt());
      }
    } else if (equals_fold(key, "gpuLinkType")) {
      if (!value.IsString()) return Error{field + ": expected a string, got " + describe_json(value)};
      out.link_type = std::string(member_name(value));
    } else if (equals_fold(key, "ringBusBandwidth")) {
      std::string text;
      if (value.IsString()) text = std::string(member_name(value));
      else if (value.IsNumber()) text = to_json(value);
      else return Error{field + ": expected a quantity, got " + describe_json(value)};
      auto q = Quantity::parse(text);
      if (!q) return Error{field + ": " + q.message()};
      out.ring_bus_bandwidth = *q;
    } else if (equals_fold(key, "allocationScore")) {
      if (!value.IsInt64()) return Error{field + ": expected an integer, got " + describe_json(value)};
      out.allocation_score = value.GetInt64();
    }
  }
  out.mask = hash_minors(out.minors);
  return {};
}

void add_to_index(GpuPartitionIndexer& index, int64_t count, GpuPartition partition) {
  auto& groups = index[count];
  auto it = std::find_if(groups.begin(), groups.end(),
                         [&](const PartitionGroup& g) { return g.allocation_score == partition.allocation_score; });
  if (it == groups.end()) {
    groups.push_back(PartitionGroup{partition.allocation_score, {}});
    it = groups.end() - 1;
  }
  it->partitions.push_back(std::move(partition));
}

void sort_groups(GpuPartitionIndexer& index) {
  for (auto& [count, groups] : index)
    std::stable_sort(groups.begin(), groups.end(), [](const PartitionGroup& a, const PartitionGroup& b) {
      return a.allocation_score < b.allocation_score;
    });
}

GpuPartitionIndexer build_hopper() {
  GpuPartitionIndexer index;
  auto add = [&](std::vector<int32_t> minors) {
    GpuPartition p;
    p.minors = std::move(minors);
    p.mask = hash_minors(p.minors);
    p.link_type = "NVLink";
    p.allocation_score = 1;
    const auto count = static_cast<int64_t>(p.minors.size());  // before p is moved from
    add_to_index(index, count, std::move(p));
  };
  for (int32_t i = 0; i < 8; ++i) add({i});
  for (int32_t i = 0; i < 8; i += 2) add({i, i + 1});
  add({0, 1, 2, 3});
  add({4, 5, 6, 7});
  add({0, 1, 2, 3, 4, 5, 6, 7});
  return index;
}

}  // namespace

Result<GpuPartitionIndexer> parse_gpu_partition_table(std::string_view json) {
  auto doc = parse_json(json);
  if (!doc) return doc.error();
  const JsonValue& root = **doc;
  if (root.IsNull()) return Error{"invalid gpu partitions in device cr: " + std::string(json)};
  if (!root.IsObject()) return Error{"expected an object keyed by the number of GPUs, got " + describe_json(root)};
  GpuPartitionIndexer index;
  for (auto m = root.MemberBegin(); m != root.MemberEnd(); ++m) {
    auto count = parse_int_key(member_name(m->name));
    if (!count) return count.error();
    if (m->value.IsNull()) continue;
    const std::string path = std::string(member_name(m->name));
    if (!m->value.IsArray()) return Error{path + ": expected an array, got " + describe_json(m->value)};
    for (rapidjson::SizeType i = 0; i < m->value.Size(); ++i) {
      GpuPartition p;
      if (m->value[i].IsNull()) continue;
      Status decoded = decode_partition(m->value[i], path + "[" + std::to_string(i) + "]", p);
      if (!decoded) return Error{decoded.message()};
      add_to_index(index, *count, std::move(p));
    }
  }
  sort_groups(index);
  return index;
}

const GpuPartitionIndexer& hopper_partition_indexer() {
  static const GpuPartitionIndexer index = build_hopper();
  return index;
}

const GpuPartitionIndexer* builtin_partition_indexer(const Labels& node_labels) {
  auto vendor = node_labels.find(label_keys().gpu_vendor);
  if (vendor != node_labels.end() && !vendor->second.empty() && vendor->second != kGpuVendorNvidia) return nullptr;
  auto model = node_labels.find(label_keys().gpu_model);
  if (model == node_labels.end()) return nullptr;
  if (model->second == "H100" || model->second == "H800" || model->second == "H20") return &hopper_partition_indexer();
  return nullptr;
}

bool honors_gpu_partitions(const Labels& labels) {
  auto it = labels.find(label_keys().gpu_partition_policy);
  return it != labels.end() && it->second == kGpuPartitionPolicyHonor;
}

}  // namespace troupe::plugins::deviceshare
