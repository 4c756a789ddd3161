#include "sim/server_side_table.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "model/text.hpp"
#include "sim/table_printers.hpp"

namespace troupe::sim {

namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

/// One media range of an Accept header: "application/json;as=Table;v=v1;g=meta.k8s.io".
struct MediaRange {
  std::string type;
  std::map<std::string, std::string> params;
};

std::vector<MediaRange> parse_accept(const std::string& accept) {
  std::vector<MediaRange> out;
  size_t start = 0;
  while (start <= accept.size()) {
    size_t end = accept.find(',', start);
    if (end == std::string::npos) end = accept.size();
    std::string_view range(accept.data() + start, end - start);
    MediaRange parsed;
    size_t at = 0;
    for (bool first = true; at <= range.size(); first = false) {
      size_t semicolon = range.find(';', at);
      if (semicolon == std::string_view::npos) semicolon = range.size();
      std::string part = trim(range.substr(at, semicolon - at));
      if (first) {
        parsed.type = ascii_lower(std::move(part));
      } else if (auto equals = part.find('='); equals != std::string::npos) {
        parsed.params[trim(std::string_view(part).substr(0, equals))] = trim(std::string_view(part).substr(equals + 1));
      }
      at = semicolon + 1;
    }
    if (!parsed.type.empty()) out.push_back(std::move(parsed));
    start = end + 1;
  }
  return out;
}

const std::string* param(const MediaRange& range, const char* name) {
  auto it = range.params.find(name);
  return it == range.params.end() ? nullptr : &it->second;
}

bool is_json(const MediaRange& range) {
  return range.type == "application/json" || range.type == "application/*" || range.type == "*/*";
}

/// A Table version this server prints for the range, if it asks for one.
std::optional<std::string> table_version(const MediaRange& range) {
  const std::string* as = param(range, "as");
  const std::string* group = param(range, "g");
  const std::string* version = param(range, "v");
  if (as == nullptr || *as != "Table" || group == nullptr || *group != "meta.k8s.io" || version == nullptr)
    return std::nullopt;
  if (*version != "v1" && *version != "v1beta1") return std::nullopt;
  return "meta.k8s.io/" + *version;
}

ApiResult<IncludeObject> include_object(const std::map<std::string, std::string>& query) {
  auto it = query.find("includeObject");
  if (it == query.end() || it->second.empty() || it->second == "Metadata") return IncludeObject::metadata;
  if (it->second == "None") return IncludeObject::none;
  if (it->second == "Object") return IncludeObject::object;
  return bad_request("includeObject: Unsupported value: \"" + it->second +
                     "\": supported values: \"None\", \"Metadata\", \"Object\"");
}

void write_string(JsonWriter& w, const std::string& text) { w.String(text.c_str(), static_cast<rapidjson::SizeType>(text.size())); }

void write_columns(JsonWriter& w, const std::vector<TableColumn>& columns) {
  w.Key("columnDefinitions");
  w.StartArray();
  for (const auto& c : columns) {
    w.StartObject();
    w.Key("name"), w.String(c.name);
    w.Key("type"), w.String(c.type);
    w.Key("format"), w.String(c.format);
    w.Key("description"), w.String(c.description);
    w.Key("priority"), w.Int(c.priority);
    w.EndObject();
  }
  w.EndArray();
}

void write_cells(JsonWriter& w, const PrintedRow& row) {
  w.Key("cells");
  w.StartArray();
  for (const auto& cell : row.cells) {
    if (const auto* text = std::get_if<std::string>(&cell)) {
      write_string(w, *text);
    } else if (const auto* number = std::get_if<int64_t>(&cell)) {
      w.Int64(*number);
    } else {
      w.Null();
    }
  }
  w.EndArray();
  if (row.conditions.empty()) return;
  w.Key("conditions");
  w.StartArray();
  for (const auto& c : row.conditions) {
    w.StartObject();
    w.Key("type"), write_string(w, c.type);
    w.Key("status"), write_string(w, c.status);
    w.Key("reason"), write_string(w, c.reason);
    w.Key("message"), write_string(w, c.message);
    w.EndObject();
  }
  w.EndArray();
}

/// The row's object: the metadata as a PartialObjectMetadata of the Table's version, or the whole object.
void write_row_object(JsonWriter& w, const TableRequest& request, const rapidjson::Value& parsed) {
  if (request.include == IncludeObject::none) return;
  w.Key("object");
  if (request.include == IncludeObject::object) {
    parsed.Accept(w);
    return;
  }
  w.StartObject();
  w.Key("kind"), w.String("PartialObjectMetadata");
  w.Key("apiVersion"), write_string(w, request.api_version);
  w.Key("metadata");
  auto meta = parsed.FindMember("metadata");
  if (meta != parsed.MemberEnd() && meta->value.IsObject()) {
    meta->value.Accept(w);
  } else {
    w.StartObject(), w.EndObject();
  }
  w.EndObject();
}

}  // namespace

ApiResult<std::optional<TableRequest>> table_request(const std::string& accept,
                                                     const std::map<std::string, std::string>& query) {
  const auto ranges = parse_accept(accept);
  if (ranges.empty()) return std::optional<TableRequest>();
  for (const auto& range : ranges) {
    if (!is_json(range)) continue;
    if (param(range, "as") == nullptr) return std::optional<TableRequest>();
    auto version = table_version(range);
    if (!version) continue;
    auto include = include_object(query);
    if (!include.ok()) return include.error();
    return std::optional<TableRequest>(TableRequest{*version, include.value()});
  }
  // Nothing served was asked for (protobuf, PartialObjectMetadata, YAML):
  // JSON, as this server answered before it printed Tables, rather than
  // kube-apiserver's 406 for clients that decode JSON anyway.
  return std::optional<TableRequest>();
}

std::string table_json(const ResourceInfo& resource, const TableRequest& request, const std::vector<ObjectPtr>& objects,
                       const TableListMeta& meta, Timestamp now) {
  const TablePrinter& printer = printer_for(resource.group, resource.kind);
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("kind"), w.String("Table");
  w.Key("apiVersion"), write_string(w, request.api_version);
  w.Key("metadata");
  w.StartObject();
  w.Key("resourceVersion"), write_string(w, std::to_string(meta.resource_version));
  if (!meta.continue_token.empty()) w.Key("continue"), write_string(w, meta.continue_token);
  w.EndObject();
  write_columns(w, printer.columns);
  w.Key("rows");
  w.StartArray();
  for (const auto& object : objects) {
    // Parsed once: the printer reads it and the row may carry it, as this API serves it.
    rapidjson::Document parsed;
    parsed.Parse(object->json.data(), object->json.size());
    if (parsed.HasParseError() || !parsed.IsObject()) continue;  // the store holds only objects it parsed
    to_served_schema(resource, parsed);
    w.StartObject();
    write_cells(w, printer.print(parsed, now));
    write_row_object(w, request, parsed);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace troupe::sim
