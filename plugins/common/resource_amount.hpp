#pragma once
// Koordinator's integer amount of a quantity, as its load-aware scheduler
// and descheduler compare usage: cpu in millicores (MilliValue), every other
// resource ("pods" included) in whole units (Value).

#include <cstdint>
#include <string_view>

#include "model/quantity.hpp"

namespace troupe::plugins {

inline int64_t amount_of(std::string_view resource, const Quantity& quantity) {
  // string_view's == checks the length first: no call per pod metric entry.
  return resource == "cpu" ? quantity.milli_value() : quantity.value();
}

}  // namespace troupe::plugins
