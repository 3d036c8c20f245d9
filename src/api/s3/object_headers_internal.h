// The header grammar GetObject / HeadObject need: Range (RFC 9110 §14, the
// single-range forms S3 serves) and HTTP dates.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "http/http_error.h"
#include "http/response.h"
#include "storage/object_store.h"

namespace st::api::s3 {

struct ByteRange {
  int64_t first = 0;
  int64_t length = 0;  // >= 1
};

// Interprets a Range header against an object of `size` bytes:
//   bytes=a-b (b clamped to the end), bytes=a-, bytes=-n (the last n bytes).
// nullopt means "send the whole object": no header, a malformed header, a
// unit other than bytes, or several ranges (S3 ignores those too).
// Errors: FailedPrecondition when the range is well-formed but
// unsatisfiable (a >= size, or -0) — the caller answers 416 InvalidRange.
Result<std::optional<ByteRange>> ResolveRange(std::optional<std::string_view> header, int64_t size);

// "Wed, 21 Oct 2015 07:28:00 GMT" (RFC 1123, for Last-Modified).
std::string HttpDate(std::chrono::system_clock::time_point time);
// Parses the RFC 1123 form; nullopt when it is not one (If-Modified-Since
// with a bad date is ignored, as RFC 9110 says).
std::optional<std::chrono::system_clock::time_point> ParseHttpDate(std::string_view text);

// x-amz-server-side-encryption (and -aws-kms-key-id for SSE-KMS) of `info`.
void SetEncryptionHeaders(const storage::ObjectInfo& info, http::Response& response);
// A store error as the S3 error a client matches on: a KMS refusal
// ("KMS.<Exception>: ...", server/object_encryption.h) keeps the KMS name as
// its code (400, 403 for a denial); any other error as it is.
http::HttpError KmsAwareError(const Status& error);

}  // namespace st::api::s3
