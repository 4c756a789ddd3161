#pragma once
// What `kubectl get` shows for an object, as kube-apiserver prints it into a
// server-side Table (pkg/printers/internalversion/printers.go): the columns
// of Pods, Nodes, Events, Namespaces, ConfigMaps, Leases and
// PodDisruptionBudgets with their cells, the wide columns (`-o wide`) at
// priority 1; Reservations and PodMigrationJobs get the
// additionalPrinterColumns of Koordinator's CRDs (deploy/crds/); every other
// kind gets Name and Age, as a custom resource without printer columns does.

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include <rapidjson/document.h>

#include "model/timestamp.hpp"

namespace troupe::sim {

struct TableColumn {
  const char* name;
  const char* type;    // "string", "integer", "date"
  const char* format;  // "name" for the object's name, else ""
  const char* description;
  int priority;        // 0: always shown; 1: with -o wide
};

/// A cell: text, a number, or null (a custom column's absent value; kubectl leaves the cell empty).
using TableCell = std::variant<std::string, int64_t, std::monostate>;

/// A row's condition (metav1.TableRowCondition): pods that ran to an end are "Completed".
struct TableRowCondition {
  std::string type, status, reason, message;
};

struct PrintedRow {
  std::vector<TableCell> cells;  // one per column
  std::vector<TableRowCondition> conditions;
};

/// The columns and cells of one kind.
struct TablePrinter {
  std::vector<TableColumn> columns;
  std::function<PrintedRow(const rapidjson::Value& object, Timestamp now)> print;
};

/// The printer for objects of `kind` in API group `group` ("" for core).
const TablePrinter& printer_for(const std::string& group, const std::string& kind);

}  // namespace troupe::sim
