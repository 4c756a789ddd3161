#include "plugins/framework/status.hpp"

namespace troupe::plugins {

std::string_view to_string(Code code) {
  switch (code) {
    case Code::success: return "Success";
    case Code::error: return "Error";
    case Code::unschedulable: return "Unschedulable";
    case Code::unschedulable_and_unresolvable: return "UnschedulableAndUnresolvable";
    case Code::wait: return "Wait";
    case Code::skip: return "Skip";
    case Code::pending: return "Pending";
  }
  return "Unknown";
}

std::string PluginStatus::message() const {
  std::string out;
  for (const auto& reason : reasons) {
    if (!out.empty()) out += ", ";
    out += reason;
  }
  return out;
}

}  // namespace troupe::plugins
