// Request shapes that several operations share: EncryptionConfiguration,
// StorageClassConfiguration and tag maps (docs/api-contract-notes.md §1.2, §1.5).
#pragma once

#include <nlohmann/json.hpp>

#include "catalog/metadata_store.h"
#include "common/status.h"

namespace st::api::s3tables {

// {sseAlgorithm: AES256|aws:kms, kmsKeyArn (required for, and only with,
// aws:kms)}. Errors: InvalidArgument naming the member.
Result<catalog::EncryptionConfig> ParseEncryptionConfiguration(const nlohmann::json& value);
// {storageClass: STANDARD|INTELLIGENT_TIERING}; validated, not stored.
Status CheckStorageClassConfiguration(const nlohmann::json& value);
// Each tag valid and at most kMaxTagsPerResource. Errors: InvalidArgument.
Status CheckTags(const catalog::Tags& tags);

}  // namespace st::api::s3tables
