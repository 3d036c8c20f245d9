#include "catalog/names.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace st::catalog {

namespace {

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
Status BadName(std::string_view what, std::string_view name, std::string_view rule) {
  return InvalidArgument("The specified " + std::string(what) + " name '" + std::string(name) +
                         "' is not valid: " + std::string(rule) + ".");
}

// Namespaces and tables share one rule set.
Status ValidateLowerUnderscoreName(std::string_view what, std::string_view name) {
  if (name.empty() || name.size() > 255) {
    return BadName(what, name, "it must be 1 to 255 characters long");
  }
  for (char c : name) {
    if (!IsLowerAlnum(c) && c != '_') {
      return BadName(what, name, "use only lowercase letters, digits and underscores");
    }
  }
  if (!IsLowerAlnum(name.front())) {
    return BadName(what, name, "it must start with a lowercase letter or a digit");
  }
  return Status::OK();
}

}  // namespace

Status ValidateTableBucketName(std::string_view name) {
  constexpr std::string_view kWhat = "table bucket";
  if (name.size() < 3 || name.size() > 63) {
    return BadName(kWhat, name, "it must be 3 to 63 characters long");
  }
  for (char c : name) {
    if (!IsLowerAlnum(c) && c != '-') {
      return BadName(kWhat, name, "use only lowercase letters, digits and hyphens");
    }
  }
  if (!IsLowerAlnum(name.front()) || !IsLowerAlnum(name.back())) {
    return BadName(kWhat, name, "it must start and end with a lowercase letter or a digit");
  }
  constexpr std::array<std::string_view, 4> kReservedPrefixes = {"xn--", "sthree-", "amzn-s3-demo-",
                                                                 "aws"};
  for (std::string_view prefix : kReservedPrefixes) {
    if (StartsWith(name, prefix)) {
      return BadName(kWhat, name, "the prefix '" + std::string(prefix) + "' is reserved");
    }
  }
  constexpr std::array<std::string_view, 4> kReservedSuffixes = {"-s3alias", "--ol-s3", "--x-s3",
                                                                 "--table-s3"};
  for (std::string_view suffix : kReservedSuffixes) {
    if (name.ends_with(suffix)) {
      return BadName(kWhat, name, "the suffix '" + std::string(suffix) + "' is reserved");
    }
  }
  return Status::OK();
}

Status ValidateNamespaceName(std::string_view name) {
  ST_TRY(ValidateLowerUnderscoreName("namespace", name));
  if (StartsWith(name, "aws")) {
    return BadName("namespace", name, "the prefix 'aws' is reserved");
  }
  return Status::OK();
}

Status ValidateTableName(std::string_view name) {
  return ValidateLowerUnderscoreName("table", name);
}

Status ValidateAccountId(std::string_view account_id) {
  bool ok = account_id.size() == 12;
  for (char c : account_id) ok = ok && c >= '0' && c <= '9';
  if (!ok) {
    return InvalidArgument("The account id '" + std::string(account_id) +
                           "' is not valid: it must be exactly 12 digits.");
  }
  return Status::OK();
}

Status ValidateIamName(std::string_view name) {
  bool ok = !name.empty() && name.size() <= 64;
  for (char c : name) {
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                std::string_view("+=,.@_-").find(c) != std::string_view::npos);
  }
  if (!ok) {
    return InvalidArgument("The IAM name '" + std::string(name) +
                           "' is not valid: use 1 to 64 characters of A-Z, a-z, 0-9 and +=,.@_-.");
  }
  return Status::OK();
}

namespace {

// One code point decoded from `text` at `pos` (advanced past it); nullopt for
// bytes that are not well-formed UTF-8 (overlong forms, surrogates, > U+10FFFF).
std::optional<uint32_t> NextCodePoint(std::string_view text, size_t& pos) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(pos);
  size_t length = lead < 0x80           ? 1
                  : (lead >> 5) == 0x6  ? 2
                  : (lead >> 4) == 0xE  ? 3
                  : (lead >> 3) == 0x1E ? 4
                                        : 0;
  if (length == 0 || pos + length > text.size()) return std::nullopt;
  uint32_t cp = length == 1 ? lead : lead & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (byte(pos + i) & 0x3F);
  }
  static constexpr uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinimum[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    return std::nullopt;
  }
  pos += length;
  return cp;
}

