// TagResource / UntagResource / ListTagsForResource on Kafka cluster and
// channel ARNs, and DescribeClusterOperationV2 for channel operations.
#include "api/kafka/kafka_errors_internal.h"
#include "api/kafka/operations_internal.h"
#include "catalog/names.h"
#include "common/json_nesting.h"
#include "common/utc_time.h"

namespace st::api::kafka {

namespace {

using nlohmann::json;

// The account a Kafka cluster/channel ARN names. Other ARNs are not ours.
Result<std::string> KafkaResourceAccount(const std::string& arn) {
  if (auto channel = catalog::ParseKafkaChannelArn(arn); channel.has_value()) {
    return channel->cluster.account_id;
  }
  if (auto cluster = catalog::ParseKafkaClusterArn(arn); cluster.has_value()) {
    return cluster->account_id;
  }
  return Err(
      InvalidArgument("The resource ARN '" + arn + "' is not a Kafka cluster or channel ARN."));
}

// The {resourceArn} label when it names a resource of the caller's account.
// Errors: InvalidArgument, NotFound (both about resourceArn).
Result<std::string> OwnedResource(const KafkaDeps& deps, const Ctx& context) {
  const std::string& arn = context.params.Get("resourceArn");
  ST_ASSIGN_OR_RETURN(std::string account, KafkaResourceAccount(arn));
  if (account != CallerAccount(deps, context)) {
    return Err(NotFound("The resource '" + arn + "' does not exist."));
  }
  return arn;
}

Reply StoreFailure(const Ctx& context, const Status& status) {
  if (status.code() == StatusCode::kNotFound) {
    return context.Fail(NotFoundParameter("resourceArn", status.message()));
  }
  if (status.code() == StatusCode::kInvalidArgument) {
    return context.Fail(BadParameter("tags", status.message()));
  }
  return Err(status);
}

}  // namespace

std::string CallerAccount(const KafkaDeps& deps, const Ctx& context) {
  return context.principal.account_id.empty() ? deps.account_id : context.principal.account_id;
}

http::Response JsonResponse(const json& body, int status) {
  return http::Response::Json(status, body.dump());
}

http::Response FailOn(const Ctx& context, const std::string& parameter, const Status& status) {
  return context.Fail(ParameterError(parameter, status));
}

Reply TagResource(const KafkaDeps& deps, Ctx& context) {
  auto arn = OwnedResource(deps, context);
  if (!arn) return FailOn(context, "resourceArn", arn.error());
  ST_TRY(CheckJsonNesting(context.request.body, "The request body"));
  json body = json::parse(context.request.body, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object() || !body.contains("tags") || !body["tags"].is_object()) {
    return context.Fail(BadParameter("tags", "The required member 'tags' (an object) is missing."));
  }
  catalog::Tags tags;
  for (const auto& [key, value] : body["tags"].items()) {
    if (!value.is_string())
      return context.Fail(BadParameter("tags", "Tag values must be strings."));
    tags[key] = value.get<std::string>();
  }
  if (Status s = deps.store.TagResource(*arn, tags); !s.ok()) return StoreFailure(context, s);
  return http::Response::Empty(204);
}

Reply UntagResource(const KafkaDeps& deps, Ctx& context) {
  auto arn = OwnedResource(deps, context);
  if (!arn) return FailOn(context, "resourceArn", arn.error());
  std::vector<std::string> keys;
  for (std::string_view key : context.request.query().GetAll("tagKeys")) keys.emplace_back(key);
  if (keys.empty()) {
    return context.Fail(BadParameter("tagKeys", "The query parameter tagKeys is required."));
  }
  if (Status s = deps.store.UntagResource(*arn, keys); !s.ok()) return StoreFailure(context, s);
  return http::Response::Empty(204);
}

Reply ListTagsForResource(const KafkaDeps& deps, Ctx& context) {
  auto arn = OwnedResource(deps, context);
  if (!arn) return FailOn(context, "resourceArn", arn.error());
  auto tags = deps.store.ListTags(*arn);
  if (!tags) return StoreFailure(context, tags.error());
  json out = json::object();
  for (const auto& [key, value] : *tags) out[key] = value;
  return JsonResponse({{"tags", out}});
}

Reply DescribeClusterOperationV2(const KafkaDeps& deps, Ctx& context) {
  const std::string& arn = context.params.Get("clusterOperationArn");
  auto parts = catalog::ParseKafkaClusterOperationArn(arn);
  if (!parts) return context.Fail(BadParameter("clusterOperationArn", parts.error().message()));
  const std::string missing = "The cluster operation '" + arn +
                              "' does not exist (ended channel operations are kept for 30 "
                              "days).";
  if (parts->cluster.account_id != CallerAccount(deps, context)) {
    return context.Fail(NotFoundParameter("clusterOperationArn", missing));
  }
  Result<catalog::ChannelOperation> operation = deps.store.GetChannelOperation(arn);
  if (!operation.has_value()) {
    if (operation.error().code() == StatusCode::kNotFound) {
      return context.Fail(NotFoundParameter("clusterOperationArn", missing));
    }
    return StoreFailure(context, operation.error());
  }
  json info = {{"clusterArn", operation->cluster_arn},
               {"clusterType", "PROVISIONED"},
               {"operationArn", arn},
               {"operationState", operation->state},
               {"operationType", operation->type},
               {"startTime", FormatUtcMillis(operation->start_time)}};
  if (operation->end_time.has_value()) info["endTime"] = FormatUtcMillis(*operation->end_time);
  if (operation->error.has_value()) {
    info["errorInfo"] = {{"errorCode", operation->error->code},
                         {"errorString", operation->error->message}};
  }
  return JsonResponse({{"clusterOperationInfo", info}});
}

}  // namespace st::api::kafka
