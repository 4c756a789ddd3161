#pragma once
// Declares the json_fields overload pair through which a view type is read
// by JsonReader and written by JsonWriter. Headers of view types include only
// this; the field list itself lives in the type's .cpp, written once as a
// template over the reader/writer and bound with TROUPE_JSON_FIELDS.

namespace troupe {

class JsonReader;
class JsonWriter;

}  // namespace troupe

/// In a header, inside namespace troupe: TROUPE_DECLARE_JSON_FIELDS(Taint)
#define TROUPE_DECLARE_JSON_FIELDS(Type)         \
  void json_fields(JsonReader& io, Type& value); \
  void json_fields(JsonWriter& io, const Type& value);

/// In the .cpp, inside namespace troupe, after `template <class Io, class T>
/// void taint_fields(Io& io, T& t)`: TROUPE_JSON_FIELDS(Taint, taint_fields)
#define TROUPE_JSON_FIELDS(Type, fields)                                           \
  void json_fields(JsonReader& io, Type& value) { fields(io, value); }            \
  void json_fields(JsonWriter& io, const Type& value) { fields(io, value); }