// AWS's tag character set, ^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$: exact for ASCII;
// beyond ASCII it refuses the controls, format characters, private use,
// noncharacters and the punctuation and symbol blocks, and takes the rest
// (letters, digits and spaces of other scripts) as allowed.
bool IsTagCharacter(uint32_t cp) {
  if (cp < 0x80) {
    return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') ||
           std::string_view(" _.:/=+-@").find(static_cast<char>(cp)) != std::string_view::npos;
  }
  if (cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
      cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000) {
    return true;  // Separators (\p{Z}).
  }
  if (cp == 0xAA || cp == 0xB2 || cp == 0xB3 || cp == 0xB5 || cp == 0xB9 || cp == 0xBA ||
      (cp >= 0xBC && cp <= 0xBE)) {
    return true;  // Latin-1 letters and numbers among its symbols.
  }
  struct Range {
    uint32_t first, last;
  };
  static constexpr Range kRefused[] = {
      {0x80, 0xBF},         // C1 controls, Latin-1 punctuation and symbols.
      {0xD7, 0xD7},         // ×
      {0xF7, 0xF7},         // ÷
      {0xAD, 0xAD},         // Soft hyphen (format).
      {0x2000, 0x206F},     // General punctuation, zero-width and bidi controls.
      {0x20A0, 0x20CF},     // Currency symbols.
      {0x2100, 0x214F},     // Letterlike symbols (mostly So).
      {0x2190, 0x2BFF},     // Arrows, math, technical, box drawing, shapes, dingbats.
      {0x3001, 0x3004},     // CJK punctuation.
      {0x3008, 0x3020},     // CJK brackets and marks.
      {0xE000, 0xF8FF},     // Private use.
      {0xFDD0, 0xFDEF},     // Noncharacters.
      {0xFE00, 0xFE0F},     // Variation selectors.
      {0xFEFF, 0xFEFF},     // Byte order mark (format).
      {0xFFF0, 0xFFFF},     // Specials and noncharacters.
      {0x1F000, 0x1FAFF},   // Emoji and pictographs.
      {0xE0000, 0x10FFFF},  // Tags, variation selectors supplement, private use planes.
  };
  for (const Range& range : kRefused) {
    if (cp >= range.first && cp <= range.last) return false;
  }
  return (cp & 0xFFFE) != 0xFFFE;  // U+xxFFFE / U+xxFFFF are noncharacters.
}

// `text` for an error message: controls and bytes outside printable ASCII as \xNN.
std::string Printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

// Checks `text` against the tag character set; sets `characters` to its
// length in code points.
Status CheckTagText(std::string_view text, std::string_view what, size_t& characters) {
  characters = 0;
  for (size_t pos = 0; pos < text.size(); ++characters) {
    size_t at = pos;
    std::optional<uint32_t> cp = NextCodePoint(text, pos);
    if (!cp) {
      return InvalidArgument("The " + std::string(what) + " is not valid UTF-8 at byte " +
                             std::to_string(at) + ".");
    }
    if (!IsTagCharacter(*cp)) {
      char code[16];
      std::snprintf(code, sizeof(code), "U+%04X", static_cast<unsigned>(*cp));
      return InvalidArgument("The " + std::string(what) + " contains " + code +
                             ", which tags do not allow: use letters, digits, spaces and "
                             "_ . : / = + - @.");
    }
  }
  return Status::OK();
}

}  // namespace

