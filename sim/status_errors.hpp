#pragma once
// metav1.Status bodies: every error the API server answers with, and the
// Success statuses of bindings, evictions and deletes. Messages follow
// k8s.io/apimachinery/pkg/api/errors so clients that match on them keep working.

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace troupe::sim {

struct ResourceInfo;

struct StatusCause {
  std::string reason; // "FieldValueRequired"
  std::string message;
  std::string field;  // "spec.containers"
};

/// An error as the API server reports it: HTTP code, CamelCase reason, message
/// and details. `details_kind` is the resource plural (or the Kind for 422).
struct ApiError {
  int code = 500;
  std::string reason;
  std::string message;
  std::string details_name;
  std::string details_group;
  std::string details_kind;
  std::vector<StatusCause> causes;
  int retry_after_seconds = 0; // > 0: details.retryAfterSeconds and a Retry-After header

  /// The Status JSON body (no trailing newline).
  std::string to_json() const;
};

// Constructors named after apimachinery's errors.NewXxx.
ApiError not_found(const ResourceInfo& resource, const std::string& name);
ApiError path_not_found(); // "the server could not find the requested resource"
ApiError already_exists(const ResourceInfo& resource, const std::string& name);
/// "Operation cannot be fulfilled on <what> "<name>": <why>"; `what` is e.g. "pods" or "pods/binding".
ApiError conflict(const std::string& what, const std::string& group, const std::string& name, const std::string& why);
ApiError optimistic_lock_conflict(const ResourceInfo& resource, const std::string& name);
ApiError invalid(const ResourceInfo& resource, const std::string& name, std::vector<StatusCause> causes);
StatusCause required_field(const std::string& field, const std::string& detail = "");
StatusCause invalid_field(const std::string& field, const std::string& value_json, const std::string& detail);
StatusCause duplicate_field(const std::string& field, const std::string& value_json);
StatusCause forbidden_field(const std::string& field, const std::string& detail);
ApiError bad_request(std::string message);
ApiError method_not_allowed(const std::string& verb, const std::string& kind);
ApiError unsupported_media_type(const std::string& accepted);
ApiError too_many_requests(std::string message, std::vector<StatusCause> causes, int retry_after_seconds);
ApiError expired(std::string message);
ApiError unauthorized();
ApiError forbidden(const ResourceInfo& resource, const std::string& name, const std::string& why);
ApiError request_entity_too_large(size_t limit);
ApiError internal_error(const std::string& what);
ApiError timeout_error(std::string message);
/// storage.NewTooLargeResourceVersionError: 504 with a ResourceVersionTooLarge
/// cause and retryAfterSeconds 1, which client-go recognises and retries.
ApiError too_large_resource_version(uint64_t wanted, uint64_t current);

/// {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}
std::string success_status(int code);
/// The Success Status a DELETE returns for kinds that do not return the object.
std::string deleted_status(const ResourceInfo& resource, const std::string& name, const std::string& uid);

/// A value or an ApiError.
template <class T>
class ApiResult {
 public:
  ApiResult(T value) : state_(std::move(value)) {}
  ApiResult(ApiError error) : state_(std::move(error)) {}
  bool ok() const { return state_.index() == 0; }
  T& value() { return std::get<0>(state_); }
  const T& value() const { return std::get<0>(state_); }
  const ApiError& error() const { return std::get<1>(state_); }
  ApiError& error() { return std::get<1>(state_); }

 private:
  std::variant<T, ApiError> state_;
};

}  // namespace troupe::sim
