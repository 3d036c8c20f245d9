// The cluster and channel named by the path, checked against the caller's
// account (another account's resources are 404, as if they did not exist).
#pragma once

#include "api/kafka/channel_config_internal.h"
#include "api/kafka/operations_internal.h"
#include "catalog/channel_records.h"

namespace st::api::kafka {

// {clusterArn}. Errors: 400 (malformed, invalidParameter clusterArn), 404.
Checked<catalog::KafkaCluster> ClusterFromPath(const KafkaDeps& deps, const Ctx& context);
// {clusterArn} and {channelArn}; the channel must belong to the cluster.
// Errors: 400 (malformed), 404 (cluster or channel).
Checked<catalog::Channel> ChannelFromPath(const KafkaDeps& deps, const Ctx& context);

}  // namespace st::api::kafka
