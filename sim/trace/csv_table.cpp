#include "sim/trace/csv_table.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

namespace troupe::sim::trace {

namespace {

std::vector<std::string> split_fields(std::string_view line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      fields.emplace_back(line.substr(start));
      return fields;
    }
    fields.emplace_back(line.substr(start, comma - start));
    start = comma + 1;
  }
}

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

}  // namespace

Result<CsvTable> CsvTable::parse(std::string_view text, const std::string& origin) {
  CsvTable table;
  table.origin_ = origin;
  size_t line_number = 0;
  size_t pos = 0;
  bool have_header = false;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (is_blank(line)) continue;
    auto fields = split_fields(line);
    if (!have_header) {
      table.header_ = std::move(fields);
      have_header = true;
      continue;
    }
    if (fields.size() != table.header_.size())
      return Error{origin + ":" + std::to_string(line_number) + ": expected " + std::to_string(table.header_.size()) +
                   " fields (" + std::to_string(table.header_.size()) + " columns in the header), got " +
                   std::to_string(fields.size())};
    table.records_.push_back(CsvRecord{line_number, std::move(fields)});
  }
  if (!have_header) return Error{origin + ": empty file, expected a header row"};
  return table;
}

Result<size_t> CsvTable::column(std::string_view name) const {
  int64_t index = optional_column(name);
  if (index < 0) return Error{origin_ + ":1: missing column '" + std::string(name) + "'"};
  return static_cast<size_t>(index);
}

int64_t CsvTable::optional_column(std::string_view name) const {
  for (size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return static_cast<int64_t>(i);
  return -1;
}

std::string CsvTable::where(const CsvRecord& record) const { return origin_ + ":" + std::to_string(record.line) + ": "; }

Result<int64_t> CsvTable::integer(const CsvRecord& record, size_t column) const {
  const std::string& text = record.fields[column];
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return Error{where(record) + "column " + header_[column] + ": '" + text + "' is not an integer"};
  return value;
}

Result<std::string> read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open: " + std::strerror(errno)};
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) return Error{path + ": read failed"};
  return out.str();
}

}  // namespace troupe::sim::trace
