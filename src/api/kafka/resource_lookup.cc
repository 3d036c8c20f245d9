#include "api/kafka/resource_lookup_internal.h"

namespace st::api::kafka {

namespace {

Status StoreError(const Status& status, const std::string& not_found_message) {
  if (status.code() == StatusCode::kNotFound) return NotFound(not_found_message);
  return status;
}

}  // namespace

Result<catalog::KafkaCluster> ClusterFromPath(const KafkaDeps& deps, const Ctx& context) {
  const std::string& arn = context.params.Get("clusterArn");
  ST_TRY(catalog::ParseKafkaClusterArn(arn));
  std::string missing = "The cluster '" + arn + "' does not exist.";
  auto cluster = deps.store.GetKafkaCluster(arn);
  if (!cluster) return Err(StoreError(cluster.error(), missing));
  if (cluster->owner_account_id != CallerAccount(deps, context)) return Err(NotFound(missing));
  return *cluster;
}

Result<catalog::Channel> ChannelOfCluster(const KafkaDeps& deps, const Ctx& context,
                                          const catalog::KafkaCluster& cluster) {
  const std::string& arn = context.params.Get("channelArn");
  ST_TRY(catalog::ParseKafkaChannelArn(arn));
  const std::string missing = "Channel not found: '" + arn + "'.";
  auto channel = deps.store.GetChannel(arn);
  if (!channel) return Err(StoreError(channel.error(), missing));
  if (channel->cluster_arn != cluster.arn) return Err(NotFound(missing));
  return *channel;
}

}  // namespace st::api::kafka
