#pragma once
// What a LIST or WATCH selects: a namespace (or all), a label selector and a
// field selector, evaluated against a StoredObject's labels and field projection.

#include <string>

#include "model/field_selector.hpp"
#include "model/label_selector.hpp"
#include "sim/stored_object.hpp"

namespace troupe::sim {

struct ObjectFilter {
  std::string ns; // empty: every namespace
  LabelSelector labels;
  FieldSelector fields;

  bool matches(const StoredObject& object) const {
    return (ns.empty() || object.ns == ns) && labels.matches(object.labels) &&
           (fields.empty() || fields.matches(object.fields));
  }
};

}  // namespace troupe::sim