Status ValidateTag(std::string_view key, std::string_view value) {
  const std::string shown = Printable(key);
  size_t key_chars = 0;
  ST_TRY(CheckTagText(key, "tag key '" + shown + "'", key_chars));
  if (key_chars == 0 || key_chars > 128) {
    return InvalidArgument("The tag key '" + shown +
                           "' is not valid: it must be 1 to 128 characters long.");
  }
  if (StartsWith(key, "aws:")) {
    return InvalidArgument("The tag key '" + shown +
                           "' is not valid: the prefix 'aws:' is reserved.");
  }
  size_t value_chars = 0;
  ST_TRY(CheckTagText(value, "value of tag '" + shown + "'", value_chars));
  if (value_chars > 256) {
    return InvalidArgument("The value of tag '" + shown + "' is too long: at most 256 characters.");
  }
  return Status::OK();
}

namespace {

bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

bool IsDottedQuad(std::string_view name) {
  int dots = 0;
  for (char c : name) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots == 3;
}

}  // namespace

Status ValidateGeneralPurposeBucketName(std::string_view name) {
  constexpr std::string_view kWhat = "bucket";
  if (name.size() < 3 || name.size() > 63) {
    return BadName(kWhat, name, "it must be 3 to 63 characters long");
  }
  for (char c : name) {
    if (!IsLowerAlnum(c) && c != '-' && c != '.') {
      return BadName(kWhat, name, "use only lowercase letters, digits, dots and hyphens");
    }
  }
  if (!IsLowerAlnum(name.front()) || !IsLowerAlnum(name.back())) {
    return BadName(kWhat, name, "it must start and end with a lowercase letter or a digit");
  }
  if (name.find("..") != std::string_view::npos) {
    return BadName(kWhat, name, "it must not contain two adjacent dots");
  }
  if (IsDottedQuad(name)) return BadName(kWhat, name, "it must not look like an IP address");
  constexpr std::array<std::string_view, 3> kReservedPrefixes = {"xn--", "sthree-",
                                                                 "amzn-s3-demo-"};
  for (std::string_view prefix : kReservedPrefixes) {
    if (StartsWith(name, prefix)) {
      return BadName(kWhat, name, "the prefix '" + std::string(prefix) + "' is reserved");
    }
  }
  constexpr std::array<std::string_view, 5> kReservedSuffixes = {"-s3alias", "--ol-s3", ".mrap",
                                                                 "--x-s3", "--table-s3"};
  for (std::string_view suffix : kReservedSuffixes) {
    if (name.ends_with(suffix)) {
      return BadName(kWhat, name, "the suffix '" + std::string(suffix) + "' is reserved");
    }
  }
  return Status::OK();
}

Status ValidateKafkaClusterName(std::string_view name) {
  constexpr std::string_view kWhat = "cluster";
  if (name.empty() || name.size() > 64) {
    return BadName(kWhat, name, "it must be 1 to 64 characters long");
  }
  for (char c : name) {
    if (!IsAlnum(c) && c != '-')
      return BadName(kWhat, name, "use only letters, digits and hyphens");
  }
  if (!IsAlnum(name.front()) || (name.front() >= '0' && name.front() <= '9')) {
    return BadName(kWhat, name, "it must start with a letter");
  }
  return Status::OK();
}

Status ValidateChannelName(std::string_view name) {
  constexpr std::string_view kWhat = "channel";
  if (name.empty() || name.size() > 64) {
    return BadName(kWhat, name, "it must be 1 to 64 characters long");
  }
  for (char c : name) {
    if (!IsAlnum(c) && c != '.' && c != '_' && c != '-') {
      return BadName(kWhat, name, "use only letters, digits, '.', '_' and '-'");
    }
  }
  return Status::OK();
}

Status ValidateKafkaTopicName(std::string_view name) {
  constexpr std::string_view kWhat = "topic";
  if (name.empty() || name.size() > 249 || name == "." || name == "..") {
    return BadName(kWhat, name, "it must be 1 to 249 characters long and not '.' or '..'");
  }
  for (char c : name) {
    if (!IsAlnum(c) && c != '.' && c != '_' && c != '-') {
      return BadName(kWhat, name, "use only letters, digits, '.', '_' and '-'");
    }
  }
  return Status::OK();
}

}  // namespace st::catalog
