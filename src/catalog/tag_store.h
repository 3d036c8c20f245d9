// TagStore: tags of table buckets, tables, Kafka clusters and delivery
// channels, keyed by the resource's ARN. One of the per-entity interfaces
// that MetadataStore aggregates (metadata_store.h states the shared
// contract). Deleting a resource through its own store deletes its tags too.
//
// Thread-safety: implementations are thread-safe; every method is atomic.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"

namespace st::catalog {

using Tags = std::map<std::string, std::string>;

class TagStore {
 public:
  virtual ~TagStore() = default;

  // Merges into the existing tags. Errors: NotFound (resource),
  // InvalidArgument (bad tag, more than kMaxTagsPerResource in total).
  virtual Status TagResource(const std::string& resource_arn, const Tags& tags) = 0;
  // Missing keys are ignored. Errors: NotFound (resource).
  virtual Status UntagResource(const std::string& resource_arn,
                               const std::vector<std::string>& keys) = 0;
  // Errors: NotFound (resource).
  virtual Result<Tags> ListTags(const std::string& resource_arn) = 0;
};

}  // namespace st::catalog
