// The route table of the admin API: one IAM action per route, authorized on
// the identity's ARN before any handler runs.
#include "api/admin/admin_surface.h"

#include "api/admin/admin_operations_internal.h"
#include "http/error_shapes.h"

namespace st::api::admin {

namespace {

using IdentityOperation = Reply (*)(const AdminDeps&, catalog::IdentityKind, http::RouteContext&);
using AccountOperation = Reply (*)(const AdminDeps&, http::RouteContext&);

// The operator's root: account administration belongs to the operator account.
http::AccessResolver OperatorRootAccess(DepsPtr deps) {
  return [deps](const http::Request&, const http::PathParams&, auth::AccessRequest& access) {
    access.resource = "arn:aws:iam::" + deps->operator_account_id + ":root";
    return Status::OK();
  };
}

// All users (or roles) of ?accountId.
http::AccessResolver IdentityListAccess(DepsPtr deps, catalog::IdentityKind kind) {
  return [deps, kind](const http::Request& request, const http::PathParams&,
                      auth::AccessRequest& access) -> Status {
    ST_ASSIGN_OR_RETURN(std::string account, TargetAccount(request, *deps));
    access.resource =
        "arn:aws:iam::" + account + (kind == catalog::IdentityKind::kUser ? ":user/*" : ":role/*");
    return Status::OK();
  };
}

// The identity {name} of ?accountId.
http::AccessResolver IdentityAccess(DepsPtr deps, catalog::IdentityKind kind) {
  return [deps, kind](const http::Request& request, const http::PathParams& params,
                      auth::AccessRequest& access) -> Status {
    ST_ASSIGN_OR_RETURN(access.resource, TargetIdentityArn(request, params, kind, *deps));
    return Status::OK();
  };
}

// CreateUser/CreateRole: the ARN of the identity the body names.
http::AccessResolver CreateIdentityAccess(DepsPtr deps, catalog::IdentityKind kind) {
  return [deps, kind](const http::Request& request, const http::PathParams&,
                      auth::AccessRequest& access) -> Status {
    ST_ASSIGN_OR_RETURN(std::string account, TargetAccount(request, *deps));
    ST_ASSIGN_OR_RETURN(nlohmann::json body, JsonObjectBody(request));
    ST_ASSIGN_OR_RETURN(std::string name, RequiredString(body, "name"));
    access.resource = "arn:aws:iam::" + account +
                      (kind == catalog::IdentityKind::kUser ? ":user/" : ":role/") + name;
    return Status::OK();
  };
}

// Kafka clusters: the named cluster's ARN, or (create, list) a pattern of the account's.
http::AccessResolver ClusterAccess(DepsPtr deps, bool by_name_in_body) {
  return [deps, by_name_in_body](const http::Request& request, const http::PathParams& params,
                                 auth::AccessRequest& access) -> Status {
    ST_ASSIGN_OR_RETURN(std::string account, TargetAccount(request, *deps));
    std::string prefix = "arn:aws:kafka:" + deps->region + ":" + account + ":cluster/";
    if (by_name_in_body) {
      ST_ASSIGN_OR_RETURN(nlohmann::json body, JsonObjectBody(request));
      ST_ASSIGN_OR_RETURN(std::string name, RequiredString(body, "name"));
      access.resource = prefix + name + "/*";
    } else if (params.Get("cluster").empty()) {
      access.resource = prefix + "*";
    } else {
      ST_ASSIGN_OR_RETURN(access.resource, TargetClusterArn(request, params, *deps));
    }
    return Status::OK();
  };
}

// ?tableArn: the table a maintenance run acts on.
http::AccessResolver TableArnAccess() {
  return [](const http::Request& request, const http::PathParams&,
            auth::AccessRequest& access) -> Status {
    std::optional<std::string_view> arn = request.query().Get("tableArn");
    if (!arn.has_value() || arn->empty()) {
      return InvalidArgument("The query parameter 'tableArn' is required.");
    }
    access.resource = std::string(*arn);
    return Status::OK();
  };
}

}  // namespace

http::Surface MakeAdminSurface(const AdminDeps& deps_in) {
  auto deps = std::make_shared<const AdminDeps>(deps_in);
  std::vector<http::Route> routes;
  auto account_route = [&](std::string method, std::string path, std::string operation,
                           AccountOperation handler) {
    routes.push_back(http::Route{
        std::move(method),
        std::move(path),
        {},
        operation,
        http::Requires("iam:" + operation, OperatorRootAccess(deps)),
        [deps, handler](http::RouteContext& context) { return handler(*deps, context); }});
  };
  account_route("POST", "/accounts", "CreateAccount", CreateAccount);
  account_route("GET", "/accounts", "ListAccounts", ListAccounts);
  account_route("GET", "/accounts/{accountId}", "GetAccount", GetAccount);

  auto cluster_route = [&](std::string method, std::string path, std::string operation,
                           std::string action, bool by_name, AccountOperation handler) {
    routes.push_back(http::Route{
        std::move(method),
        std::move(path),
        {},
        std::move(operation),
        http::Requires(std::move(action), ClusterAccess(deps, by_name)),
        [deps, handler](http::RouteContext& context) { return handler(*deps, context); }});
  };
  cluster_route("POST", "/kafka-clusters", "RegisterKafkaCluster", "kafka:CreateClusterV2", true,
                RegisterKafkaCluster);
  cluster_route("GET", "/kafka-clusters", "ListKafkaClusters", "kafka:ListClustersV2", false,
                ListKafkaClusters);
  cluster_route("GET", "/kafka-clusters/{cluster}", "GetKafkaCluster", "kafka:DescribeClusterV2",
                false, GetKafkaCluster);
  cluster_route("DELETE", "/kafka-clusters/{cluster}", "DeleteKafkaCluster", "kafka:DeleteCluster",
                false, DeleteKafkaCluster);

  for (catalog::IdentityKind kind : {catalog::IdentityKind::kUser, catalog::IdentityKind::kRole}) {
    const std::string word = KindWord(kind);
    const std::string base = kind == catalog::IdentityKind::kUser ? "/users" : "/roles";
    auto route = [&](std::string method, std::string path, std::string operation,
                     http::AccessResolver resolver, IdentityOperation handler) {
      routes.push_back(http::Route{std::move(method),
                                   base + path,
                                   {},
                                   operation,
                                   http::Requires("iam:" + operation, std::move(resolver)),
                                   [deps, kind, handler](http::RouteContext& context) {
                                     return handler(*deps, kind, context);
                                   }});
    };
    route("POST", "", "Create" + word, CreateIdentityAccess(deps, kind), CreateIdentity);
    route("GET", "", "List" + word + "s", IdentityListAccess(deps, kind), ListIdentities);
    route("GET", "/{name}", "Get" + word, IdentityAccess(deps, kind), GetIdentity);
    route("DELETE", "/{name}", "Delete" + word, IdentityAccess(deps, kind), DeleteIdentity);
    route("POST", "/{name}/access-keys", "CreateAccessKey", IdentityAccess(deps, kind),
          CreateAccessKey);
    route("GET", "/{name}/access-keys", "ListAccessKeys", IdentityAccess(deps, kind),
          ListAccessKeys);
    route("DELETE", "/{name}/access-keys/{accessKeyId}", "DeleteAccessKey",
          IdentityAccess(deps, kind), DeleteAccessKey);
    route("GET", "/{name}/policies", "List" + word + "Policies", IdentityAccess(deps, kind),
          ListPolicies);
    route("PUT", "/{name}/policies/{policyName}", "Put" + word + "Policy",
          IdentityAccess(deps, kind), PutPolicy);
    route("GET", "/{name}/policies/{policyName}", "Get" + word + "Policy",
          IdentityAccess(deps, kind), GetPolicy);
    route("DELETE", "/{name}/policies/{policyName}", "Delete" + word + "Policy",
          IdentityAccess(deps, kind), DeletePolicy);
  }
  routes.push_back(http::Route{
      "POST",
      "/maintenance/run",
      {},
      "RunMaintenanceJob",
      http::Requires("s3tables:PutTableMaintenanceConfiguration", TableArnAccess()),
      [deps](http::RouteContext& context) { return RunMaintenanceJob(*deps, context); }});
  return http::Surface{"admin", "/admin", std::make_shared<http::S3TablesErrorWriter>(),
                       std::move(routes)};
}

}  // namespace st::api::admin
