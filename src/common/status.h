// Status and Result<T>: the one error idiom of streamtables.
//
// A Status is either OK or carries a StatusCode chosen by what the caller does
// next, and a message that names the object involved and, where possible, the
// fix. Result<T> is tl::expected<T, Status>; a Result never holds an OK Status
// as its error. Exceptions never cross module boundaries: adapters that call
// throwing libraries catch and convert.
#pragma once

#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>  // Must precede Asio users; see TOOLCHAIN-NOTES.md.

namespace st {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,     // The caller sent something malformed; fix the input.
  kNotFound,            // The named object does not exist.
  kAlreadyExists,       // Creating something that exists.
  kConflict,            // Optimistic concurrency lost; re-read and retry.
  kCommitStateUnknown,  // A commit may or may not have happened; re-read, never blind-retry.
  kFailedPrecondition,  // The system is not in the state the operation needs.
  kUnauthenticated,     // No or bad credentials.
  kAccessDenied,        // Credentials fine, permission missing.
  kUnsupported,         // Valid request for something we do not implement.
  kCorruption,          // Stored or received bytes violate their format.
  kIo,                  // The filesystem or network failed.
  kUnavailable,         // Transient; retry with backoff.
  kCancelled,           // The operation was cancelled.
  kInternal,            // A bug: an invariant broke.
};

// Stable lower-case name of a code ("invalid_argument", ...), for logs and wire errors.
std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "<code name>: <message>", or "ok".
  std::string ToString() const;

  // Returns a copy whose message is "<context>: <message>"; OK stays OK.
  Status WithContext(std::string_view context) const;

  friend bool operator==(const Status& a, const Status& b) {
    return a.code_ == b.code_ && a.message_ == b.message_;
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

template <typename T>
using Result = tl::expected<T, Status>;

// Wraps a non-OK Status for returning from a function that returns Result<T>.
inline tl::unexpected<Status> Err(Status status) {
  return tl::unexpected<Status>(std::move(status));
}
inline tl::unexpected<Status> Err(StatusCode code, std::string message) {
  return tl::unexpected<Status>(Status(code, std::move(message)));
}

// Shorthands for the common codes.
Status InvalidArgument(std::string message);
Status NotFound(std::string message);
Status AlreadyExists(std::string message);
Status Conflict(std::string message);
Status FailedPrecondition(std::string message);
Status Unsupported(std::string message);
Status Corruption(std::string message);
Status IoError(std::string message);
Status Internal(std::string message);

namespace internal {
// What ST_TRY returns: converts to a Status or to any Result<T> holding the error.
struct ErrorReturn {
  Status status;
  operator Status() && { return std::move(status); }
  template <typename T>
  operator Result<T>() && {
    return tl::unexpected<Status>(std::move(status));
  }
};
inline Status ToStatus(const Status& s) { return s; }
template <typename T>
Status ToStatus(const Result<T>& r) {
  return r.has_value() ? Status::OK() : r.error();
}
}  // namespace internal

}  // namespace st

#define ST_CONCAT_INNER(a, b) a##b
#define ST_CONCAT(a, b) ST_CONCAT_INNER(a, b)

// Evaluates `expr` (a Status or Result<T>) and returns its error from the
// enclosing function (which returns Status or Result<U>) if it failed.
#define ST_TRY(expr)                                                                         \
  do {                                                                                       \
    ::st::Status st_try_status_ = ::st::internal::ToStatus((expr));                          \
    if (!st_try_status_.ok()) return ::st::internal::ErrorReturn{std::move(st_try_status_)}; \
  } while (0)

// ST_ASSIGN_OR_RETURN(auto x, MakeX()); — declares/assigns from a Result<T>,
// returning the error from the enclosing function on failure. It expands to
// several statements: never use it as the unbraced body of an if/for/while.
#define ST_ASSIGN_OR_RETURN(lhs, expr) \
  ST_ASSIGN_OR_RETURN_IMPL(ST_CONCAT(st_result_, __LINE__), lhs, expr)
#define ST_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)                                    \
  auto tmp = (expr);                                                                \
  if (!tmp.has_value()) return ::st::internal::ErrorReturn{std::move(tmp).error()}; \
  lhs = std::move(tmp).value()

// For broken invariants only (bugs), never for bad input: aborts with a message.
#define ST_CHECK(cond)                                                   \
  do {                                                                   \
    if (!(cond)) ::st::internal::CheckFailed(#cond, __FILE__, __LINE__); \
  } while (0)

namespace st::internal {
[[noreturn]] void CheckFailed(const char* cond, const char* file, int line);
}  // namespace st::internal
