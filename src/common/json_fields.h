// Reading members of a JSON object (request bodies, stored documents) without
// letting a malformed document throw: every accessor checks the member's JSON
// type and returns InvalidArgument. The one implementation of these checks;
// each API surface passes a FieldWording that words the problem the way its
// clients expect (the message is all that differs between surfaces).
//
// Library target st_common_json (nlohmann_json is in its public headers; the
// rest of common does not depend on it).
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace st::json_fields {

// What a member must be.
enum class Expected {
  kString,
  kNonEmptyString,
  kBoolean,
  kInteger,
  kObject,
  kArray,
  kStringMap,    // An object whose members are all strings.
  kStringArray,  // An array whose items are all strings.
};

// One problem with one member.
struct FieldProblem {
  enum class Kind {
    kMissing,     // Absent or null where it is required.
    kWrongType,   // Present with another JSON type (or an empty string for kNonEmptyString).
    kOutOfRange,  // An integer outside the caller's bounds.
  };
  Kind kind = Kind::kMissing;
  // The key; "<key>.<entry>" (and `expected` kString) for a map entry that
  // is not a string.
  std::string member;
  Expected expected = Expected::kString;
  // The value found (kWrongType, kOutOfRange); nullptr when missing.
  const nlohmann::json* found = nullptr;
};

// How one surface words a FieldProblem: `format` builds the message of the
// InvalidArgument from the problem and `context`, the caller's text for this
// call (a request name, a member prefix, or nothing).
struct FieldWording {
  using Format = std::string (*)(const FieldProblem& problem, std::string_view context);
  Format format;
  std::string_view context;

  Status Error(const FieldProblem& problem) const {
    return InvalidArgument(format(problem, context));
  }
};

// The body of an AWS JSON 1.0/1.1 request (X-Amz-Target surfaces: Glue,
// KMS): an empty body is the empty object; otherwise one JSON object within
// CheckJsonNesting's depth. Errors: InvalidArgument ("the request body is not
// a JSON object", or the nesting message).
Result<nlohmann::json> ParseAwsJsonBody(std::string_view body);

// "a string", "a boolean", "an integer", "a number", "a list", "an object" or
// "null": the JSON type of `value` in words, for messages.
const char* JsonTypeName(const nlohmann::json& value);

// The member `key` of `object`; nullptr when it is absent or null, or when
// `object` is not an object.
const nlohmann::json* FindMember(const nlohmann::json& object, std::string_view key);

// Each accessor fails with wording.Error(problem) and nothing else. Optional*
// return nullopt / nullptr / {} when the member is absent or null.
Result<std::string> RequiredString(const nlohmann::json& object, std::string_view key,
                                   const FieldWording& wording);
// As RequiredString; an empty string is kWrongType with kNonEmptyString.
Result<std::string> RequiredNonEmptyString(const nlohmann::json& object, std::string_view key,
                                           const FieldWording& wording);
Result<std::optional<std::string>> OptionalString(const nlohmann::json& object,
                                                  std::string_view key,
                                                  const FieldWording& wording);
Result<std::optional<bool>> OptionalBool(const nlohmann::json& object, std::string_view key,
                                         const FieldWording& wording);
// An integer in [min, max]; kOutOfRange outside it.
Result<std::optional<int64_t>> OptionalInt(const nlohmann::json& object, std::string_view key,
                                           const FieldWording& wording,
                                           int64_t min = std::numeric_limits<int64_t>::min(),
                                           int64_t max = std::numeric_limits<int64_t>::max());
Result<const nlohmann::json*> OptionalObject(const nlohmann::json& object, std::string_view key,
                                             const FieldWording& wording);
Result<const nlohmann::json*> OptionalArray(const nlohmann::json& object, std::string_view key,
                                            const FieldWording& wording);
// {string: string}: kWrongType with kStringMap when not an object, with
// kString and member "<key>.<entry>" for an entry that is not a string.
Result<std::map<std::string, std::string>> OptionalStringMap(const nlohmann::json& object,
                                                             std::string_view key,
                                                             const FieldWording& wording);
// [string, ...]: kMissing, or kWrongType with kStringArray when the member or
// one of its items has another type.
Result<std::vector<std::string>> RequiredStringArray(const nlohmann::json& object,
                                                     std::string_view key,
                                                     const FieldWording& wording);

}  // namespace st::json_fields
