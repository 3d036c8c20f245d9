// Registered Kafka clusters: the brokers delivery channels consume from.
#include "api/admin/admin_operations_internal.h"
#include "catalog/arns.h"
#include "catalog/kafka_client_properties.h"

namespace st::api::admin {

namespace {

nlohmann::json ClusterJson(const catalog::KafkaCluster& cluster) {
  nlohmann::json properties = nlohmann::json::object();
  for (const auto& [key, value] : cluster.client_properties) {
    properties[key] = catalog::IsSecretKafkaClientProperty(key) ? "****" : value;
  }
  return {{"clusterArn", cluster.arn},
          {"clusterName", cluster.name},
          {"accountId", cluster.owner_account_id},
          {"region", cluster.region},
          {"bootstrapServers", cluster.bootstrap_servers},
          {"clientProperties", properties},
          {"creationTime", Iso8601(cluster.created_at)}};
}

}  // namespace

Result<std::string> TargetClusterArn(const http::Request& request, const http::PathParams& params,
                                     const AdminDeps& deps) {
  const std::string& cluster = params.Get("cluster");
  if (cluster.rfind("arn:", 0) == 0) {
    ST_TRY(catalog::ParseKafkaClusterArn(cluster));
    return cluster;
  }
  ST_ASSIGN_OR_RETURN(std::string account, TargetAccount(request, deps));
  ST_ASSIGN_OR_RETURN(std::vector<catalog::KafkaCluster> all,
                      deps.store.ListKafkaClusters(account));
  for (const catalog::KafkaCluster& candidate : all) {
    if (candidate.name == cluster) return candidate.arn;
  }
  return Err(NotFound("No Kafka cluster named '" + cluster + "' is registered in account " +
                      account + "."));
}

Reply RegisterKafkaCluster(const AdminDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string account, TargetAccount(context.request, deps));
  ST_ASSIGN_OR_RETURN(nlohmann::json body, JsonObjectBody(context.request));
  catalog::NewKafkaCluster cluster;
  cluster.owner_account_id = account;
  cluster.region = deps.region;
  ST_ASSIGN_OR_RETURN(cluster.name, RequiredString(body, "name"));
  ST_ASSIGN_OR_RETURN(cluster.bootstrap_servers, RequiredString(body, "bootstrapServers"));
  auto properties = body.find("clientProperties");
  if (properties != body.end() && !properties->is_null()) {
    if (!properties->is_object()) {
      return Err(InvalidArgument("clientProperties must be an object of strings."));
    }
    for (const auto& [key, value] : properties->items()) {
      if (!value.is_string()) {
        return Err(InvalidArgument("The client property '" + key + "' must be a string."));
      }
      cluster.client_properties[key] = value.get<std::string>();
    }
  }
  ST_TRY(catalog::ValidateKafkaClientProperties(cluster.client_properties));
  ST_ASSIGN_OR_RETURN(catalog::KafkaCluster created, deps.store.CreateKafkaCluster(cluster));
  return JsonReply(200, ClusterJson(created));
}

Reply ListKafkaClusters(const AdminDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string account, TargetAccount(context.request, deps));
  ST_ASSIGN_OR_RETURN(std::vector<catalog::KafkaCluster> all,
                      deps.store.ListKafkaClusters(account));
  nlohmann::json list = nlohmann::json::array();
  for (const catalog::KafkaCluster& cluster : all) list.push_back(ClusterJson(cluster));
  return JsonReply(200, {{"clusters", list}});
}

Reply GetKafkaCluster(const AdminDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn, TargetClusterArn(context.request, context.params, deps));
  ST_ASSIGN_OR_RETURN(catalog::KafkaCluster cluster, deps.store.GetKafkaCluster(arn));
  return JsonReply(200, ClusterJson(cluster));
}

Reply DeleteKafkaCluster(const AdminDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn, TargetClusterArn(context.request, context.params, deps));
  ST_TRY(deps.store.DeleteKafkaCluster(arn));
  return http::Response::Empty(204);
}

}  // namespace st::api::admin
