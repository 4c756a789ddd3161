#include "model/resource_name.hpp"

#include <mutex>
#include <ostream>
#include <unordered_set>

namespace troupe {

namespace {

// Node-based: an element never moves, so the pointers handed out stay valid.
struct Interned {
  std::mutex mutex;
  std::unordered_set<std::string> names;
};

Interned& interned() {
  static Interned* table = new Interned();  // never destroyed: names may be read during static destruction
  return *table;
}

const std::string* intern(std::string_view name) {
  Interned& table = interned();
  std::lock_guard<std::mutex> lock(table.mutex);
  return &*table.names.emplace(name).first;
}

}  // namespace

ResourceName::ResourceName() {
  static const std::string* const kEmpty = intern({});
  name_ = kEmpty;
}

ResourceName::ResourceName(std::string_view name) : name_(intern(name)) {}

std::ostream& operator<<(std::ostream& out, ResourceName name) { return out << name.str(); }

}  // namespace troupe
