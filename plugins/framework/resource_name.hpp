#pragma once
// ResourceName: an interned resource name. Each distinct name is stored once
// for the whole process (a cluster uses a few dozen: cpu, memory, vendor
// devices, hugepages-*), and a ResourceName is a pointer to it. ResourceVector
// names its scalar resources with it, so a node's allocatable or a pod's
// requests hold 8 bytes per name instead of a std::string and, for names
// longer than 15 characters ("koordinator.sh/gpu-memory-ratio"), a heap
// block. Interned names are never freed. Interning takes a process-wide
// lock; comparing two names for equality compares the pointers.

#include <iosfwd>
#include <string>
#include <string_view>

namespace troupe::plugins {

class ResourceName {
 public:
  /// The empty name.
  ResourceName();
  explicit ResourceName(std::string_view name);

  const std::string& str() const { return *name_; }
  operator const std::string&() const { return *name_; }
  operator std::string_view() const { return *name_; }

  friend bool operator==(ResourceName a, ResourceName b) { return a.name_ == b.name_; }
  friend bool operator!=(ResourceName a, ResourceName b) { return a.name_ != b.name_; }
  /// Ordered by the text, as the names of a ResourceList are.
  friend bool operator<(ResourceName a, ResourceName b) { return *a.name_ < *b.name_; }
  friend bool operator==(ResourceName a, std::string_view b) { return *a.name_ == b; }
  friend bool operator==(std::string_view a, ResourceName b) { return a == *b.name_; }
  friend bool operator!=(ResourceName a, std::string_view b) { return *a.name_ != b; }
  friend bool operator<(ResourceName a, std::string_view b) { return std::string_view(*a.name_) < b; }
  friend bool operator<(std::string_view a, ResourceName b) { return a < std::string_view(*b.name_); }
  friend std::string operator+(const std::string& a, ResourceName b) { return a + *b.name_; }
  friend std::string operator+(const char* a, ResourceName b) { return a + *b.name_; }

 private:
  const std::string* name_;
};

std::ostream& operator<<(std::ostream& out, ResourceName name);

}  // namespace troupe::plugins
