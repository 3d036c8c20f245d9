#include "api/s3tables/json_body_internal.h"
#include "common/json_fields.h"
#include "common/json_nesting.h"

namespace st::api::s3tables {

namespace {

using json_fields::Expected;
using json_fields::FieldProblem;

std::string Member(std::string_view where, std::string_view key) {
  return std::string(where) + std::string(key);
}

// `where` prefixes member names ("value.").
std::string S3TablesWording(const FieldProblem& problem, std::string_view where) {
  if (problem.kind == FieldProblem::Kind::kMissing) {
    return "The required member '" + Member(where, problem.member) + "' is missing.";
  }
  if (problem.kind == FieldProblem::Kind::kOutOfRange) {
    return "The member '" + Member(where, problem.member) + "' is out of range.";
  }
  const char* wanted = "a string";
  switch (problem.expected) {
    case Expected::kBoolean:
      wanted = "a boolean";
      break;
    case Expected::kInteger:
      wanted = "an integer";
      break;
    case Expected::kObject:
    case Expected::kStringMap:
      wanted = "an object";
      break;
    case Expected::kArray:
      wanted = "a list";
      break;
    default:
      break;
  }
  return "The member '" + Member(where, problem.member) + "' must be " + wanted + ", not " +
         json_fields::JsonTypeName(*problem.found) + ".";
}

json_fields::FieldWording At(std::string_view where) { return {&S3TablesWording, where}; }

std::optional<nlohmann::json> Copy(const nlohmann::json* value) {
  return value == nullptr ? std::nullopt : std::optional<nlohmann::json>(*value);
}

}  // namespace

Result<nlohmann::json> ParseJsonObject(const http::Request& request) {
  if (request.body.size() > kMaxJsonBodyBytes) {
    return Err(InvalidArgument("The request body has " + std::to_string(request.body.size()) +
                               " bytes; the limit for this API is " +
                               std::to_string(kMaxJsonBodyBytes) + " bytes."));
  }
  if (request.body.empty()) return nlohmann::json::object();
  ST_TRY(CheckJsonNesting(request.body, "The request body"));
  nlohmann::json parsed = nlohmann::json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return Err(InvalidArgument("The request body is not valid JSON; send a JSON object."));
  }
  if (!parsed.is_object()) {
    return Err(InvalidArgument(std::string("The request body must be a JSON object, not ") +
                               json_fields::JsonTypeName(parsed) + "."));
  }
  return parsed;
}

Result<std::optional<std::string>> OptionalString(const nlohmann::json& object,
                                                  std::string_view key, std::string_view where) {
  return json_fields::OptionalString(object, key, At(where));
}

Result<std::string> RequiredString(const nlohmann::json& object, std::string_view key,
                                   std::string_view where) {
  return json_fields::RequiredString(object, key, At(where));
}

Result<std::optional<int64_t>> OptionalInt(const nlohmann::json& object, std::string_view key,
                                           std::string_view where) {
  return json_fields::OptionalInt(object, key, At(where), INT32_MIN, INT32_MAX);
}

Result<std::optional<bool>> OptionalBool(const nlohmann::json& object, std::string_view key,
                                         std::string_view where) {
  return json_fields::OptionalBool(object, key, At(where));
}

Result<std::optional<nlohmann::json>> OptionalObject(const nlohmann::json& object,
                                                     std::string_view key, std::string_view where) {
  return json_fields::OptionalObject(object, key, At(where)).map(Copy);
}

Result<std::optional<nlohmann::json>> OptionalArray(const nlohmann::json& object,
                                                    std::string_view key, std::string_view where) {
  return json_fields::OptionalArray(object, key, At(where)).map(Copy);
}

Result<std::map<std::string, std::string>> OptionalStringMap(const nlohmann::json& object,
                                                             std::string_view key,
                                                             std::string_view where) {
  return json_fields::OptionalStringMap(object, key, At(where));
}

}  // namespace st::api::s3tables
