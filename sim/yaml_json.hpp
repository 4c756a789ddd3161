#pragma once
// YAML to JSON, for --load and YAML request bodies: every document of a
// multi-document stream becomes a RapidJSON document. Plain scalars are typed
// as YAML 1.2's core schema does (null, true/false, integers, floats);
// quoted scalars stay strings.

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "model/result.hpp"

namespace troupe::sim {

/// Parses every document in `text`; empty documents are skipped. Errors name
/// the line and column.
Result<std::vector<rapidjson::Document>> yaml_to_json_documents(const std::string& text);

}  // namespace troupe::sim
