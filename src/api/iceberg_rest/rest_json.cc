#include "api/iceberg_rest/rest_json_internal.h"
#include "common/json_nesting.h"

namespace st::api::iceberg_rest {

namespace {

Status Bad(std::string_view what, std::string_view key, std::string_view expected) {
  return InvalidArgument(std::string(what) + ": field '" + std::string(key) + "' must be " +
                         std::string(expected) + ".");
}

const nlohmann::json* Member(const nlohmann::json& object, std::string_view key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

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
  const nlohmann::json* value = Member(object, key);
  if (value == nullptr || !value->is_string()) return Err(Bad(what, key, "a string"));
  return value->get<std::string>();
}

Result<std::optional<std::string>> OptionalString(const nlohmann::json& object,
                                                  std::string_view key, std::string_view what) {
  const nlohmann::json* value = Member(object, key);
  if (value == nullptr) return std::optional<std::string>();
  if (!value->is_string()) return Err(Bad(what, key, "a string"));
  return std::optional<std::string>(value->get<std::string>());
}

Result<std::optional<bool>> OptionalBool(const nlohmann::json& object, std::string_view key,
                                         std::string_view what) {
  const nlohmann::json* value = Member(object, key);
  if (value == nullptr) return std::optional<bool>();
  if (!value->is_boolean()) return Err(Bad(what, key, "true or false"));
  return std::optional<bool>(value->get<bool>());
}

Result<const nlohmann::json*> OptionalObject(const nlohmann::json& object, std::string_view key,
                                             std::string_view what) {
  const nlohmann::json* value = Member(object, key);
  if (value != nullptr && !value->is_object()) return Err(Bad(what, key, "an object"));
  return value;
}

Result<std::map<std::string, std::string>> OptionalStringMap(const nlohmann::json& object,
                                                             std::string_view key,
                                                             std::string_view what) {
  std::map<std::string, std::string> out;
  const nlohmann::json* value = Member(object, key);
  if (value == nullptr) return out;
  if (!value->is_object()) return Err(Bad(what, key, "an object of strings"));
  for (const auto& [name, item] : value->items()) {
    if (!item.is_string()) return Err(Bad(what, std::string(key) + "." + name, "a string"));
    out.emplace(name, item.get<std::string>());
  }
  return out;
}

Result<std::vector<std::string>> RequiredStringArray(const nlohmann::json& object,
                                                     std::string_view key, std::string_view what) {
  const nlohmann::json* value = Member(object, key);
  if (value == nullptr || !value->is_array()) return Err(Bad(what, key, "an array of strings"));
  std::vector<std::string> out;
  for (const nlohmann::json& item : *value) {
    if (!item.is_string()) return Err(Bad(what, key, "an array of strings"));
    out.push_back(item.get<std::string>());
  }
  return out;
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
