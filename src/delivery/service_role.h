// Acting as a channel's service execution role: every catalog and storage
// action a channel takes is first authorized through the server's policy
// engine with the role as principal (identity policies of the role, plus the
// bucket policy of a bucket in another account).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "auth/authorizer.h"
#include "common/status.h"

namespace st::delivery {

// Errors: AccessDenied whose message names the role, action and resource
// (and the fix); the authorizer's own errors (e.g. Unavailable).
Status AuthorizeAsRole(const auth::Authorizer& authorizer, const std::string& role_arn,
                       const std::string& role_account_id, const std::string& action,
                       const std::string& resource,
                       std::map<std::string, std::vector<std::string>> condition_keys = {});

// Whether `error` is about the table's KMS key: a refused kms: action (from
// AuthorizeAsRole) or a KMS error the encrypted object store surfaced
// ("KMS.<Exception>: ... (key <arn>)"). Such faults suspend a channel
// rather than fail it, and the service retries them (the key's owner may
// re-enable the key or grant the permission).
bool IsKmsFault(const Status& error);

}  // namespace st::delivery
