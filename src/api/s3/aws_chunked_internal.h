// The aws-chunked body framing of streaming uploads (docs/api-contract-notes.md §4.4):
//   hex(size)[;chunk-signature=<sig>]\r\n<bytes>\r\n ... 0[;...]\r\n
//   [trailer-name:value\r\n ...]\r\n
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "auth/sigv4.h"
#include "common/status.h"
#include "http/request.h"

namespace st::api::s3 {

// What chunk signatures are checked against (from the verified request).
struct ChunkSigning {
  std::string signing_key;
  std::string amz_date;
  auth::CredentialScope scope;
  std::string seed_signature;
};

// The payload carried by `body`. With `signing`, every chunk (the final empty
// one too) must carry the chunk signature chained from the seed. Errors:
// InvalidArgument (malformed framing, a missing or truncated chunk),
// Unauthenticated (a chunk signature that does not match).
Result<std::string> DecodeAwsChunked(std::string_view body, const ChunkSigning* signing);

// How an upload's body is framed, from x-amz-content-sha256.
enum class UploadFraming { kPlain, kChunkedSigned, kChunkedUnsigned };
UploadFraming FramingOf(const http::Request& request);

}  // namespace st::api::s3
