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
  ST_ASSIGN_OR_RETURN(catalog::Account account,
                      deps.store.GetAccount(context.params.Get("accountId")));
  return JsonReply(200, AccountJson(account));
}

Reply ListAccounts(const AdminDeps& deps, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(catalog::PageRequest page, PageFromQuery(context.request));
  ST_ASSIGN_OR_RETURN(catalog::Page<catalog::Account> listed, deps.store.ListAccounts(page));
  nlohmann::json accounts = nlohmann::json::array();
  for (const catalog::Account& account : listed.items) accounts.push_back(AccountJson(account));
  nlohmann::json out = {{"accounts", std::move(accounts)}};
  if (!listed.continuation_token.empty()) out["continuationToken"] = listed.continuation_token;
  return JsonReply(200, out);
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
