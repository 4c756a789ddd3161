#include "sim/loader.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/object_rules.hpp"
#include "sim/yaml_json.hpp"

namespace troupe::sim {

namespace fs = std::filesystem;

namespace {

// Flattens Lists into their items.
void collect(rapidjson::Document& doc, std::vector<rapidjson::Document>& out) {
  std::string kind = string_at(doc, "kind");
  auto items = doc.IsObject() ? doc.FindMember("items") : doc.MemberEnd();
  bool is_list = doc.IsObject() && kind.size() >= 4 && kind.compare(kind.size() - 4, 4, "List") == 0 &&
                 items != doc.MemberEnd() && items->value.IsArray();
  if (!is_list) {
    out.push_back(std::move(doc));
    return;
  }
  for (auto& item : items->value.GetArray()) {
    rapidjson::Document d;
    d.CopyFrom(item, d.GetAllocator());
    collect(d, out);
  }
}

std::string describe(const rapidjson::Document& doc) {
  std::string ns = string_at(doc, "metadata", "namespace");
  return string_at(doc, "kind") + " " + (ns.empty() ? "" : ns + "/") + string_at(doc, "metadata", "name");
}

bool is_manifest(const fs::path& p) {
  auto ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

}  // namespace

Result<size_t> load_text(ApiHandler& handler, const std::string& text, const std::string& origin) {
  std::vector<rapidjson::Document> parsed;
  // JSON is YAML, but RapidJSON keeps number types exact and is faster.
  rapidjson::Document json;
  json.Parse(text.data(), text.size());
  if (!json.HasParseError()) {
    parsed.push_back(std::move(json));
  } else {
    auto docs = yaml_to_json_documents(text);
    if (!docs.ok()) return Error{origin + ": " + docs.message()};
    parsed = std::move(docs.value());
  }
  std::vector<rapidjson::Document> objects;
  for (auto& d : parsed) collect(d, objects);
  // Namespaces first, so objects in them find them.
  std::stable_partition(objects.begin(), objects.end(),
                        [](const rapidjson::Document& d) { return string_at(d, "kind") == "Namespace"; });
  size_t created = 0;
  for (auto& object : objects) {
    std::string what = describe(object);
    auto result = handler.create_loaded_object(object);
    if (!result.ok()) return Error{origin + ": " + what + ": " + result.error().message};
    ++created;
  }
  return created;
}

Result<size_t> load_path(ApiHandler& handler, const std::string& path) {
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(path, ec)) {
    for (const auto& entry : fs::directory_iterator(path, ec))
      if (entry.is_regular_file() && is_manifest(entry.path())) files.push_back(entry.path());
    if (ec) return Error{"--load " + path + ": " + ec.message()};
    std::sort(files.begin(), files.end());
  } else if (fs::exists(path, ec)) {
    files.push_back(path);
  } else {
    return Error{"--load " + path + ": no such file or directory"};
  }
  size_t total = 0;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return Error{"--load " + file.string() + ": cannot read the file"};
    std::stringstream text;
    text << in.rdbuf();
    auto loaded = load_text(handler, text.str(), file.string());
    if (!loaded.ok()) return loaded.error();
    total += loaded.value();
  }
  return total;
}

}  // namespace troupe::sim
