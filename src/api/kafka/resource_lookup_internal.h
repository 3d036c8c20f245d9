// The cluster and channel named by the path, checked against the caller's
// account (another account's resources are 404, as if they did not exist).
// Callers answer an error with FailOn(context, "<label>", error).
#pragma once

#include "api/kafka/operations_internal.h"
#include "catalog/channel_records.h"

namespace st::api::kafka {

// {clusterArn}. Errors: InvalidArgument (malformed), NotFound, the store's.
Result<catalog::KafkaCluster> ClusterFromPath(const KafkaDeps& deps, const Ctx& context);
// {channelArn} of `cluster`. Errors: as ClusterFromPath.
Result<catalog::Channel> ChannelOfCluster(const KafkaDeps& deps, const Ctx& context,
                                          const catalog::KafkaCluster& cluster);

}  // namespace st::api::kafka
