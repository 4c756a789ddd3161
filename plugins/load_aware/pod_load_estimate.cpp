#include "plugins/load_aware/pod_load_estimate.hpp"

#include <charconv>
#include <cmath>

#include <rapidjson/document.h>

#include "model/pod_requests.hpp"
#include "plugins/load_aware/usage_thresholds_annotation.hpp"

namespace troupe::plugins::load_aware {

namespace {

using numa::KoordPriorityClass;

/// {"cpu": 80, "memory": 60}; anything else is ignored, as Koordinator
/// ignores an annotation it cannot unmarshal.
ResourceInts parse_factors(const std::string* text) {
  ResourceInts out;
  if (text == nullptr) return out;
  rapidjson::Document doc;
  doc.Parse(text->data(), text->size());
  if (doc.HasParseError() || !read_resource_ints(doc, out)) return {};
  return out;
}

/// strconv.ParseInt(text, 10, 64): an optional sign and digits, nothing else.
std::optional<int64_t> parse_seconds(const std::string* text) {
  if (text == nullptr || text->empty()) return std::nullopt;
  const char* begin = text->data();
  const char* end = begin + text->size();
  if (*begin == '+' && text->size() > 1 && begin[1] != '-') ++begin;  // from_chars takes '-' but not '+'
  int64_t value = 0;
  auto [at, error] = std::from_chars(begin, end, value);
  if (error != std::errc() || at != end) return std::nullopt;
  return value;
}

int64_t estimate_resource(const PodEstimateInputs& pod, std::string_view real, int64_t factor) {
  auto find = [&real](const ResourceList& list) {
    auto it = list.find(real);
    return it == list.end() ? Quantity() : it->second;
  };
  const Quantity limit = find(pod.limits);
  const Quantity request = find(pod.requests);
  const Quantity quantity = limit > request ? limit : request;
  if (quantity.is_zero()) {
    if (real == "cpu" || real == "kubernetes.io/batch-cpu") return kDefaultEstimatedMilliCpu;
    if (real == "memory" || real == "kubernetes.io/batch-memory") return kDefaultEstimatedMemory;
    return 0;
  }
  // Only cpu itself counts in millicores: batch-cpu's quantities already are.
  const bool milli = real == "cpu";
  const int64_t amount = milli ? quantity.milli_value() : quantity.value();
  const int64_t limit_amount = milli ? limit.milli_value() : limit.value();
  int64_t estimated = std::llround(static_cast<double>(amount) * static_cast<double>(factor) / 100.0);
  if (limit_amount > 0 && estimated > limit_amount) estimated = limit_amount;
  return estimated;
}

}  // namespace

PodEstimateInputs estimate_inputs_of(const Pod& pod) {
  PodEstimateInputs in;
  in.priority_class = numa::pod_priority_class_with_default(pod);
  in.requests = pod_requests(pod.spec);
  in.limits = pod_limits(pod.spec);
  in.custom_factors = parse_factors(pod.meta.annotation(kAnnotationEstimatedScalingFactors));
  in.custom_seconds_after_scheduled = parse_seconds(pod.meta.annotation(kAnnotationEstimatedSecondsAfterPodScheduled));
  in.custom_seconds_after_initialized =
      parse_seconds(pod.meta.annotation(kAnnotationEstimatedSecondsAfterInitialized));
  return in;
}

std::string_view translated_resource(KoordPriorityClass priority_class, std::string_view resource) {
  switch (priority_class) {
    case KoordPriorityClass::prod:
    case KoordPriorityClass::none: return resource;
    case KoordPriorityClass::batch:
      if (resource == "cpu") return "kubernetes.io/batch-cpu";
      if (resource == "memory") return "kubernetes.io/batch-memory";
      return "";
    case KoordPriorityClass::mid:
      if (resource == "cpu") return "kubernetes.io/mid-cpu";
      if (resource == "memory") return "kubernetes.io/mid-memory";
      return "";
    case KoordPriorityClass::free: break;
  }
  return "";
}

LoadEstimator::LoadEstimator(const LoadAwareSchedulingArgs& args, LoadAxes axes)
    : axes_(std::move(axes)),
      factors_(args.estimated_scaling_factors),
      allow_customize_(args.allow_customize_estimation) {}

LoadVector LoadEstimator::estimate(const PodEstimateInputs& pod) const {
  const ResourceInts* factors = &factors_;
  ResourceInts customized;
  if (allow_customize_ && !pod.custom_factors.empty()) {
    customized = pod.custom_factors;
    for (const auto& [name, factor] : factors_) customized.emplace(name, factor);  // the args fill the gaps
    factors = &customized;
  }
  LoadVector out;
  for (const auto& [name, factor] : *factors) {
    auto at = axes_.index_of(name);
    if (!at) continue;  // a resource no threshold or weight reads
    out[*at] = estimate_resource(pod, translated_resource(pod.priority_class, name), factor);
    if (out[*at] != 0) out.present = true;
  }
  return out;
}

}  // namespace troupe::plugins::load_aware
