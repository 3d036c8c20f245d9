#include "common/status.h"

#include <cstdio>
#include <cstdlib>

namespace st {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidArgument:
      return "invalid_argument";
    case StatusCode::kNotFound:
      return "not_found";
    case StatusCode::kAlreadyExists:
      return "already_exists";
    case StatusCode::kConflict:
      return "conflict";
    case StatusCode::kCommitStateUnknown:
      return "commit_state_unknown";
    case StatusCode::kFailedPrecondition:
      return "failed_precondition";
    case StatusCode::kUnauthenticated:
      return "unauthenticated";
    case StatusCode::kAccessDenied:
      return "access_denied";
    case StatusCode::kUnsupported:
      return "unsupported";
    case StatusCode::kCorruption:
      return "corruption";
    case StatusCode::kIo:
      return "io";
    case StatusCode::kUnavailable:
      return "unavailable";
    case StatusCode::kCancelled:
      return "cancelled";
    case StatusCode::kInternal:
      return "internal";
  }
  return "unknown";
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string out(StatusCodeName(code_));
  out += ": ";
  out += message_;
  return out;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string msg(context);
  msg += ": ";
  msg += message_;
  return Status(code_, std::move(msg));
}

Status InvalidArgument(std::string m) { return Status(StatusCode::kInvalidArgument, std::move(m)); }
Status NotFound(std::string m) { return Status(StatusCode::kNotFound, std::move(m)); }
Status AlreadyExists(std::string m) { return Status(StatusCode::kAlreadyExists, std::move(m)); }
Status Conflict(std::string m) { return Status(StatusCode::kConflict, std::move(m)); }
Status FailedPrecondition(std::string m) {
  return Status(StatusCode::kFailedPrecondition, std::move(m));
}
Status Unsupported(std::string m) { return Status(StatusCode::kUnsupported, std::move(m)); }
Status Corruption(std::string m) { return Status(StatusCode::kCorruption, std::move(m)); }
Status IoError(std::string m) { return Status(StatusCode::kIo, std::move(m)); }
Status Internal(std::string m) { return Status(StatusCode::kInternal, std::move(m)); }

namespace internal {
void CheckFailed(const char* cond, const char* file, int line) {
  std::fprintf(stderr, "ST_CHECK failed: %s at %s:%d\n", cond, file, line);
  std::abort();
}
}  // namespace internal

}  // namespace st
