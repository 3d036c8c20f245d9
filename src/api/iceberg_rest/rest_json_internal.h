// Reading request bodies of the Iceberg REST catalog without letting a
// malformed document throw: every accessor checks the JSON type and returns
// InvalidArgument (400 BadRequestException) naming the key and what it must
// be.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace st::api::iceberg_rest {

// The body as a JSON object. `what` names the request ("CreateTableRequest").
Result<nlohmann::json> ParseJsonObject(std::string_view body, std::string_view what);

// A string member; InvalidArgument when absent or not a string.
Result<std::string> RequiredString(const nlohmann::json& object, std::string_view key,
                                   std::string_view what);
// nullopt when absent or null.
Result<std::optional<std::string>> OptionalString(const nlohmann::json& object,
                                                  std::string_view key, std::string_view what);
Result<std::optional<bool>> OptionalBool(const nlohmann::json& object, std::string_view key,
                                         std::string_view what);
// An object member, or nullptr when absent or null.
Result<const nlohmann::json*> OptionalObject(const nlohmann::json& object, std::string_view key,
                                             std::string_view what);
// A {string: string} member; empty when absent or null.
Result<std::map<std::string, std::string>> OptionalStringMap(const nlohmann::json& object,
                                                             std::string_view key,
                                                             std::string_view what);
// An array of strings (a namespace: ["ns"]).
Result<std::vector<std::string>> RequiredStringArray(const nlohmann::json& object,
                                                     std::string_view key, std::string_view what);

// A TableIdentifier {"namespace": [..], "name": ".."}.
struct TableIdentifier {
  std::vector<std::string> namespace_levels;
  std::string name;
};
Result<TableIdentifier> TableIdentifierFromJson(const nlohmann::json& json, std::string_view what);

}  // namespace st::api::iceberg_rest
