// Accounts and identities (IAM users and roles).
#include "api/admin/admin_operations_internal.h"

namespace st::api::admin {

Reply CreateAccount(const AdminDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(nlohmann::json body, JsonObjectBody(context.request));
  ST_ASSIGN_OR_RETURN(std::string account, RequiredString(body, "accountId"));
  ST_TRY(deps.store.CreateAccount(account));
  return JsonReply(200, {{"accountId", account}});
}

Reply GetAccount(const AdminDeps& deps, http::RouteContext& context) {
  const std::string& account = context.params.Get("accountId");
  ST_ASSIGN_OR_RETURN(bool exists, deps.store.AccountExists(account));
  if (!exists) return Err(NotFound("The account '" + account + "' does not exist."));
  return JsonReply(200, {{"accountId", account}});
}

Reply CreateIdentity(const AdminDeps& deps, catalog::IdentityKind kind,
                     http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string account, TargetAccount(context.request, deps));
  ST_ASSIGN_OR_RETURN(nlohmann::json body, JsonObjectBody(context.request));
  ST_ASSIGN_OR_RETURN(std::string name, RequiredString(body, "name"));
  ST_ASSIGN_OR_RETURN(catalog::Identity identity, deps.store.CreateIdentity(kind, account, name));
  return JsonReply(200, IdentityJson(identity));
}

Reply ListIdentities(const AdminDeps& deps, catalog::IdentityKind kind,
                     http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string account, TargetAccount(context.request, deps));
  ST_ASSIGN_OR_RETURN(std::vector<catalog::Identity> all, deps.store.ListIdentities(account));
  nlohmann::json list = nlohmann::json::array();
  for (const catalog::Identity& identity : all) {
    if (identity.kind == kind) list.push_back(IdentityJson(identity));
  }
  return JsonReply(200, {{kind == catalog::IdentityKind::kUser ? "users" : "roles", list}});
}

Reply GetIdentity(const AdminDeps& deps, catalog::IdentityKind kind, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn,
                      TargetIdentityArn(context.request, context.params, kind, deps));
  ST_ASSIGN_OR_RETURN(catalog::Identity identity, deps.store.GetIdentity(arn));
  return JsonReply(200, IdentityJson(identity));
}

Reply DeleteIdentity(const AdminDeps& deps, catalog::IdentityKind kind,
                     http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn,
                      TargetIdentityArn(context.request, context.params, kind, deps));
  ST_TRY(deps.store.DeleteIdentity(arn));
  return http::Response::Empty(204);
}

}  // namespace st::api::admin
