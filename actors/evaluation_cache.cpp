#include "actors/evaluation_cache.hpp"

#include <algorithm>
#include <utility>

namespace troupe::actors {

namespace {

const plugins::PluginStatus kFeasible{};

bool same_rejection(const plugins::PluginStatus& a, const plugins::PluginStatus& b) {
  return a.code == b.code && a.plugin == b.plugin && a.reasons == b.reasons;
}

}  // namespace

ClassEvaluations::ClassEvaluations(const plugins::Framework& framework,
                                   std::shared_ptr<const plugins::SchedulingClass> cls, size_t nodes)
    : framework_(&framework),
      class_(std::move(cls)),
      stride_(1 + framework.normalizing_score_plugins()),
      verdict_generation_(nodes, kUnknown),
      verdict_(nodes, 0),
      score_generation_(nodes, kUnknown),
      scores_(nodes * stride_, 0) {}

const plugins::PluginStatus* ClassEvaluations::verdict(size_t at, uint64_t generation) const {
  if (at >= verdict_generation_.size() || verdict_generation_[at] != generation) return nullptr;
  const uint32_t v = verdict_[at];
  return v == 0 ? &kFeasible : &rejections_[v - 1];
}

void ClassEvaluations::remember_verdict(size_t at, uint64_t generation, const plugins::PluginStatus& status) {
  if (at >= verdict_generation_.size()) return;
  if (status.ok()) {
    verdict_[at] = 0;
  } else {
    if (!status.is_rejection()) return;
    auto it = std::find_if(rejections_.begin(), rejections_.end(),
                           [&](const plugins::PluginStatus& r) { return same_rejection(r, status); });
    if (it == rejections_.end()) {
      if (rejections_.size() == kMaxDistinctRejections) return;
      it = rejections_.insert(rejections_.end(), status);
    }
    verdict_[at] = static_cast<uint32_t>(it - rejections_.begin()) + 1;
  }
  verdict_generation_[at] = generation;
}

void ClassEvaluations::rebase(std::shared_ptr<const plugins::SchedulingClass> cls) {
  class_ = std::move(cls);
  std::fill(score_generation_.begin(), score_generation_.end(), kUnknown);
}

bool ClassEvaluations::scores(size_t at, uint64_t generation, plugins::NodeScore& out) const {
  if (at >= score_generation_.size() || score_generation_[at] != generation) return false;
  const int64_t* entry = &scores_[at * stride_];
  out.weighted_sum = entry[0];
  out.total = entry[0];
  out.raw.fill(0);
  std::copy(entry + 1, entry + stride_, out.raw.begin());
  return true;
}

void ClassEvaluations::remember_scores(size_t at, uint64_t generation, const plugins::NodeScore& score) {
  if (at >= score_generation_.size()) return;
  int64_t* entry = &scores_[at * stride_];
  entry[0] = score.weighted_sum;
  std::copy(score.raw.begin(), score.raw.begin() + static_cast<std::ptrdiff_t>(stride_ - 1), entry + 1);
  score_generation_[at] = generation;
}

ClassEvaluations* EvaluationCache::of(const plugins::Framework& framework,
                                      const std::shared_ptr<const plugins::SchedulingClass>& cls, size_t nodes) {
  auto it = std::find_if(classes_.begin(), classes_.end(),
                         [&](const ClassEvaluations& c) { return c.is_for(framework, *cls); });
  if (it == classes_.end()) {
    it = std::find_if(classes_.begin(), classes_.end(),
                      [&](const ClassEvaluations& c) { return c.verdicts_hold_for(framework, *cls); });
    if (it != classes_.end()) it->rebase(cls);
  }
  if (it != classes_.end()) {
    classes_.splice(classes_.begin(), classes_, it);
    return &classes_.front();
  }
  if (std::find(seen_once_.begin(), seen_once_.end(), cls->hash) == seen_once_.end()) {
    if (seen_once_.size() < kSeenOnce) {
      seen_once_.push_back(cls->hash);
    } else {
      seen_once_[seen_next_] = cls->hash;
      seen_next_ = (seen_next_ + 1) % kSeenOnce;
    }
    return nullptr;
  }
  if (max_classes_ == 0) return nullptr;
  if (classes_.size() >= max_classes_) classes_.pop_back();
  classes_.emplace_front(framework, cls, nodes);
  return &classes_.front();
}

}  // namespace troupe::actors
