#pragma once
// The extension points of kube-scheduler's framework, as named in
// KubeSchedulerConfiguration's `plugins` section.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace troupe::config {

enum class ExtensionPoint : uint8_t {
  pre_enqueue,
  queue_sort,
  pre_filter,
  filter,
  post_filter,
  pre_score,
  score,
  reserve,
  permit,
  pre_bind,
  bind,
  post_bind,
};

inline constexpr size_t kExtensionPointCount = 12;

inline constexpr std::array<ExtensionPoint, kExtensionPointCount> kAllExtensionPoints = {
    ExtensionPoint::pre_enqueue, ExtensionPoint::queue_sort, ExtensionPoint::pre_filter,
    ExtensionPoint::filter,      ExtensionPoint::post_filter, ExtensionPoint::pre_score,
    ExtensionPoint::score,       ExtensionPoint::reserve,     ExtensionPoint::permit,
    ExtensionPoint::pre_bind,    ExtensionPoint::bind,        ExtensionPoint::post_bind,
};

inline constexpr size_t index_of(ExtensionPoint point) { return static_cast<size_t>(point); }

/// The YAML key under `plugins:` ("preFilter", "queueSort", ...).
std::string_view yaml_key(ExtensionPoint point);
/// The Go interface name, used in messages as kube-scheduler does ("FilterPlugin").
std::string_view interface_name(ExtensionPoint point);
std::optional<ExtensionPoint> extension_point_from_yaml_key(std::string_view key);

/// A set of extension points, e.g. the ones a plugin implements.
class ExtensionPointSet {
 public:
  constexpr ExtensionPointSet() = default;
  constexpr ExtensionPointSet(std::initializer_list<ExtensionPoint> points) {
    for (auto p : points) bits_ |= bit(p);
  }
  constexpr bool has(ExtensionPoint p) const { return (bits_ & bit(p)) != 0; }
  constexpr void add(ExtensionPoint p) { bits_ |= bit(p); }
  constexpr bool empty() const { return bits_ == 0; }
  friend constexpr bool operator==(ExtensionPointSet a, ExtensionPointSet b) { return a.bits_ == b.bits_; }

 private:
  static constexpr uint16_t bit(ExtensionPoint p) { return static_cast<uint16_t>(1u << index_of(p)); }
  uint16_t bits_ = 0;
};

}  // namespace troupe::config
