#pragma once
// A small CSV reader for the trace files: a header row naming the columns,
// then one record per line. Fields are split on ',' with no quoting (the
// openb traces never quote); blank lines are skipped and CRLF is accepted.
// Every error names the origin and line: "pods.csv:17: ...".

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"

namespace troupe::sim::trace {

struct CsvRecord {
  size_t line = 0;  // 1-based line number in the file
  std::vector<std::string> fields;
};

class CsvTable {
 public:
  /// Splits `text`; `origin` (usually the file name) prefixes every error.
  /// A record whose field count differs from the header's is an error.
  static Result<CsvTable> parse(std::string_view text, const std::string& origin);

  const std::string& origin() const { return origin_; }
  const std::vector<std::string>& header() const { return header_; }
  const std::vector<CsvRecord>& records() const { return records_; }

  /// Index of a column; an error naming the missing column otherwise.
  Result<size_t> column(std::string_view name) const;
  /// Index of a column, or -1 when the file has no such column.
  int64_t optional_column(std::string_view name) const;

  /// "origin:line: " for messages about one record.
  std::string where(const CsvRecord& record) const;

  /// Field `column` of `record` as an integer; errors name the column and text.
  Result<int64_t> integer(const CsvRecord& record, size_t column) const;

 private:
  std::string origin_;
  std::vector<std::string> header_;
  std::vector<CsvRecord> records_;
};

/// Reads a whole file; the error names the path.
Result<std::string> read_text_file(const std::string& path);

}  // namespace troupe::sim::trace
