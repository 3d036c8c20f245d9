#include "api/iceberg_rest/rest_json_internal.h"
#include "common/json_fields.h"
#include "common/json_nesting.h"

namespace st::api::iceberg_rest {

namespace {

// "<what>: field '<key>' must be <expected>." whatever the problem.
std::string IcebergWording(const json_fields::FieldProblem& problem, std::string_view what) {
  const char* expected = "a string";
  switch (problem.expected) {
    case json_fields::Expected::kBoolean:
      expected = "true or false";
      break;
    case json_fields::Expected::kObject:
      expected = "an object";
      break;
    case json_fields::Expected::kStringMap:
      expected = "an object of strings";
      break;
    case json_fields::Expected::kStringArray:
      expected = "an array of strings";
      break;
    default:
      break;
  }
  return std::string(what) + ": field '" + problem.member + "' must be " + expected + ".";
}

json_fields::FieldWording In(std::string_view what) { return {&IcebergWording, what}; }

}  // namespace

Result<nlohmann::json> ParseJsonObject(std::string_view body, std::string_view what) {
  ST_TRY(CheckJsonNesting(body, "Malformed " + std::string(what) + ": the request body"));
  nlohmann::json json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    return Err(InvalidArgument("Malformed " + std::string(what) +
                               ": the request body is not valid JSON."));
  }
  if (!json.is_object()) {
    return Err(InvalidArgument("Malformed " + std::string(what) +
                               ": the request body must be a JSON object."));
  }
  return json;
}

Result<std::string> RequiredString(const nlohmann::json& object, std::string_view key,
                                   std::string_view what) {
  return json_fields::RequiredString(object, key, In(what));
}

Result<std::optional<std::string>> OptionalString(const nlohmann::json& object,
                                                  std::string_view key, std::string_view what) {
  return json_fields::OptionalString(object, key, In(what));
}

Result<std::optional<bool>> OptionalBool(const nlohmann::json& object, std::string_view key,
                                         std::string_view what) {
  return json_fields::OptionalBool(object, key, In(what));
}

Result<const nlohmann::json*> OptionalObject(const nlohmann::json& object, std::string_view key,
                                             std::string_view what) {
  return json_fields::OptionalObject(object, key, In(what));
}

Result<std::map<std::string, std::string>> OptionalStringMap(const nlohmann::json& object,
                                                             std::string_view key,
                                                             std::string_view what) {
  return json_fields::OptionalStringMap(object, key, In(what));
}

Result<std::vector<std::string>> RequiredStringArray(const nlohmann::json& object,
                                                     std::string_view key, std::string_view what) {
  return json_fields::RequiredStringArray(object, key, In(what));
}

Result<TableIdentifier> TableIdentifierFromJson(const nlohmann::json& json, std::string_view what) {
  if (!json.is_object()) {
    return Err(InvalidArgument(std::string(what) + " must be an object {namespace, name}."));
  }
  TableIdentifier id;
  ST_ASSIGN_OR_RETURN(id.namespace_levels, RequiredStringArray(json, "namespace", what));
  ST_ASSIGN_OR_RETURN(id.name, RequiredString(json, "name", what));
  return id;
}

}  // namespace st::api::iceberg_rest
