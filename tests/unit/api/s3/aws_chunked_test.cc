#include <gtest/gtest.h>

#include "api/s3/aws_chunked_internal.h"

namespace st::api::s3 {
namespace {

std::string Hex(size_t n) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%zx", n);
  return buffer;
}

ChunkSigning Signing() {
  return ChunkSigning{std::string(32, 'k'), "20261130T000000Z",
                      auth::CredentialScope{"20261130", "us-east-1", "s3"}, std::string(64, 'a')};
}

// Frames `chunks` (plus the final empty chunk) the way SDKs do.
std::string Frame(const std::vector<std::string>& chunks, const ChunkSigning* signing,
                  const std::string& trailer = "") {
  std::string body;
  std::string previous = signing != nullptr ? signing->seed_signature : "";
  std::vector<std::string> all = chunks;
  all.emplace_back();
  for (const std::string& chunk : all) {
    body += Hex(chunk.size());
    if (signing != nullptr) {
      previous = auth::ChunkSignature(signing->signing_key, signing->amz_date, signing->scope,
                                      previous, chunk);
      body += ";chunk-signature=" + previous;
    }
    body += "\r\n" + chunk;
    if (!chunk.empty()) body += "\r\n";
  }
  return body + trailer + "\r\n";
}

TEST(AwsChunkedTest, DecodesAndVerifiesSignedChunks) {
  ChunkSigning signing = Signing();
  std::string body = Frame({std::string(70000, 'x'), "tail"}, &signing);
  auto decoded = DecodeAwsChunked(body, &signing);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().ToString();
  EXPECT_EQ(*decoded, std::string(70000, 'x') + "tail");

  // One flipped payload byte breaks that chunk's signature.
  std::string tampered = body;
  tampered[tampered.find("\r\n") + 10] = 'y';
  EXPECT_EQ(DecodeAwsChunked(tampered, &signing).error().code(), StatusCode::kUnauthenticated);
  // A different seed (another request's signature) breaks the chain.
  ChunkSigning other = signing;
  other.seed_signature = std::string(64, 'b');
  EXPECT_EQ(DecodeAwsChunked(body, &other).error().code(), StatusCode::kUnauthenticated);
  // Unsigned framing is refused when signatures are expected.
  EXPECT_EQ(DecodeAwsChunked(Frame({"abc"}, nullptr), &signing).error().code(),
            StatusCode::kInvalidArgument);
}

TEST(AwsChunkedTest, UnsignedWithTrailerAndMalformed) {
  std::string body = Frame({"hello ", "world"}, nullptr, "x-amz-checksum-crc32:DUoRhQ==\r\n");
  EXPECT_EQ(DecodeAwsChunked(body, nullptr).value(), "hello world");
  EXPECT_EQ(DecodeAwsChunked("", nullptr).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(DecodeAwsChunked("zz\r\nabc\r\n0\r\n\r\n", nullptr).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(DecodeAwsChunked("10\r\nabc\r\n0\r\n\r\n", nullptr).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(DecodeAwsChunked("3\r\nabcX\r\n0\r\n\r\n", nullptr).error().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace st::api::s3
