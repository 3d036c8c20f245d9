#include "common/json_fields.h"

#include "common/json_nesting.h"

namespace st::json_fields {
namespace {

using Kind = FieldProblem::Kind;

Status Problem(const FieldWording& wording, Kind kind, std::string member, Expected expected,
               const nlohmann::json* found) {
  return wording.Error(FieldProblem{kind, std::move(member), expected, found});
}

}  // namespace

const char* JsonTypeName(const nlohmann::json& value) {
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_number_integer() || value.is_number_unsigned()) return "an integer";
  if (value.is_number()) return "a number";
  if (value.is_array()) return "a list";
  if (value.is_object()) return "an object";
  return "null";
}

const nlohmann::json* FindMember(const nlohmann::json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

Result<std::optional<std::string>> OptionalString(const nlohmann::json& object,
                                                  std::string_view key,
                                                  const FieldWording& wording) {
  const nlohmann::json* value = FindMember(object, key);
  if (value == nullptr) return std::optional<std::string>();
  if (!value->is_string()) {
    return Err(Problem(wording, Kind::kWrongType, std::string(key), Expected::kString, value));
  }
  return std::optional<std::string>(value->get<std::string>());
}

Result<std::string> RequiredString(const nlohmann::json& object, std::string_view key,
                                   const FieldWording& wording) {
  ST_ASSIGN_OR_RETURN(std::optional<std::string> value, OptionalString(object, key, wording));
  if (!value.has_value()) {
    return Err(Problem(wording, Kind::kMissing, std::string(key), Expected::kString, nullptr));
  }
  return std::move(*value);
}

Result<std::string> RequiredNonEmptyString(const nlohmann::json& object, std::string_view key,
                                           const FieldWording& wording) {
  const nlohmann::json* value = FindMember(object, key);
  if (value == nullptr) {
    return Err(
        Problem(wording, Kind::kMissing, std::string(key), Expected::kNonEmptyString, nullptr));
  }
  if (!value->is_string() || value->get_ref<const std::string&>().empty()) {
    return Err(
        Problem(wording, Kind::kWrongType, std::string(key), Expected::kNonEmptyString, value));
  }
  return value->get<std::string>();
}

Result<std::optional<bool>> OptionalBool(const nlohmann::json& object, std::string_view key,
                                         const FieldWording& wording) {
  const nlohmann::json* value = FindMember(object, key);
  if (value == nullptr) return std::optional<bool>();
  if (!value->is_boolean()) {
    return Err(Problem(wording, Kind::kWrongType, std::string(key), Expected::kBoolean, value));
  }
  return std::optional<bool>(value->get<bool>());
}

Result<std::optional<int64_t>> OptionalInt(const nlohmann::json& object, std::string_view key,
                                           const FieldWording& wording, int64_t min, int64_t max) {
  const nlohmann::json* value = FindMember(object, key);
  if (value == nullptr) return std::optional<int64_t>();
  auto out_of_range = [&] {
    return Err(Problem(wording, Kind::kOutOfRange, std::string(key), Expected::kInteger, value));
  };
  if (value->is_number_unsigned()) {
    if (max < 0 || value->get<uint64_t>() > static_cast<uint64_t>(max)) return out_of_range();
    return std::optional<int64_t>(static_cast<int64_t>(value->get<uint64_t>()));
  }
  if (!value->is_number_integer()) {
    return Err(Problem(wording, Kind::kWrongType, std::string(key), Expected::kInteger, value));
  }
  int64_t number = value->get<int64_t>();
  if (number < min || number > max) return out_of_range();
  return std::optional<int64_t>(number);
}

Result<const nlohmann::json*> OptionalObject(const nlohmann::json& object, std::string_view key,
                                             const FieldWording& wording) {
  const nlohmann::json* value = FindMember(object, key);
  if (value != nullptr && !value->is_object()) {
    return Err(Problem(wording, Kind::kWrongType, std::string(key), Expected::kObject, value));
  }
  return value;
}

Result<const nlohmann::json*> OptionalArray(const nlohmann::json& object, std::string_view key,
                                            const FieldWording& wording) {
  const nlohmann::json* value = FindMember(object, key);
  if (value != nullptr && !value->is_array()) {
    return Err(Problem(wording, Kind::kWrongType, std::string(key), Expected::kArray, value));
  }
  return value;
}

Result<std::map<std::string, std::string>> OptionalStringMap(const nlohmann::json& object,
                                                             std::string_view key,
                                                             const FieldWording& wording) {
  std::map<std::string, std::string> out;
  const nlohmann::json* value = FindMember(object, key);
  if (value == nullptr) return out;
  if (!value->is_object()) {
    return Err(Problem(wording, Kind::kWrongType, std::string(key), Expected::kStringMap, value));
  }
  for (const auto& [name, item] : value->items()) {
    if (!item.is_string()) {
      return Err(Problem(wording, Kind::kWrongType, std::string(key) + "." + name,
                         Expected::kString, &item));
    }
    out.emplace(name, item.get<std::string>());
  }
  return out;
}

Result<std::vector<std::string>> RequiredStringArray(const nlohmann::json& object,
                                                     std::string_view key,
                                                     const FieldWording& wording) {
  const nlohmann::json* value = FindMember(object, key);
  if (value == nullptr) {
    return Err(Problem(wording, Kind::kMissing, std::string(key), Expected::kStringArray, nullptr));
  }
  if (!value->is_array()) {
    return Err(Problem(wording, Kind::kWrongType, std::string(key), Expected::kStringArray, value));
  }
  std::vector<std::string> out;
  for (const nlohmann::json& item : *value) {
    if (!item.is_string()) {
      return Err(
          Problem(wording, Kind::kWrongType, std::string(key), Expected::kStringArray, &item));
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

Result<nlohmann::json> ParseAwsJsonBody(std::string_view body) {
  if (body.empty()) return nlohmann::json::object();
  ST_TRY(CheckJsonNesting(body, "the request body"));
  nlohmann::json parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return Err(InvalidArgument("the request body is not a JSON object"));
  }
  return parsed;
}

}  // namespace st::json_fields
