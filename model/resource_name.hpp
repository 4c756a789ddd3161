#pragma once
// ResourceName: an interned resource name. Each distinct name is stored once
// for the whole process (a cluster uses a few dozen: cpu, memory, vendor
// devices, hugepages-*), and a ResourceName is a pointer to it. ResourceList
// and the scheduler's ResourceVector name resources with it, so a node's
// capacity or a pod's requests hold 8 bytes per name instead of a std::string
// and, for names longer than 15 characters ("koordinator.sh/gpu-memory-ratio"),
// a heap block of their own.
//
// Interned names are never freed: the table grows with the distinct names the
// cluster's objects ever carry (about 50 bytes each). Interning takes a
// process-wide lock; two names are equal when their pointers are, and ordered
// by their text.
//
// It converts to const std::string& and std::string_view, and is built
// implicitly from strings, so it stands where a name string stood.

#include <iosfwd>
#include <string>
#include <string_view>
#include <type_traits>

namespace troupe {

class ResourceName;

namespace resource_name_detail {
/// A string type a ResourceName compares with by text (not a ResourceName itself).
template <class S>
inline constexpr bool kIsText =
    !std::is_same_v<std::decay_t<S>, ResourceName> && std::is_convertible_v<const S&, std::string_view>;
}  // namespace resource_name_detail

class ResourceName {
 public:
  /// The empty name.
  ResourceName();
  ResourceName(std::string_view name);
  ResourceName(const std::string& name) : ResourceName(std::string_view(name)) {}
  ResourceName(const char* name) : ResourceName(std::string_view(name)) {}

  const std::string& str() const { return *name_; }
  const char* c_str() const { return name_->c_str(); }
  size_t size() const { return name_->size(); }
  bool empty() const { return name_->empty(); }
  operator const std::string&() const { return *name_; }
  operator std::string_view() const { return *name_; }

  friend bool operator==(ResourceName a, ResourceName b) { return a.name_ == b.name_; }
  friend bool operator!=(ResourceName a, ResourceName b) { return a.name_ != b.name_; }
  friend bool operator<(ResourceName a, ResourceName b) { return *a.name_ < *b.name_; }

  // Against any string type, by text, without interning it.
  template <class S, class = std::enable_if_t<resource_name_detail::kIsText<S>>>
  friend bool operator==(ResourceName a, const S& b) { return std::string_view(*a.name_) == std::string_view(b); }
  template <class S, class = std::enable_if_t<resource_name_detail::kIsText<S>>>
  friend bool operator==(const S& a, ResourceName b) { return std::string_view(a) == std::string_view(*b.name_); }
  template <class S, class = std::enable_if_t<resource_name_detail::kIsText<S>>>
  friend bool operator!=(ResourceName a, const S& b) { return !(a == b); }
  template <class S, class = std::enable_if_t<resource_name_detail::kIsText<S>>>
  friend bool operator!=(const S& a, ResourceName b) { return !(a == b); }
  template <class S, class = std::enable_if_t<resource_name_detail::kIsText<S>>>
  friend bool operator<(ResourceName a, const S& b) { return std::string_view(*a.name_) < std::string_view(b); }
  template <class S, class = std::enable_if_t<resource_name_detail::kIsText<S>>>
  friend bool operator<(const S& a, ResourceName b) { return std::string_view(a) < std::string_view(*b.name_); }

  friend std::string operator+(const std::string& a, ResourceName b) { return a + *b.name_; }
  friend std::string operator+(const char* a, ResourceName b) { return a + *b.name_; }
  friend std::string operator+(ResourceName a, const std::string& b) { return *a.name_ + b; }
  friend std::string operator+(ResourceName a, const char* b) { return *a.name_ + b; }

 private:
  const std::string* name_;
};

std::ostream& operator<<(std::ostream& out, ResourceName name);

}  // namespace troupe
