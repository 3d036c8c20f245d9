// Request-body reading and response writing shared by the Glue operations.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "catalog/records.h"
#include "common/status.h"
#include "http/request.h"
#include "http/response.h"
#include "registry/schema_registry.h"

namespace st::api::glue {

// The Content-Type of every Glue response body, errors included.
inline constexpr std::string_view kGlueContentType = "application/x-amz-json-1.1";

// Status + body with Content-Type kGlueContentType.
http::Response JsonResponse(int status, const nlohmann::json& body);

// The body as a JSON object ("" counts as {}). Errors: InvalidArgument.
Result<nlohmann::json> ParseBody(const http::Request& request);

// Members by wire name. Errors: InvalidArgument naming the member when it is
// present with the wrong type (or missing, for Required*).
Result<std::optional<std::string>> OptionalString(const nlohmann::json& object,
                                                  const std::string& member);
Result<std::string> RequiredString(const nlohmann::json& object, const std::string& member);
Result<std::optional<int64_t>> OptionalInt(const nlohmann::json& object, const std::string& member);

// Tags {key: value} (absent → {}): at most catalog::kMaxTagsPerResource,
// each checked with catalog::ValidateTag. Read before anything is created,
// so a bad tag changes nothing. Errors: InvalidArgument naming the tag.
Result<nlohmann::json> ReadTags(const nlohmann::json& body);

// SchemaId {SchemaArn | SchemaName [+ RegistryName]} (member `member` of
// `body`). A name is in `account_id`; an ARN carries its own account. An ARN
// of another region → NotFound "Schema is not found.". Errors: InvalidArgument.
Result<registry::SchemaRef> ReadSchemaId(const nlohmann::json& body, const std::string& member,
                                         const std::string& account_id, const std::string& region);

struct RegistryTarget {
  std::string account_id;
  std::string registry_name;
};
// RegistryId {RegistryName | RegistryArn}; absent → the default registry.
Result<RegistryTarget> ReadRegistryId(const nlohmann::json& body, const std::string& account_id,
                                      const std::string& region);

// NextToken/MaxResults over an in-memory list: the offset to start from and
// the page size (MaxResults default 100, 1..100). Errors: InvalidArgument.
struct PageWindow {
  size_t offset = 0;
  size_t size = 100;
};
Result<PageWindow> ReadPageWindow(const nlohmann::json& body);

}  // namespace st::api::glue
