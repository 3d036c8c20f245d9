#include <regex>

#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/resource_options_internal.h"
#include "catalog/names.h"

namespace st::api::s3tables {

Result<catalog::EncryptionConfig> ParseEncryptionConfiguration(const nlohmann::json& value) {
  constexpr const char* kWhere = "encryptionConfiguration.";
  catalog::EncryptionConfig config;
  ST_ASSIGN_OR_RETURN(config.sse_algorithm, RequiredString(value, "sseAlgorithm", kWhere));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> key, OptionalString(value, "kmsKeyArn", kWhere));
  if (config.sse_algorithm == "AES256") {
    if (key.has_value()) {
      return Err(InvalidArgument("kmsKeyArn may only be given with sseAlgorithm aws:kms."));
    }
    return config;
  }
  if (config.sse_algorithm != "aws:kms") {
    return Err(InvalidArgument("The sseAlgorithm '" + config.sse_algorithm +
                               "' is not supported; use AES256 or aws:kms."));
  }
  static const std::regex kKmsKeyArn(R"(arn:aws[-a-z0-9]*:kms:[-a-z0-9]*:[0-9]{12}:key/.+)");
  if (!key.has_value() || !std::regex_match(*key, kKmsKeyArn)) {
    return Err(
        InvalidArgument("sseAlgorithm aws:kms needs kmsKeyArn of the form "
                        "arn:aws:kms:<region>:<account-id>:key/<key-id>."));
  }
  config.kms_key_arn = *key;
  return config;
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
