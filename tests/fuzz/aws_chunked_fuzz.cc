// aws-chunked upload bodies from outside bytes (PutObject / UploadPart with
// a STREAMING-* x-amz-content-sha256): DecodeAwsChunked without chunk
// signatures (STREAMING-UNSIGNED-PAYLOAD-TRAILER) and with them (a fixed
// signing key and seed, so framing is parsed up to the first signature
// check; the seed corpus holds bodies signed with this key).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "api/s3/aws_chunked_internal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const st::api::s3::ChunkSigning signing{
      .signing_key = std::string(32, '\x5a'),
      .amz_date = "20130524T000000Z",
      .scope = {.date = "20130524", .region = "us-east-1", .service = "s3"},
      .seed_signature = "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"};
  std::string_view body(reinterpret_cast<const char*>(data), size);
  auto plain = st::api::s3::DecodeAwsChunked(body, nullptr);
  if (plain.has_value() && plain->size() > body.size()) __builtin_trap();
  (void)st::api::s3::DecodeAwsChunked(body, &signing);
  return 0;
}
