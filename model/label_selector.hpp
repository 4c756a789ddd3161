#pragma once
// Label selectors in both of Kubernetes' spellings: the query-string syntax
// ("app=web,tier!=db,env in (a,b),!legacy") and the structured metav1.LabelSelector
// / NodeSelectorRequirement objects (matchLabels + matchExpressions with In,
// NotIn, Exists, DoesNotExist, Gt, Lt).

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "model/result.hpp"

namespace troupe {

using Labels = std::map<std::string, std::string>;

struct LabelRequirement {
  enum class Op { in, not_in, exists, does_not_exist, equals, not_equals, gt, lt };
  std::string key;
  Op op = Op::exists;
  std::vector<std::string> values;

  bool matches(const Labels& labels) const;
  /// The query-string form of this one requirement ("env in (a,b)", "!x", "n>3").
  std::string to_string() const;

  /// Same key, operator and values in the same order.
  bool operator==(const LabelRequirement& other) const {
    return key == other.key && op == other.op && values == other.values;
  }
  bool operator!=(const LabelRequirement& other) const { return !(*this == other); }
};

/// A conjunction of requirements. The empty selector matches everything
/// (metav1.LabelSelector{} semantics); use `nothing()` for the selector that
/// matches nothing (a nil *LabelSelector in Kubernetes).
class LabelSelector {
 public:
  LabelSelector() = default;
  explicit LabelSelector(std::vector<LabelRequirement> requirements);
  static LabelSelector nothing();

  bool matches(const Labels& labels) const;
  bool empty() const { return requirements_.empty() && !match_nothing_; }
  /// Whether this is `nothing()`, Go's nil selector.
  bool matches_nothing() const { return match_nothing_ && requirements_.empty(); }
  const std::vector<LabelRequirement>& requirements() const { return requirements_; }
  /// The query-string form, e.g. "app=web,env in (a,b)". Parsing it gives back
  /// an equivalent selector (values come out sorted, as the API server writes
  /// them). `nothing()` has no query form and prints as "", like labels.Nothing().
  std::string to_string() const;

 private:
  std::vector<LabelRequirement> requirements_;
  bool match_nothing_ = false;
};

/// `selector` (nullopt: nil, which matches nothing) narrowed by the values
/// `labels` has for some keys: `key In (value)` for each of `in_keys` and
/// `key NotIn (value)` for each of `not_in_keys` that `labels` holds; a nil
/// selector stays nil. (matchLabelKeys / mismatchLabelKeys of pod affinity
/// terms and topology spread constraints.) A key the selector already has a
/// single-value requirement of that operator on is left alone: the API
/// server merged it at creation, with the labels the pod had then.
LabelSelector with_label_values(const std::optional<LabelSelector>& selector, const Labels& labels,
                                const std::vector<std::string>& in_keys,
                                const std::vector<std::string>& not_in_keys = {});

/// Parses the `labelSelector=` query syntax; errors name the offending text.
/// Accepts what apimachinery's labels.Parse accepts, including `key>N` and
/// `key<N` (so that every selector's to_string() parses back).
Result<LabelSelector> parse_label_selector(std::string_view text);

/// Decodes a metav1.LabelSelector object ({matchLabels, matchExpressions}).
/// `field` is the JSON path used in error messages ("spec.selector").
/// A JSON null decodes to `LabelSelector::nothing()` (a nil selector); `{}` to
/// the selector that matches everything. Operators: In, NotIn, Exists,
/// DoesNotExist (Gt/Lt belong to node selectors only).
Result<LabelSelector> decode_label_selector(const rapidjson::Value& json, const std::string& field);

/// Decodes a list of NodeSelectorRequirement / LabelSelectorRequirement
/// objects ({key, operator, values}); operators include Gt and Lt (whose single
/// value must be an integer).
Result<std::vector<LabelRequirement>> decode_requirements(const rapidjson::Value& json, const std::string& field);

/// Reads a JSON object of string values (metadata.labels) into Labels; members
/// whose value is not a string are skipped. A non-object yields no labels.
Labels labels_from_json(const rapidjson::Value& labels_object);

/// Label key validation (a qualified name: optional DNS-subdomain prefix and
/// '/', then a name of at most 63 characters). The error says what is wrong
/// without naming the field; callers add the path.
Status validate_label_key(std::string_view key);
/// Label value validation (empty, or at most 63 alphanumerics, '-', '_', '.',
/// starting and ending with an alphanumeric).
Status validate_label_value(std::string_view value);

}  // namespace troupe
