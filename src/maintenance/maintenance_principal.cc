#include "maintenance/maintenance_principal.h"

#include "auth/principal.h"

namespace st::maintenance {

Status AuthorizeMaintenance(const auth::Authorizer& authorizer, const std::string& action,
                            const catalog::Table& table) {
  auth::Principal principal;
  principal.type = auth::PrincipalType::kService;
  principal.service = kMaintenancePrincipal;
  principal.arn = kMaintenancePrincipal;
  auth::AccessRequest access;
  access.action = action;
  access.resource = table.arn;
  access.condition_keys = {{"s3tables:namespace", {table.namespace_name}},
                           {"s3tables:tableName", {table.name}}};
  // Maintenance runs inside the server: its calls come from the loopback
  // address (what an aws:SourceIp condition sees).
  auth::CallContext call{"maintenance", "127.0.0.1"};
  ST_ASSIGN_OR_RETURN(auth::AuthDecision decision, authorizer.Authorize(call, principal, access));
  if (decision.allowed || !decision.explicit_deny) return Status::OK();
  return Status(StatusCode::kAccessDenied,
                std::string("The maintenance principal ") + kMaintenancePrincipal +
                    " may not perform " + action + " on " + table.arn +
                    ": a policy denies it; remove that Deny from the table bucket or table "
                    "policy to let maintenance run. " +
                    decision.message);
}

Status AuthorizeMaintenance(const auth::Authorizer& authorizer,
                            std::initializer_list<const char*> actions,
                            const catalog::Table& table) {
  for (const char* action : actions) ST_TRY(AuthorizeMaintenance(authorizer, action, table));
  return Status::OK();
}

Status AuthorizeMaintenanceKey(const auth::Authorizer& authorizer, const catalog::Table& table) {
  if (table.encryption.sse_algorithm != "aws:kms") return Status::OK();
  const std::string& key_arn = table.encryption.kms_key_arn;
  // arn:aws:kms:<region>:<account>:key/<id>
  const std::string region =
      key_arn.size() > 12 ? key_arn.substr(12, key_arn.find(':', 12) - 12) : "";
  auth::Principal principal;
  principal.type = auth::PrincipalType::kService;
  principal.service = kMaintenancePrincipal;
  principal.arn = kMaintenancePrincipal;
  for (const char* action : {"kms:GenerateDataKey", "kms:Decrypt"}) {
    auth::AccessRequest access;
    access.action = action;
    access.resource = key_arn;
    access.condition_keys = {
        {"kms:ViaService", {"s3." + region + ".amazonaws.com"}},
        {"kms:EncryptionContext:aws:s3:arn", {table.arn}},
        {"kms:EncryptionContextKeys", {"aws:s3:arn", "streamtables:object-key"}}};
    auth::CallContext call{"maintenance", "127.0.0.1"};
    ST_ASSIGN_OR_RETURN(auth::AuthDecision decision, authorizer.Authorize(call, principal, access));
    // Unlike the table's own actions, the key needs an allow: KMS key
    // policies are the authority for service principals.
    if (decision.allowed) continue;
    return Status(StatusCode::kAccessDenied,
                  std::string("The maintenance principal ") + kMaintenancePrincipal +
                      " may not perform " + action + " on the table's KMS key " + key_arn +
                      "; add a key policy statement allowing it kms:GenerateDataKey and "
                      "kms:Decrypt. " +
                      decision.message);
  }
  return Status::OK();
}

}  // namespace st::maintenance
