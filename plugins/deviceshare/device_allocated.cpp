#include "plugins/deviceshare/device_allocated.hpp"

#include <limits>

#include "model/json.hpp"
#include "plugins/deviceshare/go_json.hpp"
#include "plugins/deviceshare/device_types.hpp"

namespace troupe::plugins::deviceshare {

namespace {

// ---- decoding ---------------------------------------------------------------

// A decode step that records the first error with its path.
class Decoder {
 public:
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  void fail(const std::string& path, const std::string& message) {
    if (ok()) error_ = path + ": " + message;
  }

  void int32_field(const JsonValue& v, const std::string& path, int32_t& out) {
    if (!v.IsInt64()) {
      fail(path, "expected an integer, got " + describe_json(v));
      return;
    }
    const int64_t n = v.GetInt64();
    if (n < std::numeric_limits<int32_t>::min() || n > std::numeric_limits<int32_t>::max()) {
      fail(path, "integer " + std::to_string(n) + " out of range for int32");
      return;
    }
    out = static_cast<int32_t>(n);
  }

  void string_field(const JsonValue& v, const std::string& path, std::string& out) {
    if (!v.IsString()) {
      fail(path, "expected a string, got " + describe_json(v));
      return;
    }
    out.assign(v.GetString(), v.GetStringLength());
  }

  // resource.Quantity.UnmarshalJSON: a string, or a bare number; null is zero.
  void quantity(const JsonValue& v, const std::string& path, Quantity& out) {
    std::string text;
    if (v.IsString()) text.assign(v.GetString(), v.GetStringLength());
    else if (v.IsNumber()) text = to_json(v);
    else {
      fail(path, "expected a quantity, got " + describe_json(v));
      return;
    }
    auto q = Quantity::parse(text);
    if (!q) {
      fail(path, q.message());
      return;
    }
    out = *q;
  }

  void resources(const JsonValue& v, const std::string& path, ResourceList& out) {
    if (!v.IsObject()) {
      fail(path, "expected an object, got " + describe_json(v));
      return;
    }
    for (auto m = v.MemberBegin(); m != v.MemberEnd() && ok(); ++m) {
      std::string name(member_name(m->name));
      Quantity q;
      if (!m->value.IsNull()) quantity(m->value, path + "." + name, q);
      out[name] = q;
    }
  }

  void vf(const JsonValue& v, const std::string& path, AllocatedVirtualFunction& out) {
    for (auto m = v.MemberBegin(); m != v.MemberEnd() && ok(); ++m) {
      const std::string_view key = member_name(m->name);
      if (m->value.IsNull()) continue;
      if (equals_fold(key, "minor")) int32_field(m->value, path + ".minor", out.minor);
      else if (equals_fold(key, "busID")) string_field(m->value, path + ".busID", out.bus_id);
    }
  }

  void extension(const JsonValue& v, const std::string& path, DeviceAllocationExtension& out) {
    for (auto m = v.MemberBegin(); m != v.MemberEnd() && ok(); ++m) {
      const std::string_view key = member_name(m->name);
      if (m->value.IsNull()) continue;
      if (equals_fold(key, "vfs")) {
        const std::string vfs_path = path + ".vfs";
        if (!m->value.IsArray()) {
          fail(vfs_path, "expected an array, got " + describe_json(m->value));
          return;
        }
        out.vfs.clear();
        for (rapidjson::SizeType i = 0; i < m->value.Size() && ok(); ++i) {
          const JsonValue& item = m->value[i];
          const std::string item_path = vfs_path + "[" + std::to_string(i) + "]";
          AllocatedVirtualFunction fn;
          if (item.IsObject()) vf(item, item_path, fn);
          else if (!item.IsNull()) fail(item_path, "expected an object, got " + describe_json(item));
          out.vfs.push_back(std::move(fn));
        }
      } else if (equals_fold(key, "gpuSharedResourceTemplate")) {
        string_field(m->value, path + ".gpuSharedResourceTemplate", out.gpu_shared_resource_template);
      }
    }
  }

  void allocation(const JsonValue& v, const std::string& path, DeviceAllocation& out) {
    for (auto m = v.MemberBegin(); m != v.MemberEnd() && ok(); ++m) {
      const std::string_view key = member_name(m->name);
      if (m->value.IsNull()) continue;
      if (equals_fold(key, "minor")) int32_field(m->value, path + ".minor", out.minor);
      else if (equals_fold(key, "resources")) resources(m->value, path + ".resources", out.resources);
      else if (equals_fold(key, "id")) string_field(m->value, path + ".id", out.id);
      else if (equals_fold(key, "extension")) {
        if (!m->value.IsObject()) {
          fail(path + ".extension", "expected an object, got " + describe_json(m->value));
          return;
        }
        out.extension.emplace();
        extension(m->value, path + ".extension", *out.extension);
      }
    }
  }

