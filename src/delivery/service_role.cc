#include "delivery/service_role.h"

#include "auth/principal.h"

namespace st::delivery {

Status AuthorizeAsRole(const auth::Authorizer& authorizer, const std::string& role_arn,
                       const std::string& role_account_id, const std::string& action,
                       const std::string& resource,
                       std::map<std::string, std::vector<std::string>> condition_keys) {
  auth::Principal principal;
  principal.type = auth::PrincipalType::kRole;
  principal.account_id = role_account_id;
  principal.arn = role_arn;
  principal.role_arn = role_arn;
  auth::AccessRequest access;
  access.action = action;
  access.resource = resource;
  access.condition_keys = std::move(condition_keys);
  // The channel worker runs inside the server: a loopback caller.
  auth::CallContext call{"delivery", "127.0.0.1"};
  ST_ASSIGN_OR_RETURN(auth::AuthDecision decision, authorizer.Authorize(call, principal, access));
  if (decision.allowed) return Status::OK();
  return Status(StatusCode::kAccessDenied,
                "The service execution role " + role_arn + " is not allowed to perform " + action +
                    " on " + resource + "; grant it in the role's policy" +
                    " (and in the bucket policy when the bucket is in another account). " +
                    decision.message);
}

bool IsKmsFault(const Status& error) {
  if (error.ok()) return false;
  const std::string& message = error.message();
  return message.find("KMS.") != std::string::npos ||
         message.find("to perform kms:") != std::string::npos;
}

}  // namespace st::delivery
