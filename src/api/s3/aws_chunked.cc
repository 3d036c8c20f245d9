#include "api/s3/aws_chunked_internal.h"

namespace st::api::s3 {

namespace {

constexpr std::string_view kSignatureParam = "chunk-signature=";
constexpr size_t kMaxChunkBytes = size_t{1} << 34;

Status Malformed(const std::string& why) {
  return InvalidArgument("Malformed aws-chunked request body: " + why + ".");
}

std::optional<size_t> ParseHex(std::string_view text) {
  if (text.empty() || text.size() > 16) return std::nullopt;
  size_t value = 0;
  for (char c : text) {
    int digit = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
    if (digit < 0) return std::nullopt;
    value = value * 16 + static_cast<size_t>(digit);
  }
  return value;
}

}  // namespace

UploadFraming FramingOf(const http::Request& request) {
  std::string_view sha = request.headers.Get("x-amz-content-sha256").value_or("");
  if (sha == "STREAMING-AWS4-HMAC-SHA256-PAYLOAD" ||
      sha == "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER") {
    return UploadFraming::kChunkedSigned;
  }
  if (sha == "STREAMING-UNSIGNED-PAYLOAD-TRAILER") return UploadFraming::kChunkedUnsigned;
  return UploadFraming::kPlain;
}

Result<std::string> DecodeAwsChunked(std::string_view body, const ChunkSigning* signing) {
  std::string out;
  std::string previous = signing != nullptr ? signing->seed_signature : "";
  size_t at = 0;
  while (true) {
    size_t line_end = body.find("\r\n", at);
    if (line_end == std::string_view::npos) return Err(Malformed("a chunk header has no CRLF"));
    std::string_view header = body.substr(at, line_end - at);
    size_t semicolon = header.find(';');
    std::optional<size_t> size = ParseHex(header.substr(0, semicolon));
    if (!size.has_value() || *size > kMaxChunkBytes) {
      return Err(Malformed("bad chunk size '" + std::string(header.substr(0, semicolon)) + "'"));
    }
    at = line_end + 2;
    if (body.size() - at < *size) return Err(Malformed("a chunk is shorter than its size"));
    std::string_view bytes = body.substr(at, *size);
    if (signing != nullptr) {
      std::string_view extension =
          semicolon == std::string_view::npos ? "" : header.substr(semicolon + 1);
      if (extension.substr(0, kSignatureParam.size()) != kSignatureParam) {
        return Err(Malformed("a chunk has no chunk-signature"));
      }
      std::string_view provided = extension.substr(kSignatureParam.size());
      std::string expected = auth::ChunkSignature(signing->signing_key, signing->amz_date,
                                                  signing->scope, previous, bytes);
      if (provided != expected) {
        return Err(Status(StatusCode::kUnauthenticated,
                          "The chunk signature of chunk " + std::to_string(out.size()) +
                              " bytes into the body does not match; check the signing key."));
      }
      previous = expected;
    }
    at += *size;
    if (*size == 0) break;
    if (body.substr(at, 2) != "\r\n") return Err(Malformed("a chunk does not end in CRLF"));
    at += 2;
    out.append(bytes.data(), bytes.size());
  }
  // Trailer lines (checksums, trailer signature) up to the empty line; we
  // keep no checksums, so they are only skipped.
  while (at < body.size()) {
    size_t line_end = body.find("\r\n", at);
    if (line_end == std::string_view::npos) break;
    bool empty = line_end == at;
    at = line_end + 2;
    if (empty) break;
  }
  return out;
}

}  // namespace st::api::s3
