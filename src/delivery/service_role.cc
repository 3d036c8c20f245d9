#include "delivery/service_role.h"

#include "auth/principal.h"

namespace st::delivery {

Status AuthorizeAsRole(const http::Authorizer& authorizer, const std::string& role_arn,
                       const std::string& role_account_id, const std::string& action,
                       const std::string& resource,
                       std::map<std::string, std::vector<std::string>> condition_keys) {
  auth::Principal principal;
  principal.type = auth::PrincipalType::kRole;
  principal.account_id = role_account_id;
  principal.arn = role_arn;
  principal.role_arn = role_arn;
  http::AccessRequest access;
  access.action = action;
  access.resource = resource;
  access.condition_keys = std::move(condition_keys);
  // The authorizer reads only the caller's address from the request.
  http::Request request;
  request.method = "POST";
  request.remote_address = "127.0.0.1";
  request.request_id = "delivery";
  ST_ASSIGN_OR_RETURN(http::AuthDecision decision,
                      authorizer.Authorize(request, principal, access));
  if (decision.allowed) return Status::OK();
  return Status(StatusCode::kAccessDenied,
                "The service execution role " + role_arn + " is not allowed to perform " + action +
                    " on " + resource + "; grant it in the role's policy" +
                    " (and in the bucket policy when the bucket is in another account). " +
                    decision.message);
}

}  // namespace st::delivery
