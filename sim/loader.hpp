#pragma once
// --load FILE|DIR: reads Kubernetes objects from YAML (multi-document) or
// JSON files, a single object or a List (kind "List" or "<Kind>List" with
// items), and creates them through the API server's create path, keeping
// their status. Directories are read in name order (*.yaml, *.yml, *.json);
// Namespaces are created first, and missing namespaces are created on the way.

#include <string>

#include "model/result.hpp"
#include "sim/api_handler.hpp"

namespace troupe::sim {

/// Loads `path` (a file or a directory); returns how many objects were
/// created. Errors name the file and the object.
Result<size_t> load_path(ApiHandler& handler, const std::string& path);

/// Loads objects from YAML or JSON text; `origin` names it in errors.
Result<size_t> load_text(ApiHandler& handler, const std::string& text, const std::string& origin);

}  // namespace troupe::sim
