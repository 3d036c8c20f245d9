// Access keys and inline identity policies of users and roles.
#include "api/admin/admin_operations_internal.h"
#include "auth/policy.h"

namespace st::api::admin {

Reply CreateAccessKey(const AdminDeps& deps, catalog::IdentityKind kind,
                      http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn,
                      TargetIdentityArn(context.request, context.params, kind, deps));
  ST_ASSIGN_OR_RETURN(catalog::AccessKey key, deps.store.CreateAccessKey(arn));
  // The only time the secret leaves the server.
  return JsonReply(200, AccessKeyJson(key, /*with_secret=*/true));
}

Reply ListAccessKeys(const AdminDeps& deps, catalog::IdentityKind kind,
                     http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn,
                      TargetIdentityArn(context.request, context.params, kind, deps));
  ST_ASSIGN_OR_RETURN(std::vector<catalog::AccessKey> keys, deps.store.ListAccessKeys(arn));
  nlohmann::json list = nlohmann::json::array();
  for (const catalog::AccessKey& key : keys) list.push_back(AccessKeyJson(key, false));
  return JsonReply(200, {{"accessKeys", list}});
}

Reply DeleteAccessKey(const AdminDeps& deps, catalog::IdentityKind kind,
                      http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn,
                      TargetIdentityArn(context.request, context.params, kind, deps));
  const std::string& id = context.params.Get("accessKeyId");
  ST_ASSIGN_OR_RETURN(catalog::AccessKey key, deps.store.GetAccessKey(id));
  // A key id under another identity's path must not delete that identity's key.
  if (key.owner_arn != arn) {
    return Err(NotFound("The access key '" + id + "' does not belong to " + arn + "."));
  }
  ST_TRY(deps.store.DeleteAccessKey(id));
  return http::Response::Empty(204);
}

Reply ListPolicies(const AdminDeps& deps, catalog::IdentityKind kind, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn,
                      TargetIdentityArn(context.request, context.params, kind, deps));
  ST_ASSIGN_OR_RETURN(std::vector<catalog::NamedPolicy> policies,
                      deps.store.ListIdentityPolicies(arn));
  nlohmann::json names = nlohmann::json::array();
  for (const catalog::NamedPolicy& policy : policies) names.push_back(policy.name);
  return JsonReply(200, {{"policyNames", names}});
}

Reply PutPolicy(const AdminDeps& deps, catalog::IdentityKind kind, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn,
                      TargetIdentityArn(context.request, context.params, kind, deps));
  ST_ASSIGN_OR_RETURN(nlohmann::json body, JsonObjectBody(context.request));
  auto it = body.find("policyDocument");
  std::string document;
  if (it != body.end() && it->is_string()) {
    document = it->get<std::string>();
  } else if (it != body.end() && it->is_object()) {
    document = it->dump();
  } else {
    return Err(InvalidArgument(
        "The member 'policyDocument' is required: an IAM policy as a JSON string or object."));
  }
  Result<auth::Policy> parsed = auth::ParsePolicy(document, auth::PolicyKind::kIdentity);
  if (!parsed.has_value()) {
    return context.Fail(http::HttpError(parsed.error(), 400, "MalformedPolicyDocument"));
  }
  const std::string& name = context.params.Get("policyName");
  ST_TRY(deps.store.PutIdentityPolicy(arn, catalog::NamedPolicy{name, document}));
  return http::Response::Empty(204);
}

Reply GetPolicy(const AdminDeps& deps, catalog::IdentityKind kind, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn,
                      TargetIdentityArn(context.request, context.params, kind, deps));
  const std::string& name = context.params.Get("policyName");
  ST_ASSIGN_OR_RETURN(std::vector<catalog::NamedPolicy> policies,
                      deps.store.ListIdentityPolicies(arn));
  for (const catalog::NamedPolicy& policy : policies) {
    if (policy.name == name) {
      return JsonReply(200, {{"policyName", name}, {"policyDocument", policy.document}});
    }
  }
  return Err(NotFound("The policy '" + name + "' is not attached to " + arn + "."));
}

Reply DeletePolicy(const AdminDeps& deps, catalog::IdentityKind kind, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(std::string arn,
                      TargetIdentityArn(context.request, context.params, kind, deps));
  ST_TRY(deps.store.DeleteIdentityPolicy(arn, context.params.Get("policyName")));
  return http::Response::Empty(204);
}

}  // namespace st::api::admin
