// GeneralPurposeBucketStore: S3 general-purpose buckets on our S3 endpoint
// (dead-letter queue targets); names are global. One of the per-entity
// interfaces that MetadataStore aggregates (metadata_store.h states the
// shared contract). Their objects live in the object store, not here.
//
// Thread-safety: implementations are thread-safe; every method is atomic.
#pragma once

#include <string>
#include <vector>

#include "catalog/channel_records.h"
#include "common/status.h"

namespace st::catalog {

class GeneralPurposeBucketStore {
 public:
  virtual ~GeneralPurposeBucketStore() = default;

  // Errors: InvalidArgument (S3 bucket naming), AlreadyExists (any account:
  // names are global).
  virtual Result<GeneralPurposeBucket> CreateGeneralPurposeBucket(
      const std::string& owner_account_id, const std::string& region, const std::string& name) = 0;
  // Errors: NotFound.
  virtual Result<GeneralPurposeBucket> GetGeneralPurposeBucket(const std::string& name) = 0;
  // The account's buckets ordered by name.
  virtual Result<std::vector<GeneralPurposeBucket>> ListGeneralPurposeBuckets(
      const std::string& owner_account_id) = 0;
  // The API layer checks emptiness first. Errors: NotFound.
  virtual Status DeleteGeneralPurposeBucket(const std::string& name) = 0;
};

}  // namespace st::catalog
