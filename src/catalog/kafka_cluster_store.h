// KafkaClusterStore: the external Kafka clusters an admin registered. One of
// the per-entity interfaces that MetadataStore aggregates (metadata_store.h
// states the shared contract).
//
// Thread-safety: implementations are thread-safe; every method is atomic.
#pragma once

#include <string>
#include <vector>

#include "catalog/channel_records.h"
#include "common/status.h"

namespace st::catalog {

class KafkaClusterStore {
 public:
  virtual ~KafkaClusterStore() = default;

  // Errors: InvalidArgument (name, empty bootstrap servers), AlreadyExists
  // (same name in the account).
  virtual Result<KafkaCluster> CreateKafkaCluster(const NewKafkaCluster& cluster) = 0;
  // Errors: InvalidArgument (ARN shape), NotFound.
  virtual Result<KafkaCluster> GetKafkaCluster(const std::string& cluster_arn) = 0;
  // The account's clusters ordered by name.
  virtual Result<std::vector<KafkaCluster>> ListKafkaClusters(
      const std::string& owner_account_id) = 0;
  // Also deletes its tags. Errors: NotFound, Conflict (channels remain).
  virtual Status DeleteKafkaCluster(const std::string& cluster_arn) = 0;
};

}  // namespace st::catalog
