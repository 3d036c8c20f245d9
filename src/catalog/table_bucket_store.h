// TableBucketStore: table buckets with their resource policy, encryption and
// maintenance configuration. One of the per-entity interfaces that
// MetadataStore aggregates (metadata_store.h states the shared contract).
//
// Thread-safety: implementations are thread-safe; every method is atomic on
// its own (DeleteTableBucket removes the policy, configuration and tags in
// the same step).
#pragma once

#include <string>

#include "catalog/pagination.h"
#include "catalog/records.h"
#include "common/status.h"

namespace st::catalog {

struct NewTableBucket {
  std::string owner_account_id;
  std::string region;
  std::string name;
  EncryptionConfig encryption;  // Default AES256, as S3 Tables does.
};

class TableBucketStore {
 public:
  virtual ~TableBucketStore() = default;

  // Errors: InvalidArgument, AlreadyExists.
  virtual Result<TableBucket> CreateTableBucket(const NewTableBucket& bucket) = 0;
  // Errors: InvalidArgument (ARN shape), NotFound.
  virtual Result<TableBucket> GetTableBucket(const std::string& bucket_arn) = 0;
  // The account's buckets ordered by name; prefix filters names.
  virtual Result<Page<TableBucket>> ListTableBuckets(const std::string& owner_account_id,
                                                     const PageRequest& page) = 0;
  // Also deletes its policy, maintenance configuration and tags. Errors:
  // NotFound, Conflict (namespaces remain).
  virtual Status DeleteTableBucket(const std::string& bucket_arn) = 0;

  // Resource policy. Put creates or replaces; Get is NotFound when none is
  // set; Delete is idempotent once the bucket exists.
  virtual Status PutTableBucketPolicy(const std::string& bucket_arn,
                                      const std::string& document) = 0;
  virtual Result<std::string> GetTableBucketPolicy(const std::string& bucket_arn) = 0;
  virtual Status DeleteTableBucketPolicy(const std::string& bucket_arn) = 0;

  // Delete restores the default (AES256). Errors: NotFound, InvalidArgument.
  virtual Status PutTableBucketEncryption(const std::string& bucket_arn,
                                          const EncryptionConfig& config) = 0;
  virtual Status DeleteTableBucketEncryption(const std::string& bucket_arn) = 0;

  // Maintenance configuration by type (records.h MaintenanceConfigs).
  // Errors: NotFound (bucket), InvalidArgument.
  virtual Status PutTableBucketMaintenance(const std::string& bucket_arn, const std::string& type,
                                           const std::string& value_json) = 0;
  virtual Result<MaintenanceConfigs> GetTableBucketMaintenance(const std::string& bucket_arn) = 0;
};

}  // namespace st::catalog
