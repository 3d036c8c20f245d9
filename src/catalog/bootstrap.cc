#include "catalog/bootstrap.h"

#include "catalog/arns.h"

namespace st::catalog {

namespace {

// AlreadyExists means another starter won the race, which is what we wanted.
Status IgnoreExisting(Status status) {
  return status.code() == StatusCode::kAlreadyExists ? Status::OK() : status;
}

}  // namespace

Result<AdminCredentials> EnsureAdmin(IdentityStore& store, const std::string& account_id) {
  AdminCredentials out;
  out.user_arn = IamUserArn(account_id, kAdminUserName);
  ST_ASSIGN_OR_RETURN(bool account_exists, store.AccountExists(account_id));
  if (!account_exists) {
    ST_TRY(IgnoreExisting(store.CreateAccount(account_id)));
    out.created = true;
  }
  auto user = store.GetIdentity(out.user_arn);
  if (!user.has_value()) {
    if (user.error().code() != StatusCode::kNotFound) return Err(user.error());
    auto created = store.CreateIdentity(IdentityKind::kUser, account_id, kAdminUserName);
    if (!created.has_value()) ST_TRY(IgnoreExisting(created.error()));
    out.created = true;
  }
  ST_ASSIGN_OR_RETURN(std::vector<NamedPolicy> policies, store.ListIdentityPolicies(out.user_arn));
  bool has_policy = false;
  for (const NamedPolicy& policy : policies) has_policy |= policy.name == kAdminPolicyName;
  if (!has_policy) {
    ST_TRY(store.PutIdentityPolicy(out.user_arn, {kAdminPolicyName, kAdminPolicyDocument}));
    out.created = true;
  }
  ST_ASSIGN_OR_RETURN(std::vector<AccessKey> keys, store.ListAccessKeys(out.user_arn));
  for (const AccessKey& key : keys) {
    if (key.status == AccessKeyStatus::kActive) {
      out.access_key_id = key.access_key_id;
      out.secret_access_key = key.secret_access_key;
      return out;
    }
  }
  ST_ASSIGN_OR_RETURN(AccessKey key, store.CreateAccessKey(out.user_arn));
  out.access_key_id = key.access_key_id;
  out.secret_access_key = key.secret_access_key;
  out.created = true;
  return out;
}

}  // namespace st::catalog
