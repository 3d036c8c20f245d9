// The header of an encrypted object (storage/envelope.h) from outside bytes:
// whatever is on disk when an object is opened. The parser must refuse or
// succeed without crashing or reading past its input; a parsed header must
// serialize back to the same bytes; the size arithmetic must invert; a
// segment sealed from the input opens to the input and fails on any changed
// byte.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "storage/envelope.h"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "envelope_fuzz: %s\n", what);
    abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace st::storage;
  const std::string input(reinterpret_cast<const char*>(data), size);

  auto length = EnvelopeHeaderLength(input);
  if (length.has_value()) {
    Check(*length >= kEnvelopeFixedBytes && *length <= kMaxEnvelopeHeaderBytes,
          "header length out of bounds");
  }
  auto header = ParseEnvelopeHeader(input);
  if (header.has_value()) {
    Check(length.has_value() && *length == input.size(), "parsed a header of another length");
    auto again = SerializeEnvelopeHeader(*header);
    Check(again.has_value() && *again == input, "header does not serialize back");
  }

  // Stored sizes from the input: the inverse never lies.
  if (size >= 8) {
    int64_t stored = 0;
    for (int i = 0; i < 8; ++i) stored = (stored << 8) | data[i];
    stored &= (int64_t{1} << 40) - 1;
    const uint32_t segment = kMinSegmentBytes << (data[0] % 8);
    auto plain = EnvelopePlaintextSize(stored, 100, segment);
    if (plain.has_value()) {
      Check(*plain >= 0 && EnvelopeStoredSize(*plain, 100, segment) == stored,
            "plaintext size does not invert");
    }
  }

  // Seal the input as a segment; it opens to itself and not when changed.
  const std::string key(kDataKeyBytes, '\x42');
  auto cipher = SegmentCipher::Make(key, "header", "noncepfx");
  Check(cipher.has_value(), "cipher");
  std::string sealed;
  Check((*cipher)->Seal(3, true, input, sealed).ok(), "seal");
  std::string out(input.size(), '\0');
  Check((*cipher)->Open(3, true, sealed, out.data()).ok() && out == input, "open round trip");
  Check(!(*cipher)->Open(3, false, sealed, out.data()).ok(), "final flag not authenticated");
  Check(!(*cipher)->Open(4, true, sealed, out.data()).ok(), "index not authenticated");
  std::string changed = sealed;
  changed[size % changed.size()] ^= 0x01;
  Check(!(*cipher)->Open(3, true, changed, out.data()).ok(), "changed byte opened");
  // The input as a sealed segment: refused (or, if ever, never crashing).
  if (size >= kSegmentTagBytes) {
    std::string sink(size - kSegmentTagBytes, '\0');
    (void)(*cipher)->Open(0, true, input, sink.data());
  }
  return 0;
}
