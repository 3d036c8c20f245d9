// CreateChannel, DescribeChannel, ListChannels, UpdateChannel, DeleteChannel
// and the pause/resume extension. Status moves here are the API's half of
// the lifecycle (issue 4 plan): create → CREATING, update → UPDATING (ACTIVE
// only), delete → DELETING; the delivery runtime does the rest.
#include <charconv>

#include "api/kafka/kafka_errors_internal.h"
#include "api/kafka/operations_internal.h"
#include "api/kafka/resource_lookup_internal.h"
#include "auth/secret_sealer.h"
#include "catalog/channel_model.h"
#include "common/base64.h"
#include "common/json_nesting.h"
#include "common/utc_time.h"

namespace st::api::kafka {

namespace {

using nlohmann::json;

http::HttpError NotActive(const catalog::Channel& channel, const std::string& what) {
  return BadParameter("channelArn", std::string("The channel is ") +
                                        catalog::ChannelStatusName(channel.status) + "; only an " +
                                        "ACTIVE channel can be " + what +
                                        ". Wait until it is "
                                        "ACTIVE and retry.");
}

Status Authorize(const KafkaDeps& deps, const Ctx& context, auth::AccessRequest access) {
  ST_ASSIGN_OR_RETURN(
      auth::AuthDecision decision,
      deps.authorizer.Authorize(http::CallContextOf(context.request), context.principal, access));
  if (!decision.allowed) return Status(StatusCode::kAccessDenied, decision.message);
  return Status::OK();
}

json OperationReply(const catalog::Channel& channel) {
  json out = {{"channelArn", channel.arn}};
  if (channel.cluster_operation_arn.has_value()) {
    out["clusterOperationArn"] = *channel.cluster_operation_arn;
  }
  return out;
}

// Replaces the external registry's plaintext secret by its sealed form
// (base64), bound to the channel and the registry (ExternalRegistrySealContextOf).
Status SealRegistrySecret(const KafkaDeps& deps, catalog::ChannelConfig& config) {
  catalog::ExternalSchemaRegistry& registry = *config.external_registry;
  if (!registry.basic_auth_secret.has_value()) return Status::OK();
  if (deps.secret_sealer == nullptr) {
    return Internal(
        "This server has no secret sealer, so it cannot keep an external schema "
        "registry's credentials.");
  }
  ST_ASSIGN_OR_RETURN(std::string sealed,
                      deps.secret_sealer->Seal(*registry.basic_auth_secret,
                                               catalog::ExternalRegistrySealContextOf(config)));
  registry.sealed_basic_auth_secret = common::Base64Encode(sealed);
  registry.basic_auth_secret.reset();
  return Status::OK();
}

json ChannelInfo(const catalog::Channel& channel) {
  json out = OperationReply(channel);
  out["channelName"] = channel.name;
  out["status"] = catalog::ChannelStatusName(channel.status);
  out["creationTime"] = FormatUtcMillis(channel.created_at);
  out["destinationType"] = "ICEBERG";
  return out;
}

}  // namespace

Reply CreateChannel(const KafkaDeps& deps, Ctx& context) {
  auto cluster = ClusterFromPath(deps, context);
  if (!cluster) return FailOn(context, "clusterArn", cluster.error());
  ST_TRY(CheckJsonNesting(context.request.body, "The request body"));
  std::string invalid_member;
  auto request = catalog::ParseCreateChannelRequest(context.request.body, &invalid_member);
  if (!request) return FailOn(context, invalid_member, request.error());
  catalog::ChannelConfig& config = request->config;
  if (config.topic.cluster.cluster_arn != cluster->arn) {
    return context.Fail(BadParameter("topicArn", "The topic ARN '" + config.topic_arn +
                                                     "' is not a topic of the cluster '" +
                                                     cluster->arn + "'."));
  }
  if (config.external_registry.has_value()) {
    if (Status allowed = catalog::CheckRegistryHostAllowed(*config.external_registry,
                                                           deps.external_registry_hosts);
        !allowed.ok()) {
      return context.Fail(BadParameter("externalSchemaRegistry", allowed.message()));
    }
    ST_TRY(SealRegistrySecret(deps, config));
  }
  const std::string& role_arn = config.service_execution_role.arn;
  const std::string& role_account = config.service_execution_role.account_id;

  // As with IAM PassRole, only a role of the caller's own account can be
  // passed, whatever the caller's policies allow: another account's role
  // would create and fill tables in that account's buckets. A bucket of
  // another account is reached by its bucket policy granting the caller's role.
  const std::string caller_account = CallerAccount(deps, context);
  if (role_account != caller_account) {
    return FailOn(context, "serviceExecutionRoleArn",
                  Status(StatusCode::kAccessDenied,
                         "Not authorized to perform iam:PassRole on " + role_arn +
                             ": the role belongs to account '" + role_account +
                             "', and a channel can only pass a role of the caller's account " +
                             caller_account + ". Use a role of account " + caller_account +
                             " and grant it access to another account's table bucket with that "
                             "bucket's policy."));
  }

  auth::AccessRequest pass_role;
  pass_role.action = "iam:PassRole";
  pass_role.resource = role_arn;
  pass_role.condition_keys["iam:PassedToService"] = {"kafka.amazonaws.com"};
  ST_TRY(Authorize(deps, context, pass_role));
  if (!request->tags.empty()) {
    auth::AccessRequest tag;
    tag.action = "kafka:TagResource";
    tag.resource = cluster->arn;
    ST_TRY(Authorize(deps, context, tag));
  }

  auto bucket = deps.store.GetTableBucket(config.table_bucket_arn);
  if (!bucket.has_value()) {
    if (bucket.error().code() != StatusCode::kNotFound) return Err(bucket.error());
    return context.Fail(BadParameter(
        "warehouseLocation",
        "The table bucket '" + config.table_bucket_arn + "' does not exist; create it first."));
  }

  catalog::NewChannel row{cluster->arn, cluster->owner_account_id, config.channel_name,
                          config.topic.topic, catalog::SerializeChannelConfig(config)};
  auto channel = deps.store.CreateChannel(row);
  if (!channel.has_value()) {
    if (channel.error().code() == StatusCode::kAlreadyExists) {
      return FailOn(context, "channelName", channel.error());
    }
    return Err(channel.error());
  }
  if (!request->tags.empty()) ST_TRY(deps.store.TagResource(channel->arn, request->tags));
  return JsonResponse(OperationReply(*channel));
}

Reply DescribeChannel(const KafkaDeps& deps, Ctx& context) {
  auto cluster = ClusterFromPath(deps, context);
  if (!cluster) return FailOn(context, "clusterArn", cluster.error());
  auto channel = ChannelOfCluster(deps, context, *cluster);
  if (!channel) return FailOn(context, "channelArn", channel.error());
  // The configuration is echoed from the model; a row that does not parse
  // still describes (status, stateInfo), without it.
  json out = json::object();
  if (auto config = catalog::ParseChannelConfig(channel->configuration_json,
                                                catalog::ChannelDocument::kStored);
      config.has_value()) {
    out = json::parse(catalog::SerializeChannelConfig(*config, catalog::ChannelEcho::kDescribe));
  }
  out.update(ChannelInfo(*channel));
  std::optional<catalog::ChannelStateInfo> info = channel->state_info;
  if (!info && channel->status == catalog::ChannelStatus::kActive && deps.live_state_info) {
    info = deps.live_state_info(channel->arn);
  }
  if (info.has_value()) out["stateInfo"] = {{"code", info->code}, {"message", info->message}};
  out["paused"] = channel->paused;  // Extension; clients ignore unknown members.
  if (deps.quarantined_versions) {
    // Extension: the versions a schema change cannot evolve the table to.
    json versions = json::array();
    for (const KafkaDeps::QuarantinedVersion& v : deps.quarantined_versions(channel->arn)) {
      versions.push_back({{"schemaVersionId", v.schema_version_id},
                          {"records", v.records},
                          {"message", v.message}});
    }
    if (!versions.empty()) out["quarantinedSchemaVersions"] = std::move(versions);
  }
  ST_ASSIGN_OR_RETURN(catalog::Tags tags, deps.store.ListTags(channel->arn));
  out["tags"] = json::object();
  for (const auto& [key, value] : tags) out["tags"][key] = value;
  return JsonResponse(out);
}

Reply ListChannels(const KafkaDeps& deps, Ctx& context) {
  auto cluster = ClusterFromPath(deps, context);
  if (!cluster) return FailOn(context, "clusterArn", cluster.error());
  catalog::PageRequest page;
  page.limit = 100;
  if (auto max = context.request.query().Get("maxResults"); max.has_value()) {
    int value = 0;
    auto [end, ec] = std::from_chars(max->data(), max->data() + max->size(), value);
    if (ec != std::errc() || end != max->data() + max->size() || value < 1 || value > 100) {
      return context.Fail(
          BadParameter("maxResults", "maxResults must be an integer from 1 to 100."));
    }
    page.limit = value;
  }
  if (auto token = context.request.query().Get("nextToken"); token.has_value()) {
    page.continuation_token = std::string(*token);
  }
  std::optional<std::string> topic;
  if (auto filter = context.request.query().Get("topicNameFilter"); filter.has_value()) {
    topic = std::string(*filter);
  }
  auto listed = deps.store.ListChannels(cluster->arn, topic, page);
  if (!listed.has_value()) {
    if (listed.error().code() == StatusCode::kInvalidArgument) {
      return context.Fail(BadParameter("nextToken", listed.error().message()));
    }
    return Err(listed.error());
  }
  json channels = json::array();
  for (const catalog::Channel& channel : listed->items) channels.push_back(ChannelInfo(channel));
  json out = {{"channels", channels}};
  if (!listed->continuation_token.empty()) out["nextToken"] = listed->continuation_token;
  return JsonResponse(out);
}

Reply UpdateChannel(const KafkaDeps& deps, Ctx& context) {
  auto cluster = ClusterFromPath(deps, context);
  if (!cluster) return FailOn(context, "clusterArn", cluster.error());
  auto channel = ChannelOfCluster(deps, context, *cluster);
  if (!channel) return FailOn(context, "channelArn", channel.error());
  ST_TRY(CheckJsonNesting(context.request.body, "The request body"));
  std::string invalid_member;
  auto update = catalog::ParseUpdateChannelRequest(context.request.body, &invalid_member);
  if (!update) return FailOn(context, invalid_member, update.error());
  if (channel->status != catalog::ChannelStatus::kActive) {
    return context.Fail(NotActive(*channel, "updated"));
  }
  auto config =
      catalog::ParseChannelConfig(channel->configuration_json, catalog::ChannelDocument::kStored);
  if (!config) {
    return Err(Internal("The stored configuration of " + channel->arn +
                        " does not parse: " + config.error().message()));
  }
  if (update->data_freshness.has_value()) config->data_freshness = *update->data_freshness;
  if (update->external_registry.has_value()) {
    // Only a channel that reads an external registry can move to another
    // one (or new credentials): the built-in registry's ids are not theirs.
    if (!config->external_registry.has_value()) {
      return context.Fail(BadParameter(
          "externalSchemaRegistryUpdate",
          "The channel reads its schemas from the built-in registry; only a channel created "
          "with recordSchema.externalSchemaRegistry can change it."));
    }
    config->external_registry = std::move(update->external_registry);
    if (Status allowed = catalog::CheckRegistryHostAllowed(*config->external_registry,
                                                           deps.external_registry_hosts);
        !allowed.ok()) {
      return context.Fail(BadParameter("externalSchemaRegistryUpdate", allowed.message()));
    }
    // Sealed again, bound to the new URL: the old sealed secret goes.
    ST_TRY(SealRegistrySecret(deps, *config));
  }
  catalog::ChannelChange change;
  change.expected_status = catalog::ChannelStatus::kActive;
  change.status = catalog::ChannelStatus::kUpdating;
  change.configuration_json = catalog::SerializeChannelConfig(*config);
  auto updated = deps.store.UpdateChannel(channel->arn, change);
  if (!updated.has_value()) {
    if (updated.error().code() == StatusCode::kConflict) {
      return context.Fail(NotActive(*channel, "updated"));
    }
    return Err(updated.error());
  }
  return JsonResponse(OperationReply(*updated));
}

Reply DeleteChannel(const KafkaDeps& deps, Ctx& context) {
  auto cluster = ClusterFromPath(deps, context);
  if (!cluster) return FailOn(context, "clusterArn", cluster.error());
  auto channel = ChannelOfCluster(deps, context, *cluster);
  if (!channel) return FailOn(context, "channelArn", channel.error());
  // The runtime may move the status meanwhile; re-read and retry the CAS.
  for (int attempt = 0; attempt < 5; ++attempt) {
    if (channel->status == catalog::ChannelStatus::kDeleting) {
      return JsonResponse(OperationReply(*channel));
    }
    catalog::ChannelChange change;
    change.expected_status = channel->status;
    change.status = catalog::ChannelStatus::kDeleting;
    auto deleting = deps.store.UpdateChannel(channel->arn, change);
    if (deleting.has_value()) return JsonResponse(OperationReply(*deleting));
    if (deleting.error().code() != StatusCode::kConflict) return Err(deleting.error());
    ST_ASSIGN_OR_RETURN(*channel, deps.store.GetChannel(channel->arn));
  }
  return Err(StatusCode::kUnavailable, "The channel changed status repeatedly; retry the delete.");
}

namespace {

Reply SetPaused(const KafkaDeps& deps, Ctx& context, bool paused) {
  auto cluster = ClusterFromPath(deps, context);
  if (!cluster) return FailOn(context, "clusterArn", cluster.error());
  auto channel = ChannelOfCluster(deps, context, *cluster);
  if (!channel) return FailOn(context, "channelArn", channel.error());
  if (channel->status == catalog::ChannelStatus::kDeleting) {
    return context.Fail(BadParameter("channelArn", "The channel is being deleted."));
  }
  catalog::ChannelChange change;
  change.paused = paused;
  ST_ASSIGN_OR_RETURN(catalog::Channel updated, deps.store.UpdateChannel(channel->arn, change));
  return JsonResponse({{"channelArn", updated.arn},
                       {"status", catalog::ChannelStatusName(updated.status)},
                       {"paused", updated.paused}});
}

}  // namespace

Reply PauseChannel(const KafkaDeps& deps, Ctx& context) { return SetPaused(deps, context, true); }
Reply ResumeChannel(const KafkaDeps& deps, Ctx& context) { return SetPaused(deps, context, false); }

}  // namespace st::api::kafka
