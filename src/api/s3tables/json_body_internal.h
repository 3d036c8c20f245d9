// Reading S3 Tables request bodies: one JSON object, members checked for
// their JSON type. Every error is InvalidArgument (400 BadRequestException)
// naming the member and the type it needs; unknown members are ignored, as
// AWS ignores them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "http/request.h"

namespace st::api::s3tables {

// Bodies of the control plane are small (a policy is at most 20,480
// characters); anything larger is refused before parsing.
inline constexpr size_t kMaxJsonBodyBytes = 256 * 1024;

// The request body as a JSON object; an empty body reads as {}. Errors:
// InvalidArgument (too large, not JSON, not an object).
Result<nlohmann::json> ParseJsonObject(const http::Request& request);

// `object[key]` when present and not null. Errors: InvalidArgument when it
// has another JSON type. `where` prefixes member names in messages
// ("metadata.iceberg.").
Result<std::optional<std::string>> OptionalString(const nlohmann::json& object,
                                                  std::string_view key,
                                                  std::string_view where = "");
Result<std::string> RequiredString(const nlohmann::json& object, std::string_view key,
                                   std::string_view where = "");
Result<std::optional<int64_t>> OptionalInt(const nlohmann::json& object, std::string_view key,
                                           std::string_view where = "");
Result<std::optional<bool>> OptionalBool(const nlohmann::json& object, std::string_view key,
                                         std::string_view where = "");
// A JSON object member; nullopt when absent or null.
Result<std::optional<nlohmann::json>> OptionalObject(const nlohmann::json& object,
                                                     std::string_view key,
                                                     std::string_view where = "");
Result<std::optional<nlohmann::json>> OptionalArray(const nlohmann::json& object,
                                                    std::string_view key,
                                                    std::string_view where = "");
// {string: string}; {} when absent.
Result<std::map<std::string, std::string>> OptionalStringMap(const nlohmann::json& object,
                                                             std::string_view key,
                                                             std::string_view where = "");

}  // namespace st::api::s3tables
