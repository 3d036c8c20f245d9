// An error on its way to the wire, and the per-surface writer that shapes it.
//
// Handlers mostly just return a Status (through Result<Response>); the
// surface's ErrorWriter picks the HTTP status and the wire code from the
// StatusCode. When a surface needs a more specific code than the StatusCode
// implies (S3 "NoSuchBucket" vs "NoSuchKey", Iceberg "NoSuchNamespaceException"
// vs "NoSuchTableException", SigV4's "SignatureDoesNotMatch"), it builds an
// HttpError with `wire_code` set.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "http/request.h"
#include "http/response.h"

namespace st::http {

struct HttpError {
  HttpError() = default;
  // Implicit on purpose: every Status is a valid HttpError.
  HttpError(Status s) : status(std::move(s)) {}  // NOLINT(google-explicit-constructor)
  HttpError(Status s, int http, std::string code)
      : status(std::move(s)), http_status(http), wire_code(std::move(code)) {}

  Status status;  // Code decides the defaults; message goes to the client.
  // 0: derived from status.code() by the writer.
  int http_status = 0;
  // "": derived from http_status (when set) or status.code() by the writer.
  std::string wire_code;
  // S3 <Resource>; "" means the request's raw path. Ignored by JSON shapes.
  std::string resource;
  // Extra elements for S3 XML (<Key>, <BucketName>, <StringToSign>, ...), in
  // order. Ignored by JSON shapes.
  std::vector<std::pair<std::string, std::string>> details;
};

// Turns an HttpError into a Response in one API surface's error shape.
// Implementations are immutable after construction and thread-safe.
class ErrorWriter {
 public:
  virtual ~ErrorWriter() = default;
  // Never fails. `request` may be partially filled (method and raw_path can be
  // empty when the request line itself was rejected).
  virtual Response Write(const Request& request, const HttpError& error) const = 0;
};

}  // namespace st::http
