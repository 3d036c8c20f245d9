// Request shapes that several operations share: EncryptionConfiguration,
// StorageClassConfiguration and tag maps (docs/api-contract-notes.md §1.2, §1.5).
#pragma once

#include <nlohmann/json.hpp>

#include "api/s3tables/operations_internal.h"
#include "catalog/metadata_store.h"
#include "common/status.h"

namespace st::api::s3tables {

// {sseAlgorithm: AES256|aws:kms, kmsKeyArn (required for, and only with,
// aws:kms)}, checked as S3 Tables does before anything is stored: the key
// must be a KMS key ARN of this region and of `owner_account` (the bucket's
// account), exist and be Enabled (deps.check_kms_key), and the caller must
// be allowed kms:GenerateDataKey on it, since its writes will ask for data
// keys. Errors: InvalidArgument naming the member or the key; AccessDenied.
Result<catalog::EncryptionConfig> ParseEncryptionConfiguration(const S3TablesDeps& deps,
                                                               const Ctx& context,
                                                               const std::string& owner_account,
                                                               const nlohmann::json& value);
// {storageClass: STANDARD|INTELLIGENT_TIERING}; validated, not stored.
Status CheckStorageClassConfiguration(const nlohmann::json& value);
// Each tag valid and at most kMaxTagsPerResource. Errors: InvalidArgument.
Status CheckTags(const catalog::Tags& tags);

}  // namespace st::api::s3tables
