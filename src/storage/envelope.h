// The envelope an encrypted object is stored in (README.md "Envelope
// format"): a header naming the protection and the wrapped data key, then
// the plaintext in fixed-size segments, each sealed with AES-256-GCM on its
// own so a range read opens only the segments it touches.
//
// Every segment's associated data is the whole header, the segment index and
// a final-segment flag, so a changed header byte, a segment moved to another
// index, a dropped tail (the new last segment is not marked final) or a
// changed ciphertext byte fails the read; a reader never sees wrong bytes.
// The plaintext length is not stored: it follows from the stored length,
// which the final flag authenticates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "storage/object_store.h"

namespace st::storage {

// "\x89STE\r\n\x1a\n": binary, and unlike any table file's first bytes
// (Parquet "PAR1", Avro "Obj\x01", JSON '{').
inline constexpr std::string_view kEnvelopeMagic{"\x89STE\r\n\x1a\n", 8};
inline constexpr unsigned char kEnvelopeVersion = 0x01;
inline constexpr uint32_t kDefaultSegmentBytes = 64 * 1024;
inline constexpr size_t kSegmentTagBytes = 16;
inline constexpr size_t kNoncePrefixBytes = 8;
inline constexpr size_t kDataKeyBytes = 32;
// Fixed part: magic, version, algorithm, 2 reserved, header length (u32),
// segment size (u32), nonce prefix.
inline constexpr size_t kEnvelopeFixedBytes = 8 + 1 + 1 + 2 + 4 + 4 + kNoncePrefixBytes;
inline constexpr size_t kMaxEnvelopeHeaderBytes = 16 * 1024;
inline constexpr uint32_t kMinSegmentBytes = 1024;
inline constexpr uint32_t kMaxSegmentBytes = 4 * 1024 * 1024;

struct EnvelopeHeader {
  SseKind sse = SseKind::kSseS3;  // Never kNone.
  uint32_t segment_bytes = kDefaultSegmentBytes;
  std::string nonce_prefix;  // kNoncePrefixBytes random bytes.
  std::string kms_key_arn;   // Empty for SSE-S3.
  std::string context_arn;
  std::string wrapped_key;
};

// Whether `prefix` (an object's first bytes) starts with the magic.
bool HasEnvelopeMagic(std::string_view prefix);

// The header's bytes. Errors: InvalidArgument when a field is too long or
// the segment size is out of range.
Result<std::string> SerializeEnvelopeHeader(const EnvelopeHeader& header);

// The total header length announced by `prefix` (at least
// kEnvelopeFixedBytes bytes of an enveloped object). Errors: Corruption.
Result<size_t> EnvelopeHeaderLength(std::string_view prefix);

// Parses exactly one header from `bytes` (its length is the header's).
// Unauthenticated: the segments authenticate it. Errors: Corruption (never
// reads beyond `bytes`).
Result<EnvelopeHeader> ParseEnvelopeHeader(std::string_view bytes);

// Stored length of a plaintext of `plaintext_bytes` (an empty plaintext is
// one empty, final segment: a tag alone).
int64_t EnvelopeStoredSize(int64_t plaintext_bytes, size_t header_bytes, uint32_t segment_bytes);
// The inverse. Errors: Corruption when no plaintext length stores as
// `stored_bytes` (a truncated tag).
Result<int64_t> EnvelopePlaintextSize(int64_t stored_bytes, size_t header_bytes,
                                      uint32_t segment_bytes);
// How many segments a plaintext of `plaintext_bytes` has (>= 1).
int64_t EnvelopeSegmentCount(int64_t plaintext_bytes, uint32_t segment_bytes);

// AES-256-GCM over the segments of one object. Not thread-safe.
class SegmentCipher {
 public:
  // `key`: kDataKeyBytes. `header_bytes`: the serialized header (authenticated
  // with every segment). Errors: InvalidArgument, Internal (OpenSSL).
  static Result<std::unique_ptr<SegmentCipher>> Make(std::string_view key,
                                                     std::string_view header_bytes,
                                                     std::string_view nonce_prefix);
  ~SegmentCipher();
  SegmentCipher(const SegmentCipher&) = delete;
  SegmentCipher& operator=(const SegmentCipher&) = delete;

  // Appends the ciphertext and tag of segment `index` to `out`.
  Status Seal(uint64_t index, bool final, std::string_view plaintext, std::string& out);
  // Writes the plaintext of the sealed segment `sealed` (ciphertext + tag)
  // into `out` (capacity sealed.size() - kSegmentTagBytes). Errors: Corruption
  // when it does not authenticate; `out` then holds nothing usable.
  Status Open(uint64_t index, bool final, std::string_view sealed, char* out);

 private:
  SegmentCipher() = default;
  std::string Nonce(uint64_t index) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace st::storage
