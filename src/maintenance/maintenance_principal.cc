#include "maintenance/maintenance_principal.h"

#include "auth/principal.h"

namespace st::maintenance {

Status AuthorizeMaintenance(const http::Authorizer& authorizer, const std::string& action,
                            const catalog::Table& table) {
  auth::Principal principal;
  principal.type = auth::PrincipalType::kService;
  principal.service = kMaintenancePrincipal;
  principal.arn = kMaintenancePrincipal;
  http::AccessRequest access;
  access.action = action;
  access.resource = table.arn;
  access.condition_keys = {{"s3tables:namespace", {table.namespace_name}},
                           {"s3tables:tableName", {table.name}}};
  // The authorizer reads only the caller's address from the request.
  http::Request request;
  request.method = "POST";
  request.remote_address = "127.0.0.1";
  request.request_id = "maintenance";
  ST_ASSIGN_OR_RETURN(http::AuthDecision decision,
                      authorizer.Authorize(request, principal, access));
  if (decision.allowed || !decision.explicit_deny) return Status::OK();
  return Status(StatusCode::kAccessDenied,
                std::string("The maintenance principal ") + kMaintenancePrincipal +
                    " may not perform " + action + " on " + table.arn +
                    ": a policy denies it; remove that Deny from the table bucket or table "
                    "policy to let maintenance run. " +
                    decision.message);
}

}  // namespace st::maintenance
