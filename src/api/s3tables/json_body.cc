#include "api/s3tables/json_body_internal.h"
#include "common/json_nesting.h"

namespace st::api::s3tables {

namespace {

std::string Member(std::string_view where, std::string_view key) {
  return std::string(where) + std::string(key);
}

const char* TypeName(const nlohmann::json& value) {
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_number_integer() || value.is_number_unsigned()) return "an integer";
  if (value.is_number()) return "a number";
  if (value.is_array()) return "a list";
  if (value.is_object()) return "an object";
  return "null";
}

Status WrongType(std::string_view where, std::string_view key, const char* wanted,
                 const nlohmann::json& got) {
  return InvalidArgument("The member '" + Member(where, key) + "' must be " + wanted + ", not " +
                         TypeName(got) + ".");
}

// nullptr when absent or null.
const nlohmann::json* Find(const nlohmann::json& object, std::string_view key) {
  auto it = object.find(std::string(key));
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
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
                               TypeName(parsed) + "."));
  }
  return parsed;
}

Result<std::optional<std::string>> OptionalString(const nlohmann::json& object,
                                                  std::string_view key, std::string_view where) {
  const nlohmann::json* value = Find(object, key);
  if (value == nullptr) return std::optional<std::string>();
  if (!value->is_string()) return Err(WrongType(where, key, "a string", *value));
  return std::optional<std::string>(value->get<std::string>());
}

Result<std::string> RequiredString(const nlohmann::json& object, std::string_view key,
                                   std::string_view where) {
  ST_ASSIGN_OR_RETURN(std::optional<std::string> value, OptionalString(object, key, where));
  if (!value.has_value()) {
    return Err(InvalidArgument("The required member '" + Member(where, key) + "' is missing."));
  }
  return *value;
}

Result<std::optional<int64_t>> OptionalInt(const nlohmann::json& object, std::string_view key,
                                           std::string_view where) {
  const nlohmann::json* value = Find(object, key);
  if (value == nullptr) return std::optional<int64_t>();
  if (value->is_number_unsigned()) {
    if (value->get<uint64_t>() > static_cast<uint64_t>(INT32_MAX)) {
      return Err(InvalidArgument("The member '" + Member(where, key) + "' is out of range."));
    }
    return std::optional<int64_t>(value->get<int64_t>());
  }
  if (!value->is_number_integer()) return Err(WrongType(where, key, "an integer", *value));
  int64_t number = value->get<int64_t>();
  if (number < INT32_MIN || number > INT32_MAX) {
    return Err(InvalidArgument("The member '" + Member(where, key) + "' is out of range."));
  }
  return std::optional<int64_t>(number);
}

Result<std::optional<bool>> OptionalBool(const nlohmann::json& object, std::string_view key,
                                         std::string_view where) {
  const nlohmann::json* value = Find(object, key);
  if (value == nullptr) return std::optional<bool>();
  if (!value->is_boolean()) return Err(WrongType(where, key, "a boolean", *value));
  return std::optional<bool>(value->get<bool>());
}

Result<std::optional<nlohmann::json>> OptionalObject(const nlohmann::json& object,
                                                     std::string_view key, std::string_view where) {
  const nlohmann::json* value = Find(object, key);
  if (value == nullptr) return std::optional<nlohmann::json>();
  if (!value->is_object()) return Err(WrongType(where, key, "an object", *value));
  return std::optional<nlohmann::json>(*value);
}

Result<std::optional<nlohmann::json>> OptionalArray(const nlohmann::json& object,
                                                    std::string_view key, std::string_view where) {
  const nlohmann::json* value = Find(object, key);
  if (value == nullptr) return std::optional<nlohmann::json>();
  if (!value->is_array()) return Err(WrongType(where, key, "a list", *value));
  return std::optional<nlohmann::json>(*value);
}

Result<std::map<std::string, std::string>> OptionalStringMap(const nlohmann::json& object,
                                                             std::string_view key,
                                                             std::string_view where) {
  ST_ASSIGN_OR_RETURN(std::optional<nlohmann::json> map, OptionalObject(object, key, where));
  std::map<std::string, std::string> out;
  if (!map.has_value()) return out;
  for (const auto& [name, value] : map->items()) {
    if (!value.is_string()) {
      return Err(WrongType(where, std::string(key) + "." + name, "a string", value));
    }
    out[name] = value.get<std::string>();
  }
  return out;
}

}  // namespace st::api::s3tables
