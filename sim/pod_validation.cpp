#include "sim/pod_validation.hpp"

#include <set>
#include <string>

#include "model/quantity.hpp"
#include "model/resource_names.hpp"
#include "watch/json_util.hpp"

namespace troupe::sim {

namespace {

const rapidjson::Value* find(const rapidjson::Value& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  auto m = object.FindMember(key);
  return m == object.MemberEnd() || m->value.IsNull() ? nullptr : &m->value;
}

void check_port(const rapidjson::Value& port, const char* key, const std::string& path, bool zero_allowed,
                std::vector<StatusCause>& causes) {
  const rapidjson::Value* value = find(port, key);
  if (value == nullptr || !value->IsInt64()) return;  // absent, or a type error the decoder reports
  const int64_t n = value->GetInt64();
  if ((n == 0 && zero_allowed) || (n >= 1 && n <= 65535)) return;
  causes.push_back(invalid_field(path + "." + key, std::to_string(n), "must be between 1 and 65535, inclusive"));
}

void check_resources(const rapidjson::Value& list, const std::string& path, std::vector<StatusCause>& causes) {
  if (!list.IsObject()) return;
  for (const auto& entry : list.GetObject()) {
    if (!entry.value.IsString()) continue;
    const std::string name(entry.name.GetString(), entry.name.GetStringLength());
    const std::string text(entry.value.GetString(), entry.value.GetStringLength());
    const std::string field = path + "[" + name + "]";
    auto quantity = Quantity::parse(text);
    // One that does not parse is left for the scheduler to report (its invalid-pod path, which the
    // end-to-end tests exercise); kube-apiserver refuses it while decoding.
    if (!quantity) continue;
    if (quantity->sign() < 0) {
      causes.push_back(invalid_field(field, watch::json_quote(text), "must be greater than or equal to 0"));
    } else if (resource_names::is_extended_resource_name(name) && quantity->milli_value() % 1000 != 0) {
      causes.push_back(invalid_field(field, watch::json_quote(text), "must be an integer"));
    }
  }
}

void check_container(const rapidjson::Value& container, const std::string& path, std::set<std::string>& names,
                     std::vector<StatusCause>& causes) {
  if (!container.IsObject()) return;
  const rapidjson::Value* name = find(container, "name");
  if (name != nullptr && name->IsString()) {
    const std::string text(name->GetString(), name->GetStringLength());
    if (!text.empty() && !names.insert(text).second)
      causes.push_back(duplicate_field(path + ".name", watch::json_quote(text)));
  }
  if (const rapidjson::Value* ports = find(container, "ports"); ports != nullptr && ports->IsArray())
    for (rapidjson::SizeType i = 0; i < ports->Size(); ++i) {
      const std::string port_path = path + ".ports[" + std::to_string(i) + "]";
      check_port((*ports)[i], "containerPort", port_path, false, causes);
      check_port((*ports)[i], "hostPort", port_path, true, causes);
    }
  if (const rapidjson::Value* resources = find(container, "resources"))
    for (const char* list : {"requests", "limits"})
      if (const rapidjson::Value* values = find(*resources, list))
        check_resources(*values, path + ".resources." + list, causes);
}

}  // namespace

std::vector<StatusCause> check_pod_containers(const rapidjson::Value& pod) {
  std::vector<StatusCause> causes;
  const rapidjson::Value* spec = find(pod, "spec");
  if (spec == nullptr) return causes;
  std::set<std::string> names;  // one namespace for containers and init containers
  for (const char* list : {"initContainers", "containers"}) {
    const rapidjson::Value* containers = find(*spec, list);
    if (containers == nullptr || !containers->IsArray()) continue;
    for (rapidjson::SizeType i = 0; i < containers->Size(); ++i)
      check_container((*containers)[i], std::string("spec.") + list + "[" + std::to_string(i) + "]", names, causes);
  }
  return causes;
}

}  // namespace troupe::sim
