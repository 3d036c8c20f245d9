// KMS ciphertext blobs and base64 from outside bytes (Decrypt's
// CiphertextBlob): the header parser and AES-256-GCM open must refuse or
// succeed without crashing; base64 (common/base64.h) must round-trip and
// decode canonically; a blob sealed from the input opens to the input and
// fails on any changed byte.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/base64.h"
#include "kms/ciphertext_blob.h"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "kms_blob_fuzz: %s\n", what);
    abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace st::kms;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string key(kKeyMaterialBytes, '\x5a');

  // Decoding is canonical: whatever decodes re-encodes to the same text.
  using st::common::Base64Alphabet;
  using st::common::Base64Padding;
  for (Base64Alphabet alphabet : {Base64Alphabet::kStandard, Base64Alphabet::kUrl}) {
    for (Base64Padding padding : {Base64Padding::kRequired, Base64Padding::kOptional}) {
      auto decoded = st::common::Base64Decode(input, alphabet, padding);
      if (decoded.has_value()) {
        const std::string text = st::common::Base64Encode(*decoded, alphabet, padding);
        const bool same = text == input || (padding == Base64Padding::kOptional &&
                                            st::common::Base64Encode(*decoded, alphabet) == input);
        Check(same, "base64 decode/encode is not the identity on accepted text");
      }
      auto round = st::common::Base64Decode(st::common::Base64Encode(input, alphabet, padding),
                                            alphabet, padding);
      Check(round.has_value() && *round == input, "base64 encode/decode differs");
    }
  }

  auto header = ParseBlobHeader(input);
  if (header.has_value()) {
    Check(header->key_id.size() == kKeyIdBytes && header->key_version >= 1 &&
              header->iv.size() == kIvBytes,
          "a parsed header has the wrong field sizes");
    (void)OpenBlob(key, input, {});
    (void)OpenBlob(key, input, {{"k", "v"}});
  }

  if (size <= kMaxPlaintextBytes) {
    EncryptionContext context = {{"k", input.substr(0, 16)}};
    BlobHeader fixed{"0b8f9a2e-3c1d-4e5f-8a9b-0c1d2e3f4a5b", 1, std::string(kIvBytes, '\x01')};
    auto blob = SealBlob(key, fixed, input, context);
    Check(blob.has_value(), "SealBlob failed on a plaintext within bounds");
    auto opened = OpenBlob(key, *blob, context);
    Check(opened.has_value() && *opened == input, "a sealed blob does not open to its input");
    std::string tampered = *blob;
    size_t at = size % tampered.size();
    tampered[at] = static_cast<char>(tampered[at] ^ 0x80);
    Check(!OpenBlob(key, tampered, context).has_value(), "a tampered blob opened");
  }
  return 0;
}
