#include <regex>

#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/resource_options_internal.h"
#include "catalog/maintenance_model.h"
#include "catalog/names.h"

namespace st::api::s3tables {

Result<catalog::EncryptionConfig> ParseEncryptionConfiguration(const nlohmann::json& value) {
  ST_ASSIGN_OR_RETURN(catalog::EncryptionConfiguration config,
                      catalog::ParseEncryptionConfiguration(value.dump()));
  return catalog::ToEncryptionRecord(config);
}

Status CheckStorageClassConfiguration(const nlohmann::json& value) {
  Result<std::string> storage_class =
      RequiredString(value, "storageClass", "storageClassConfiguration.");
  if (!storage_class.has_value()) return storage_class.error();
  if (*storage_class != "STANDARD" && *storage_class != "INTELLIGENT_TIERING") {
    return InvalidArgument("The storageClass '" + *storage_class +
                           "' is not supported; use STANDARD or INTELLIGENT_TIERING.");
  }
  return Status::OK();
}

Status CheckTags(const catalog::Tags& tags) {
  if (tags.size() > static_cast<size_t>(catalog::kMaxTagsPerResource)) {
    return InvalidArgument("A resource can have at most " +
                           std::to_string(catalog::kMaxTagsPerResource) + " tags; " +
                           std::to_string(tags.size()) + " were given.");
  }
  for (const auto& [key, value] : tags) ST_TRY(catalog::ValidateTag(key, value));
  return Status::OK();
}

}  // namespace st::api::s3tables
