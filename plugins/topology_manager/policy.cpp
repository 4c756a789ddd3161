#include "plugins/topology_manager/policy.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>

namespace troupe::plugins::topology {

Result<NumaPolicy> parse_numa_policy(std::string_view text) {
  if (text.empty() || text == "None") return NumaPolicy::none;
  if (text == "BestEffort") return NumaPolicy::best_effort;
  if (text == "Restricted") return NumaPolicy::restricted;
  if (text == "SingleNUMANode") return NumaPolicy::single_numa_node;
  return Error{"unsupported NUMA topology policy \"" + std::string(text) +
               "\": supported values: \"\", \"BestEffort\", \"Restricted\", \"SingleNUMANode\""};
}

NumaPolicy numa_policy_from_nrt(std::string_view text) {
  if (text == "BestEffort") return NumaPolicy::best_effort;
  if (text == "Restricted") return NumaPolicy::restricted;
  if (text == "SingleNUMANodePodLevel") return NumaPolicy::single_numa_node;
  return NumaPolicy::none;
}

std::string_view to_string(NumaPolicy policy) {
  switch (policy) {
    case NumaPolicy::best_effort: return "BestEffort";
    case NumaPolicy::restricted: return "Restricted";
    case NumaPolicy::single_numa_node: return "SingleNUMANode";
    case NumaPolicy::none: break;
  }
  return "";
}

Result<NumaExclusive> parse_numa_exclusive(std::string_view text) {
  if (text.empty()) return NumaExclusive::none;
  if (text == "Preferred") return NumaExclusive::preferred;
  if (text == "Required") return NumaExclusive::required;
  return Error{"unsupported singleNUMANodeExclusive \"" + std::string(text) +
               "\": supported values: \"Preferred\", \"Required\""};
}

std::string_view to_string(NumaExclusive exclusive) {
  switch (exclusive) {
    case NumaExclusive::preferred: return "Preferred";
    case NumaExclusive::required: return "Required";
    case NumaExclusive::none: break;
  }
  return "";
}

std::optional<NumaPolicy> merge_numa_policies(NumaPolicy node, NumaPolicy pod) {
  if (node != NumaPolicy::none && pod != NumaPolicy::none && node != pod) return std::nullopt;
  return pod != NumaPolicy::none ? pod : node;
}

namespace {

NumaNodeStatus status_of(const std::vector<NumaNodeStatus>& statuses, int node) {
  return node >= 0 && static_cast<size_t>(node) < statuses.size() ? statuses[node] : NumaNodeStatus::idle;
}

/// checkExclusivePolicy: false when the affinity breaks singleNUMANodeExclusive=Required.
bool fits_exclusive(const NumaHint& hint, NumaExclusive exclusive, const std::vector<NumaNodeStatus>& statuses) {
  if (hint.numa_nodes == 0) return false;
  if (exclusive != NumaExclusive::required) return true;
  const std::vector<int> bits = mask_bits(hint.numa_nodes);
  if (bits.size() > 1) {
    return std::none_of(bits.begin(), bits.end(),
                        [&](int n) { return status_of(statuses, n) == NumaNodeStatus::single; });
  }
  return status_of(statuses, bits[0]) != NumaNodeStatus::shared;
}

/// mergePermutation: AND of the non-empty affinities; preferred when all are
/// preferred and equal; unsatisfied when the AND is narrower than the widest input.
NumaHint merge_permutation(NumaMask all_nodes, const std::vector<NumaHint>& permutation) {
  bool preferred = true;
  bool satisfied = true;
  NumaMask merged = all_nodes;
  NumaMask first = 0;
  int widest = 0;
  bool any = false;
  for (const NumaHint& hint : permutation) {
    if (hint.numa_nodes != 0) {
      if (!any) first = hint.numa_nodes;
      any = true;
      if (hint.numa_nodes != first) preferred = false;
      widest = std::max(widest, mask_count(hint.numa_nodes));
      merged &= hint.numa_nodes;
    }
    if (!hint.preferred) preferred = false;
    if (hint.unsatisfied) satisfied = false;
  }
  satisfied = (!any || widest == mask_count(merged)) && satisfied;
  NumaHint out;
  out.numa_nodes = merged;
  out.preferred = preferred;
  out.unsatisfied = !satisfied;
  return out;
}

struct Filtered {
  std::vector<std::vector<NumaHint>> per_resource;
  std::vector<std::string> reasons;
  std::vector<std::string> summary;
};

std::string summary_for(const std::string& resource, const std::vector<NumaHint>& hints) {
  std::string preferred, possible;
  for (const NumaHint& h : hints) {
    if (h.unsatisfied) continue;
    const std::string text = mask_string(h.numa_nodes);
    if (h.preferred) preferred += (preferred.empty() ? "" : " ") + text;
    possible += (possible.empty() ? "" : " ") + text;
  }
  return resource + " prefer [" + preferred + "] among [" + possible + "]";
}

/// filterProvidersHints (resources in name order; Go iterates a map).
Filtered filter_provider_hints(const std::vector<NumaHints>& providers) {
  Filtered out;
  for (const NumaHints& hints : providers) {
    if (hints.empty()) {
      out.per_resource.push_back({NumaHint{0, true, 0, false}});
      continue;
    }
    for (const auto& [resource, list] : hints) {
      if (list.empty()) {
        out.per_resource.push_back({NumaHint{0, false, 0, true}});
        out.reasons.push_back(kErrUnsatisfiedNumaResource + resource);
        continue;
      }
      out.summary.push_back(summary_for(resource, list));
      out.per_resource.push_back(list);
    }
  }
  std::sort(out.summary.begin(), out.summary.end());
  return out;
}

/// mergeFilteredHints' choice as each permutation's merged hint comes:
/// preferred over not, then narrower, then on equal width the higher score.
void consider(NumaHint& best, const NumaHint& merged) {
  if (merged.preferred && !best.preferred) {
    best = merged;
    return;
  }
  if (!merged.preferred && best.preferred) return;
  if (!is_narrower(merged.numa_nodes, best.numa_nodes)) {
    if (mask_count(merged.numa_nodes) == mask_count(best.numa_nodes) && merged.score > best.score) best = merged;
    return;
  }
  best = merged;
}

/// One permutation merged as mergeFilteredHints scores it; nullopt when its affinity is empty.
std::optional<NumaHint> merged_hint(NumaMask all_nodes, const std::vector<NumaHint>& permutation,
                                    NumaExclusive exclusive, const std::vector<NumaNodeStatus>& statuses) {
  NumaHint merged = merge_permutation(all_nodes, permutation);
  if (merged.numa_nodes == 0) return std::nullopt;
  if (!fits_exclusive(merged, exclusive, statuses)) merged.preferred = false;
  for (const NumaHint& h : permutation)
    if (h.numa_nodes != 0 && h.numa_nodes == merged.numa_nodes) merged.score += h.score;
  return merged;
}

/// mergeFilteredHints' choice over the permutations, crossed in its order,
/// starting from {all nodes, not preferred}. `preferred_only` visits only
/// those that can merge preferred: every hint preferred, every non-empty one
/// the same affinity. Once one is preferred no other kind changes the
/// choice, so their best is the merge's answer when it is preferred; there
/// are about as many as hints, not their product.
NumaHint cross_permutations(NumaMask all_nodes, const std::vector<std::vector<NumaHint>>& lists,
                            NumaExclusive exclusive, const std::vector<NumaNodeStatus>& statuses,
                            bool preferred_only) {
  NumaHint best;
  best.numa_nodes = all_nodes;
  std::vector<NumaHint> permutation;
  // `common`: the non-empty affinity chosen so far (0 = none yet), for preferred_only.
  std::function<void(size_t, NumaMask)> iterate = [&](size_t i, NumaMask common) {
    if (i == lists.size()) {
      if (auto merged = merged_hint(all_nodes, permutation, exclusive, statuses)) consider(best, *merged);
      return;
    }
    for (const NumaHint& h : lists[i]) {
      if (preferred_only && (!h.preferred || (h.numa_nodes != 0 && common != 0 && h.numa_nodes != common))) continue;
      permutation.push_back(h);
      iterate(i + 1, h.numa_nodes != 0 ? h.numa_nodes : common);
      permutation.pop_back();
    }
  };
  iterate(0, 0);
  return best;
}

}  // namespace

NumaHint best_of_every_permutation(NumaMask all_nodes, const std::vector<std::vector<NumaHint>>& lists,
                                   NumaExclusive exclusive, const std::vector<NumaNodeStatus>& statuses) {
  return cross_permutations(all_nodes, lists, exclusive, statuses, /*preferred_only=*/false);
}

namespace {

/// How many permutations crossing the lists gives, capped at `cap`.
uint64_t permutation_count(const std::vector<std::vector<NumaHint>>& lists, uint64_t cap) {
  uint64_t count = 1;
  for (const auto& list : lists) {
    if (list.empty()) return 0;
    if (count > cap / list.size()) return cap;
    count *= list.size();
  }
  return count;
}

/// Crossing every permutation costs the product of the hint counts: with 8
/// NUMA nodes, up to 255 hints per resource, so 255^4 for CPU, memory, GPU
/// and RDMA. Beyond this many no permutation is looked at one by one.
constexpr uint64_t kPermutationBudget = 200000;

}  // namespace

/// mergeFilteredHints. Exact whenever some permutation merges preferred (the
/// common case, found without crossing them all) or the permutations are
/// few. Otherwise, past kPermutationBudget, the answer is {all nodes, not
/// preferred, unsatisfied}: what a mixed permutation (hints of different
/// affinities ANDed together, always unsatisfied) gives whenever one is the
/// narrowest, as it nearly always is among that many. Restricted and
/// SingleNUMANode admit no such answer either way.
NumaHint best_permutation(NumaMask all_nodes, const std::vector<std::vector<NumaHint>>& lists,
                          NumaExclusive exclusive, const std::vector<NumaNodeStatus>& statuses) {
  NumaHint preferred = cross_permutations(all_nodes, lists, exclusive, statuses, /*preferred_only=*/true);
  if (preferred.preferred) return preferred;
  if (permutation_count(lists, kPermutationBudget + 1) <= kPermutationBudget)
    return best_of_every_permutation(all_nodes, lists, exclusive, statuses);
  return NumaHint{all_nodes, false, 0, true};
}

namespace {

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

}  // namespace

MergeResult merge_hints(NumaPolicy policy, const std::vector<int>& numa_nodes,
                        const std::vector<NumaHints>& providers, NumaExclusive exclusive,
                        const std::vector<NumaNodeStatus>& statuses) {
  const NumaMask all_nodes = mask_of(numa_nodes);
  MergeResult out;
  if (policy == NumaPolicy::none) {
    out.admit = true;
    return out;
  }
  Filtered filtered = filter_provider_hints(providers);
  switch (policy) {
    case NumaPolicy::best_effort: {
      out.hint = best_permutation(all_nodes, filtered.per_resource, exclusive, statuses);
      if (out.hint.unsatisfied) out.hint = NumaHint{all_nodes, false, 0, false};
      out.admit = true;
      return out;
    }
    case NumaPolicy::restricted: {
      if (!filtered.reasons.empty()) {
        out.hint = NumaHint{all_nodes, false, 0, false};
        out.reasons = std::move(filtered.reasons);
        return out;
      }
      out.hint = best_permutation(all_nodes, filtered.per_resource, exclusive, statuses);
      out.admit = out.hint.preferred;
      if (!out.admit) out.reasons.push_back(kErrNumaHintCannotAligned + join(filtered.summary, " & "));
      return out;
    }
    case NumaPolicy::single_numa_node: {
      if (!filtered.reasons.empty()) {
        out.reasons = std::move(filtered.reasons);
        return out;
      }
      // Only "don't care" and preferred one-node hints take part.
      for (auto& list : filtered.per_resource) {
        std::vector<NumaHint> kept;
        for (const NumaHint& h : list)
          if (h.preferred && (h.numa_nodes == 0 || mask_count(h.numa_nodes) == 1)) kept.push_back(h);
        list = std::move(kept);
      }
      out.hint = best_permutation(all_nodes, filtered.per_resource, exclusive, statuses);
      if (out.hint.numa_nodes == all_nodes) out.hint = NumaHint{0, out.hint.preferred, 0, false};
      out.admit = out.hint.preferred;
      if (!out.admit) out.reasons.push_back(kErrNumaHintCannotAligned + join(filtered.summary, ","));
      return out;
    }
    case NumaPolicy::none: break;
  }
  return out;
}

}  // namespace troupe::plugins::topology
