#include "storage/envelope.h"

#include <openssl/evp.h>

#include <cstring>

namespace st::storage {

namespace {

constexpr size_t kMaxFieldBytes = 4096;

void PutU16(std::string& out, size_t v) {
  out += static_cast<char>((v >> 8) & 0xff);
  out += static_cast<char>(v & 0xff);
}

void PutU32(std::string& out, uint64_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xff);
}

uint32_t GetU32(std::string_view bytes, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

Status Bad(const std::string& what) {
  return Status(StatusCode::kCorruption, "encrypted object header: " + what);
}

// Reads a u16-length-prefixed field at `*at`, advancing it.
Result<std::string> Field(std::string_view bytes, size_t* at, const char* name) {
  if (bytes.size() - *at < 2) return Err(Bad(std::string("truncated before ") + name));
  size_t n =
      (static_cast<unsigned char>(bytes[*at]) << 8) | static_cast<unsigned char>(bytes[*at + 1]);
  *at += 2;
  if (n > kMaxFieldBytes || bytes.size() - *at < n) {
    return Err(Bad(std::string(name) + " longer than the header"));
  }
  std::string out(bytes.substr(*at, n));
  *at += n;
  return out;
}

}  // namespace

bool HasEnvelopeMagic(std::string_view prefix) {
  return prefix.size() >= kEnvelopeMagic.size() &&
         prefix.substr(0, kEnvelopeMagic.size()) == kEnvelopeMagic;
}

Result<std::string> SerializeEnvelopeHeader(const EnvelopeHeader& header) {
  if (header.sse == SseKind::kNone) return Err(InvalidArgument("envelope without encryption"));
  if (header.segment_bytes < kMinSegmentBytes || header.segment_bytes > kMaxSegmentBytes) {
    return Err(InvalidArgument("envelope segment size out of range"));
  }
  if (header.nonce_prefix.size() != kNoncePrefixBytes) {
    return Err(InvalidArgument("envelope nonce prefix must be 8 bytes"));
  }
  for (const std::string* field : {&header.kms_key_arn, &header.context_arn, &header.wrapped_key}) {
    if (field->size() > kMaxFieldBytes) return Err(InvalidArgument("envelope field too long"));
  }
  std::string out(kEnvelopeMagic);
  out += static_cast<char>(kEnvelopeVersion);
  out += static_cast<char>(header.sse == SseKind::kSseKms ? 2 : 1);
  out += std::string(2, '\0');
  size_t length = kEnvelopeFixedBytes + 6 + header.kms_key_arn.size() + header.context_arn.size() +
                  header.wrapped_key.size();
  PutU32(out, length);
  PutU32(out, header.segment_bytes);
  out += header.nonce_prefix;
  for (const std::string* field : {&header.kms_key_arn, &header.context_arn, &header.wrapped_key}) {
    PutU16(out, field->size());
    out += *field;
  }
  return out;
}

Result<size_t> EnvelopeHeaderLength(std::string_view prefix) {
  if (prefix.size() < kEnvelopeFixedBytes || !HasEnvelopeMagic(prefix)) {
    return Err(Bad("no envelope magic"));
  }
  if (static_cast<unsigned char>(prefix[8]) != kEnvelopeVersion) {
    return Err(
        Bad("unknown format version " + std::to_string(static_cast<unsigned char>(prefix[8]))));
  }
  uint32_t length = GetU32(prefix, 12);
  if (length < kEnvelopeFixedBytes + 6 || length > kMaxEnvelopeHeaderBytes) {
    return Err(Bad("header length " + std::to_string(length) + " out of range"));
  }
  return static_cast<size_t>(length);
}

Result<EnvelopeHeader> ParseEnvelopeHeader(std::string_view bytes) {
  ST_ASSIGN_OR_RETURN(size_t length, EnvelopeHeaderLength(bytes));
  if (length != bytes.size()) return Err(Bad("header length does not match"));
  EnvelopeHeader header;
  unsigned char algorithm = static_cast<unsigned char>(bytes[9]);
  if (algorithm == 1) {
    header.sse = SseKind::kSseS3;
  } else if (algorithm == 2) {
    header.sse = SseKind::kSseKms;
  } else {
    return Err(Bad("unknown algorithm " + std::to_string(algorithm)));
  }
  if (bytes[10] != 0 || bytes[11] != 0) return Err(Bad("reserved bytes set"));
  header.segment_bytes = GetU32(bytes, 16);
  if (header.segment_bytes < kMinSegmentBytes || header.segment_bytes > kMaxSegmentBytes) {
    return Err(Bad("segment size out of range"));
  }
  header.nonce_prefix = std::string(bytes.substr(20, kNoncePrefixBytes));
  size_t at = kEnvelopeFixedBytes;
  ST_ASSIGN_OR_RETURN(header.kms_key_arn, Field(bytes, &at, "key ARN"));
  ST_ASSIGN_OR_RETURN(header.context_arn, Field(bytes, &at, "context ARN"));
  ST_ASSIGN_OR_RETURN(header.wrapped_key, Field(bytes, &at, "wrapped key"));
  if (at != bytes.size()) return Err(Bad("trailing bytes in header"));
  if ((header.sse == SseKind::kSseKms) == header.kms_key_arn.empty()) {
    return Err(Bad("key ARN does not match the algorithm"));
  }
  if (header.wrapped_key.empty()) return Err(Bad("no wrapped key"));
  return header;
}

int64_t EnvelopeSegmentCount(int64_t plaintext_bytes, uint32_t segment_bytes) {
  if (plaintext_bytes <= 0) return 1;
  return (plaintext_bytes + segment_bytes - 1) / segment_bytes;
}

int64_t EnvelopeStoredSize(int64_t plaintext_bytes, size_t header_bytes, uint32_t segment_bytes) {
  return static_cast<int64_t>(header_bytes) + plaintext_bytes +
         EnvelopeSegmentCount(plaintext_bytes, segment_bytes) *
             static_cast<int64_t>(kSegmentTagBytes);
}

Result<int64_t> EnvelopePlaintextSize(int64_t stored_bytes, size_t header_bytes,
                                      uint32_t segment_bytes) {
  int64_t body = stored_bytes - static_cast<int64_t>(header_bytes);
  const int64_t sealed_segment = static_cast<int64_t>(segment_bytes) + kSegmentTagBytes;
  if (body < static_cast<int64_t>(kSegmentTagBytes)) return Err(Bad("object shorter than a tag"));
  int64_t segments = (body + sealed_segment - 1) / sealed_segment;
  int64_t last = body - (segments - 1) * sealed_segment;
  if (last < static_cast<int64_t>(kSegmentTagBytes)) return Err(Bad("truncated segment"));
  // A non-empty last segment, unless the object is a single empty one.
  if (last == static_cast<int64_t>(kSegmentTagBytes) && segments > 1) {
    return Err(Bad("empty segment after a full one"));
  }
  return body - segments * static_cast<int64_t>(kSegmentTagBytes);
}

struct SegmentCipher::Impl {
  // One context per direction, keyed once: a segment then only sets its
  // nonce (no cipher or key passed, so neither the algorithm fetch nor the
  // AES key schedule and GHASH key are redone per segment).
  EVP_CIPHER_CTX* seal = nullptr;
  EVP_CIPHER_CTX* open = nullptr;
  std::string header;
  std::string nonce_prefix;
  ~Impl() {
    EVP_CIPHER_CTX_free(seal);
    EVP_CIPHER_CTX_free(open);
  }
};

Result<std::unique_ptr<SegmentCipher>> SegmentCipher::Make(std::string_view key,
                                                           std::string_view header_bytes,
                                                           std::string_view nonce_prefix) {
  if (key.size() != kDataKeyBytes) return Err(InvalidArgument("data key must be 32 bytes"));
  if (nonce_prefix.size() != kNoncePrefixBytes) {
    return Err(InvalidArgument("nonce prefix must be 8 bytes"));
  }
  std::unique_ptr<SegmentCipher> cipher(new SegmentCipher());
  cipher->impl_ = std::make_unique<Impl>();
  Impl& impl = *cipher->impl_;
  impl.seal = EVP_CIPHER_CTX_new();
  impl.open = EVP_CIPHER_CTX_new();
  const auto* k = reinterpret_cast<const unsigned char*>(key.data());
  if (impl.seal == nullptr || impl.open == nullptr ||
      EVP_EncryptInit_ex(impl.seal, EVP_aes_256_gcm(), nullptr, k, nullptr) != 1 ||
      EVP_DecryptInit_ex(impl.open, EVP_aes_256_gcm(), nullptr, k, nullptr) != 1) {
    return Err(Internal("AES-256-GCM init failed"));
  }
  cipher->impl_->header = std::string(header_bytes);
  cipher->impl_->nonce_prefix = std::string(nonce_prefix);
  return cipher;
}

SegmentCipher::~SegmentCipher() = default;

std::string SegmentCipher::Nonce(uint64_t index) const {
  std::string nonce = impl_->nonce_prefix;
  PutU32(nonce, index);
  return nonce;
}

namespace {

// The per-segment associated data after the header: index and final flag.
std::string SegmentTrailer(uint64_t index, bool final) {
  std::string out;
  PutU32(out, index >> 32);
  PutU32(out, index & 0xffffffffU);
  out += static_cast<char>(final ? 1 : 0);
  return out;
}

const unsigned char* U(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

Status SegmentCipher::Seal(uint64_t index, bool final, std::string_view plaintext,
                           std::string& out) {
  if (index > 0xffffffffULL) return InvalidArgument("object has too many segments");
  EVP_CIPHER_CTX* ctx = impl_->seal;
  std::string nonce = Nonce(index);
  std::string trailer = SegmentTrailer(index, final);
  int len = 0;
  size_t start = out.size();
  out.resize(start + plaintext.size() + kSegmentTagBytes);
  auto* dst = reinterpret_cast<unsigned char*>(out.data() + start);
  bool ok =
      EVP_EncryptInit_ex(ctx, nullptr, nullptr, nullptr, U(nonce)) == 1 &&
      EVP_EncryptUpdate(ctx, nullptr, &len, U(impl_->header),
                        static_cast<int>(impl_->header.size())) == 1 &&
      EVP_EncryptUpdate(ctx, nullptr, &len, U(trailer), static_cast<int>(trailer.size())) == 1 &&
      (plaintext.empty() ||
       EVP_EncryptUpdate(ctx, dst, &len, U(plaintext), static_cast<int>(plaintext.size())) == 1) &&
      EVP_EncryptFinal_ex(ctx, dst + plaintext.size(), &len) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, kSegmentTagBytes, dst + plaintext.size()) == 1;
  if (!ok) {
    out.resize(start);
    return Internal("AES-256-GCM seal failed");
  }
  return Status::OK();
}

Status SegmentCipher::Open(uint64_t index, bool final, std::string_view sealed, char* out) {
  if (sealed.size() < kSegmentTagBytes || index > 0xffffffffULL) {
    return Status(StatusCode::kCorruption, "encrypted segment too short");
  }
  EVP_CIPHER_CTX* ctx = impl_->open;
  std::string nonce = Nonce(index);
  std::string trailer = SegmentTrailer(index, final);
  size_t n = sealed.size() - kSegmentTagBytes;
  unsigned char tag[kSegmentTagBytes];
  std::memcpy(tag, sealed.data() + n, kSegmentTagBytes);
  int len = 0;
  auto* dst = reinterpret_cast<unsigned char*>(out);
  bool ok =
      EVP_DecryptInit_ex(ctx, nullptr, nullptr, nullptr, U(nonce)) == 1 &&
      EVP_DecryptUpdate(ctx, nullptr, &len, U(impl_->header),
                        static_cast<int>(impl_->header.size())) == 1 &&
      EVP_DecryptUpdate(ctx, nullptr, &len, U(trailer), static_cast<int>(trailer.size())) == 1 &&
      (n == 0 || EVP_DecryptUpdate(ctx, dst, &len, U(sealed), static_cast<int>(n)) == 1) &&
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, kSegmentTagBytes, tag) == 1 &&
      EVP_DecryptFinal_ex(ctx, dst + n, &len) == 1;
  if (!ok) {
    if (n > 0) std::memset(out, 0, n);
    return Status(StatusCode::kCorruption,
                  "encrypted segment " + std::to_string(index) + " does not authenticate");
  }
  return Status::OK();
}

}  // namespace st::storage
