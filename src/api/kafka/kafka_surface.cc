// The route table: one row per operation with its IAM action and resource.
#include "api/kafka/kafka_surface.h"

#include <memory>

#include "api/kafka/kafka_errors_internal.h"
#include "api/kafka/operations_internal.h"

namespace st::api::kafka {

namespace {

using Operation = Reply (*)(const KafkaDeps&, Ctx&);
using DepsPtr = std::shared_ptr<const KafkaDeps>;

// The IAM resource is the ARN in path label `label` (checked by the handler).
http::AccessResolver ResourceFrom(std::string label) {
  return [label = std::move(label)](const http::Request&, const http::PathParams& params,
                                    auth::AccessRequest& access) -> Status {
    access.resource = params.Get(label);
    return Status::OK();
  };
}

http::AccessResolver OperationCluster() {
  return [](const http::Request&, const http::PathParams& params,
            auth::AccessRequest& access) -> Status {
    auto parts = catalog::ParseKafkaClusterOperationArn(params.Get("clusterOperationArn"));
    access.resource = parts.has_value() ? parts->cluster.cluster_arn : "*";
    return Status::OK();
  };
}

http::Route MakeRoute(const DepsPtr& deps, std::string method, std::string path,
                      std::string operation, std::string action, http::AccessResolver resolver,
                      Operation handler) {
  return http::Route{
      std::move(method),
      std::move(path),
      {},
      std::move(operation),
      http::Requires(std::move(action), std::move(resolver)),
      [deps, handler](http::RouteContext& context) { return handler(*deps, context); }};
}

}  // namespace

http::Surface MakeKafkaSurface(const KafkaDeps& deps_in) {
  auto deps = std::make_shared<const KafkaDeps>(deps_in);
  const std::string kChannels = "/clusters/{clusterArn}/channels";
  const std::string kChannel = kChannels + "/{channelArn}";
  const std::string kTags = "/tags/{resourceArn}";
  std::vector<http::Route> routes = {
      MakeRoute(deps, "POST", kChannels, "CreateChannel", "kafka:CreateChannel",
                ResourceFrom("clusterArn"), CreateChannel),
      MakeRoute(deps, "GET", kChannels, "ListChannels", "kafka:ListChannels",
                ResourceFrom("clusterArn"), ListChannels),
      MakeRoute(deps, "GET", kChannel, "DescribeChannel", "kafka:DescribeChannel",
                ResourceFrom("channelArn"), DescribeChannel),
      MakeRoute(deps, "PUT", kChannel, "UpdateChannel", "kafka:UpdateChannel",
                ResourceFrom("channelArn"), UpdateChannel),
      MakeRoute(deps, "DELETE", kChannel, "DeleteChannel", "kafka:DeleteChannel",
                ResourceFrom("channelArn"), DeleteChannel),
      MakeRoute(deps, "POST", kChannel + "/pause", "PauseChannel", "kafka:UpdateChannel",
                ResourceFrom("channelArn"), PauseChannel),
      MakeRoute(deps, "POST", kChannel + "/resume", "ResumeChannel", "kafka:UpdateChannel",
                ResourceFrom("channelArn"), ResumeChannel),
      MakeRoute(deps, "POST", kTags, "TagResource", "kafka:TagResource",
                ResourceFrom("resourceArn"), TagResource),
      MakeRoute(deps, "DELETE", kTags, "UntagResource", "kafka:UntagResource",
                ResourceFrom("resourceArn"), UntagResource),
      MakeRoute(deps, "GET", kTags, "ListTagsForResource", "kafka:ListTagsForResource",
                ResourceFrom("resourceArn"), ListTagsForResource),
  };
  return http::Surface{"kafka", "/v1", std::make_shared<KafkaErrorWriter>(), std::move(routes)};
}

http::Surface MakeKafkaOperationsSurface(const KafkaDeps& deps_in) {
  auto deps = std::make_shared<const KafkaDeps>(deps_in);
  std::vector<http::Route> routes = {
      MakeRoute(deps, "GET", "/operations/{clusterOperationArn}", "DescribeClusterOperationV2",
                "kafka:DescribeClusterOperationV2", OperationCluster(), DescribeClusterOperationV2),
  };
  return http::Surface{"kafka-v2", "/api/v2", std::make_shared<KafkaErrorWriter>(),
                       std::move(routes)};
}

}  // namespace st::api::kafka
