// Base64 (RFC 4648), the one implementation every module uses: KMS blobs,
// Content-MD5 and checksum headers, DLQ lines, pagination tokens, HTTP Basic
// credentials, JSON binary columns.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace st::common {

enum class Base64Alphabet {
  kStandard,  // '+' and '/' (§4).
  kUrl,       // '-' and '_' (§5), for tokens in URLs.
};

enum class Base64Padding {
  kRequired,  // Encode with '='; decoding needs a multiple of 4 characters.
  kOptional,  // Encode without '='; decoding accepts either form.
};

std::string Base64Encode(std::string_view bytes,
                         Base64Alphabet alphabet = Base64Alphabet::kStandard,
                         Base64Padding padding = Base64Padding::kRequired);

// Appends the decoded bytes of `text` to `out`; false (with `out` holding a
// prefix of them) when `text` is not canonical base64: a character outside
// the alphabet, padding missing (kRequired) or anywhere but at the end, a
// length no encoding has, or unused trailing bits that are not zero (so each
// byte string has exactly one accepted text).
bool Base64DecodeAppend(std::string_view text, std::string* out,
                        Base64Alphabet alphabet = Base64Alphabet::kStandard,
                        Base64Padding padding = Base64Padding::kRequired);

// The decoded bytes, or nullopt (as Base64DecodeAppend).
std::optional<std::string> Base64Decode(std::string_view text,
                                        Base64Alphabet alphabet = Base64Alphabet::kStandard,
                                        Base64Padding padding = Base64Padding::kRequired);

}  // namespace st::common
