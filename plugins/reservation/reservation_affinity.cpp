#include "plugins/reservation/reservation_affinity.hpp"

#include "model/json.hpp"
#include "model/json_reader.hpp"
#include "plugins/node_affinity/node_selector.hpp"
#include "plugins/reservation/reservation_names.hpp"

namespace troupe::plugins::reservation {

namespace {

bool blocks_scheduling(const Taint& taint) {
  return taint.effect == TaintEffect::no_schedule || taint.effect == TaintEffect::no_execute;
}

std::string annotation_error(const std::string& message) {
  return std::string("annotation ") + kAnnotationReservationAffinity + ": " + message;
}

}  // namespace

bool ReservationAffinity::match_affinity(const Node& node, const ObjectMeta& reservation_meta) const {
  // The fake node of matchReservationAffinity: the reservation's name, the
  // node's labels overlaid by the reservation's (so zone labels still match).
  Node fake;
  fake.meta.name = reservation_meta.name;
  fake.meta.labels = node.meta.labels;
  for (const auto& [key, value] : reservation_meta.labels) fake.meta.labels[key] = value;
  for (const auto& [key, value] : selector) {
    auto it = fake.meta.labels.find(key);
    if (it == fake.meta.labels.end() || it->second != value) return false;
  }
  return !required || selector_matches(*required, fake);
}

const Taint* ReservationAffinity::first_untolerated_taint(const std::vector<Taint>& taints) const {
  for (const auto& taint : taints) {
    if (!blocks_scheduling(taint)) continue;
    bool tolerated = false;
    for (const auto& toleration : tolerations) tolerated = tolerated || toleration.tolerates(taint);
    if (!tolerated) return &taint;
  }
  return nullptr;
}

bool ReservationAffinity::tolerates_unschedulable() const {
  const Taint unschedulable{kTaintUnschedulable, "", TaintEffect::no_schedule, std::nullopt};
  for (const auto& toleration : tolerations)
    if (toleration.tolerates(unschedulable)) return true;
  return false;
}

Result<ReservationAffinity> decode_reservation_affinity(std::string_view text) {
  ReservationAffinity affinity;
  if (text.empty()) return affinity;  // present but empty: required, with no constraint
  auto doc = parse_json(text);
  if (!doc) return Error{annotation_error(doc.message())};
  if ((*doc)->IsNull()) return affinity;
  if (!(*doc)->IsObject()) return Error{annotation_error(JsonReader::expected("an object", **doc))};
  JsonReader reader(**doc);
  reader.field("name", affinity.name);
  reader.field("reservationSelector", affinity.selector);
  const auto& root = **doc;
  auto required = root.FindMember("requiredDuringSchedulingIgnoredDuringExecution");
  if (required != root.MemberEnd() && !required->value.IsNull()) {
    affinity.required.emplace();
    reader.nested("requiredDuringSchedulingIgnoredDuringExecution",
                  [&] { reader.array("reservationSelectorTerms", affinity.required->terms); });
  }
  reader.array("tolerations", affinity.tolerations);
  if (!reader.ok()) return Error{annotation_error(reader.error())};
  return affinity;
}

Result<std::optional<ReservationAffinity>> reservation_affinity_of(const ObjectMeta& pod_meta) {
  const std::string* value = pod_meta.annotation(kAnnotationReservationAffinity);
  if (value == nullptr) return std::optional<ReservationAffinity>{};
  auto decoded = decode_reservation_affinity(*value);
  if (!decoded) return decoded.error();
  return std::optional<ReservationAffinity>(std::move(*decoded));
}

}  // namespace troupe::plugins::reservation
