// The maintenance principal: every job acts as the S3 Tables maintenance
// service principal and is authorized through the server's policy engine
// like any caller, before it touches a table.
#pragma once

#include <initializer_list>
#include <string>

#include "auth/authorizer.h"
#include "catalog/records.h"
#include "common/status.h"

namespace st::maintenance {

inline constexpr const char* kMaintenancePrincipal = "maintenance.s3tables.amazonaws.com";

// Whether the maintenance principal may perform `action` on `table`. The
// service acts for the table's owner, who turned the job on, so (as in S3
// Tables) only an explicit Deny naming it in a table bucket or table policy
// stops it; a grant is not needed. Errors: AccessDenied naming the
// principal, action and table (and the fix); the authorizer's own errors.
Status AuthorizeMaintenance(const auth::Authorizer& authorizer, const std::string& action,
                            const catalog::Table& table);
// Each of `actions` in turn (what one job needs); the first refusal.
Status AuthorizeMaintenance(const auth::Authorizer& authorizer,
                            std::initializer_list<const char*> actions,
                            const catalog::Table& table);

// For a table encrypted with SSE-KMS: the maintenance principal must be
// allowed kms:GenerateDataKey and kms:Decrypt on the table's key by the key
// policy (a statement naming the service principal; the account's IAM
// policies do not apply to it), with kms:ViaService s3.<region>.amazonaws.com
// and the table ARN as encryption context. OK for other tables. Errors:
// AccessDenied naming the principal, action and key (and the fix).
Status AuthorizeMaintenanceKey(const auth::Authorizer& authorizer, const catalog::Table& table);

}  // namespace st::maintenance