 private:
  std::string error_;
};

// ---- encoding ---------------------------------------------------------------

void append_quantities(std::string& out, const ResourceList& resources) {
  out += '{';
  bool first = true;
  for (const auto& [name, q] : resources) {
    if (!first) out += ',';
    first = false;
    out += go_json_string(name);
    out += ':';
    out += go_json_string(q.to_string());
  }
  out += '}';
}

void append_extension(std::string& out, const DeviceAllocationExtension& ext) {
  out += '{';
  bool first = true;
  if (!ext.vfs.empty()) {
    out += "\"vfs\":[";
    for (size_t i = 0; i < ext.vfs.size(); ++i) {
      if (i > 0) out += ',';
      out += '{';
      bool any = false;
      if (ext.vfs[i].minor != 0) {
        out += "\"minor\":" + std::to_string(ext.vfs[i].minor);
        any = true;
      }
      if (!ext.vfs[i].bus_id.empty()) {
        if (any) out += ',';
        out += "\"busID\":" + go_json_string(ext.vfs[i].bus_id);
      }
      out += '}';
    }
    out += ']';
    first = false;
  }
  if (!ext.gpu_shared_resource_template.empty()) {
    if (!first) out += ',';
    out += "\"gpuSharedResourceTemplate\":" + go_json_string(ext.gpu_shared_resource_template);
  }
  out += '}';
}

}  // namespace

Result<DeviceAllocations> decode_device_allocations(std::string_view json) {
  auto doc = parse_json(json);
  if (!doc) return doc.error();
  const JsonValue& root = **doc;
  DeviceAllocations out;
  if (root.IsNull()) return out;
  if (!root.IsObject()) return Error{"expected an object of device types, got " + describe_json(root)};
  Decoder d;
  for (auto m = root.MemberBegin(); m != root.MemberEnd() && d.ok(); ++m) {
    const std::string type(member_name(m->name));
    auto& entries = out[type];
    entries.clear();
    if (m->value.IsNull()) continue;
    if (!m->value.IsArray()) {
      d.fail(type, "expected an array, got " + describe_json(m->value));
      break;
    }
    for (rapidjson::SizeType i = 0; i < m->value.Size() && d.ok(); ++i) {
      const JsonValue& item = m->value[i];
      const std::string path = type + "[" + std::to_string(i) + "]";
      if (item.IsNull()) continue;  // a nil *DeviceAllocation carries nothing
      if (!item.IsObject()) {
        d.fail(path, "expected an object, got " + describe_json(item));
        break;
      }
      DeviceAllocation a;
      d.allocation(item, path, a);
      entries.push_back(std::move(a));
    }
  }
  if (!d.ok()) return Error{d.error()};
  return out;
}

Result<std::optional<DeviceAllocations>> device_allocations_from(
    const std::map<std::string, std::string>& annotations) {
  auto it = annotations.find(std::string(kAnnotationDeviceAllocated));
  if (it == annotations.end()) return std::optional<DeviceAllocations>();
  auto decoded = decode_device_allocations(it->second);
  if (!decoded) return Error{std::string(kAnnotationDeviceAllocated) + ": " + decoded.message()};
  return std::optional<DeviceAllocations>(std::move(*decoded));
}

std::string encode_device_allocations(const DeviceAllocations& allocations) {
  std::string out = "{";
  bool first_type = true;
  for (const auto& [type, entries] : allocations) {
    if (!first_type) out += ',';
    first_type = false;
    out += go_json_string(type);
    out += ":[";
    for (size_t i = 0; i < entries.size(); ++i) {
      const DeviceAllocation& a = entries[i];
      if (i > 0) out += ',';
      out += "{\"minor\":" + std::to_string(a.minor) + ",\"resources\":";
      append_quantities(out, a.resources);
      if (!a.id.empty()) out += ",\"id\":" + go_json_string(a.id);
      if (a.extension) {
        out += ",\"extension\":";
        append_extension(out, *a.extension);
      }
      out += '}';
    }
    out += ']';
  }
  out += '}';
  return out;
}

std::string gpu_minors(const DeviceAllocations& allocations) {
  auto it = allocations.find(std::string(device_type_name(DeviceType::gpu)));
  std::string out;
  if (it == allocations.end()) return out;
  for (const auto& a : it->second) {
    if (!out.empty()) out += ',';
    out += std::to_string(a.minor);
  }
  return out;
}

}  // namespace troupe::plugins::deviceshare
