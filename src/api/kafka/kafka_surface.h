// The MSK delivery-channel control plane (docs/msk-channel-api-notes.md §1–§6): what
// boto3's `kafka` client, `aws kafka ...-channel` and Terraform speak to.
// Routes (method, path, operation, IAM action on resource):
// - POST /v1/clusters/{clusterArn}/channels: CreateChannel, kafka:CreateChannel (cluster).
// - GET /v1/clusters/{clusterArn}/channels: ListChannels, kafka:ListChannels (cluster).
// - GET /v1/clusters/{clusterArn}/channels/{channelArn}: DescribeChannel,
//   kafka:DescribeChannel (channel).
// - PUT same path: UpdateChannel, kafka:UpdateChannel (channel).
// - DELETE same path: DeleteChannel, kafka:DeleteChannel (channel).
// - POST .../channels/{channelArn}/pause and /resume (extension): kafka:UpdateChannel.
// - POST|DELETE|GET /v1/tags/{resourceArn}: Tag/Untag/ListTagsForResource.
// - GET /api/v2/operations/{clusterOperationArn}: DescribeClusterOperationV2.
//
// CreateChannel also needs iam:PassRole on the serviceExecutionRoleArn, which
// must be a role of the caller's account (403 ForbiddenException with
// invalidParameter "serviceExecutionRoleArn" otherwise, as IAM refuses to
// pass another account's role), and,
// with tags, kafka:TagResource on the cluster; both are checked with the
// authorizer inside the handler. Clusters and channels of another account are
// 404. DescribeChannel of an ACTIVE channel that cannot deliver shows the
// delivery runtime's live stateInfo (KafkaDeps::live_state_info) and, as the
// extension member quarantinedSchemaVersions [{schemaVersionId, records,
// message}], the writer schema versions whose records go to the DLQ as
// SCHEMA_INCOMPATIBLE (KafkaDeps::quarantined_versions). Errors use
// the MSK shape (x-amzn-ErrorType, {"message",
// "invalidParameter"}).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/metadata_store.h"
#include "http/router.h"

namespace st::auth {
class SecretSealer;
}

namespace st::api::kafka {

// Every reference must outlive the mounted router and be thread-safe.
struct KafkaDeps {
  catalog::MetadataStore& store;
  // The router's authorizer, for the extra checks CreateChannel needs.
  const auth::Authorizer& authorizer;
  // The account of callers whose principal carries none (test hooks).
  std::string account_id;
  // Live delivery state of an ACTIVE channel whose row has no stateInfo
  // (e.g. DELIVERY_STALLED while storage fails); null or nullopt: none.
  std::function<std::optional<catalog::ChannelStateInfo>(const std::string& channel_arn)>
      live_state_info;
  // Writer schema versions of the channel whose records the delivery runtime
  // quarantines (SCHEMA_INCOMPATIBLE, in the DLQ); DescribeChannel lists them
  // as the extension member quarantinedSchemaVersions. Null: none.
  struct QuarantinedVersion {
    std::string schema_version_id;
    int64_t records = 0;
    std::string message;
  };
  std::function<std::vector<QuarantinedVersion>(const std::string& channel_arn)>
      quarantined_versions;
  // Extension recordSchema.externalSchemaRegistry: the host:port entries of
  // --external-registry-hosts (empty: every channel naming a registry is
  // refused), and the sealer of the registries' basic-auth secrets, bound to
  // catalog::ExternalRegistrySealContextOf (null: channels naming
  // credentials are refused). Must outlive the surface.
  std::vector<std::string> external_registry_hosts;
  const auth::SecretSealer* secret_sealer = nullptr;
};

// The surface "kafka" at prefix "/v1".
http::Surface MakeKafkaSurface(const KafkaDeps& deps);
// The surface "kafka-v2" at prefix "/api/v2" (DescribeClusterOperationV2).
http::Surface MakeKafkaOperationsSurface(const KafkaDeps& deps);

}  // namespace st::api::kafka
