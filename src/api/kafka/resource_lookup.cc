#include "api/kafka/kafka_errors_internal.h"
#include "api/kafka/resource_lookup_internal.h"

namespace st::api::kafka {

namespace {

http::HttpError StoreError(const Status& status, const std::string& parameter,
                           const std::string& not_found_message) {
  if (status.code() == StatusCode::kNotFound)
    return NotFoundParameter(parameter, not_found_message);
  if (status.code() == StatusCode::kInvalidArgument)
    return BadParameter(parameter, status.message());
  return http::HttpError(status);
}

}  // namespace

Checked<catalog::KafkaCluster> ClusterFromPath(const KafkaDeps& deps, const Ctx& context) {
  const std::string& arn = context.params.Get("clusterArn");
  auto parts = catalog::ParseKafkaClusterArn(arn);
  if (!parts) return tl::unexpected(BadParameter("clusterArn", parts.error().message()));
  std::string missing = "The cluster '" + arn + "' does not exist.";
  auto cluster = deps.store.GetKafkaCluster(arn);
  if (!cluster) return tl::unexpected(StoreError(cluster.error(), "clusterArn", missing));
  if (cluster->owner_account_id != CallerAccount(deps, context)) {
    return tl::unexpected(NotFoundParameter("clusterArn", missing));
  }
  return *cluster;
}

Checked<catalog::Channel> ChannelFromPath(const KafkaDeps& deps, const Ctx& context) {
  auto cluster = ClusterFromPath(deps, context);
  if (!cluster) return tl::unexpected(cluster.error());
  const std::string& arn = context.params.Get("channelArn");
  auto parts = catalog::ParseKafkaChannelArn(arn);
  if (!parts) return tl::unexpected(BadParameter("channelArn", parts.error().message()));
  const std::string missing = "Channel not found: '" + arn + "'.";
  auto channel = deps.store.GetChannel(arn);
  if (!channel) return tl::unexpected(StoreError(channel.error(), "channelArn", missing));
  if (channel->cluster_arn != cluster->arn) {
    return tl::unexpected(NotFoundParameter("channelArn", missing));
  }
  return *channel;
}

}  // namespace st::api::kafka
