#include <regex>

#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/resource_options_internal.h"
#include "catalog/maintenance_model.h"
#include "catalog/names.h"

namespace st::api::s3tables {

namespace {

// "arn:aws:kms:<region>:<account>:key/<id>" (the form is already checked).
std::pair<std::string, std::string> KeyRegionAndAccount(const std::string& arn) {
  size_t region_at = arn.find(":kms:") + 5;
  size_t account_at = arn.find(':', region_at) + 1;
  return {arn.substr(region_at, account_at - 1 - region_at),
          arn.substr(account_at, arn.find(':', account_at) - account_at)};
}

Status CheckKmsKey(const S3TablesDeps& deps, const Ctx& context, const std::string& owner_account,
                   const std::string& key_arn) {
  auto [region, account] = KeyRegionAndAccount(key_arn);
  if (region != deps.region || account != owner_account) {
    return InvalidArgument("The KMS key " + key_arn + " must be a key of region " + deps.region +
                           " and account " + owner_account + ", the table bucket's.");
  }
  if (deps.check_kms_key) {
    Status usable = deps.check_kms_key(key_arn);
    if (!usable.ok()) {
      return InvalidArgument("The KMS key " + key_arn + " cannot be used: " + usable.message());
    }
  }
  if (deps.authorizer == nullptr) return Status::OK();
  auth::AccessRequest access;
  access.action = "kms:GenerateDataKey";
  access.resource = key_arn;
  access.condition_keys["kms:ViaService"] = {"s3." + deps.region + ".amazonaws.com"};
  access.condition_keys["kms:CallerAccount"] = {CallerAccount(deps, context)};
  ST_ASSIGN_OR_RETURN(
      auth::AuthDecision decision,
      deps.authorizer->Authorize(http::CallContextOf(context.request), context.principal, access));
  if (decision.allowed) return Status::OK();
  return Status(StatusCode::kAccessDenied, decision.message.empty()
                                               ? "User: " + context.principal.arn +
                                                     " is not authorized to perform: "
                                                     "kms:GenerateDataKey on resource: " +
                                                     key_arn
                                               : decision.message);
}

}  // namespace

Result<catalog::EncryptionConfig> ParseEncryptionConfiguration(const S3TablesDeps& deps,
                                                               const Ctx& context,
                                                               const std::string& owner_account,
                                                               const nlohmann::json& value) {
  ST_ASSIGN_OR_RETURN(catalog::EncryptionConfiguration config,
                      catalog::ParseEncryptionConfiguration(value.dump()));
  if (config.kms_key_arn.has_value()) {
    ST_TRY(CheckKmsKey(deps, context, owner_account, *config.kms_key_arn));
  }
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
