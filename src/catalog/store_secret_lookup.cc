#include "catalog/store_secret_lookup.h"

#include <string>

namespace st::catalog {

namespace {

constexpr const char* kRoleSessionName = "streamtables";

auth::Principal PrincipalFor(const Identity& identity) {
  auth::Principal principal;
  principal.account_id = identity.account_id;
  if (identity.kind == IdentityKind::kUser) {
    principal.type = auth::PrincipalType::kUser;
    principal.arn = identity.arn;
    principal.username = identity.name;
  } else {
    principal.type = auth::PrincipalType::kAssumedRole;
    principal.role_arn = identity.arn;
    principal.arn = "arn:aws:sts::" + identity.account_id + ":assumed-role/" + identity.name + "/" +
                    kRoleSessionName;
  }
  return principal;
}

}  // namespace

Result<auth::SecretRecord> StoreSecretLookup::Lookup(std::string_view access_key_id) const {
  bool caching = cache_options_.ttl.count() > 0 && cache_options_.clock != nullptr;
  if (!caching) return Fetch(std::string(access_key_id));
  auto now = cache_options_.clock->Now();
  {
    common::MutexLock lock(mu_);
    auto it = cache_.find(access_key_id);
    if (it != cache_.end() && now < it->second.expires) return it->second.record;
  }
  std::string id(access_key_id);
  ST_ASSIGN_OR_RETURN(auth::SecretRecord record, Fetch(id));
  common::MutexLock lock(mu_);
  if (cache_.size() >= cache_options_.max_entries) cache_.clear();
  cache_[id] = Cached{record, now + cache_options_.ttl};
  return record;
}

Result<auth::SecretRecord> StoreSecretLookup::Fetch(const std::string& id) const {
  ST_ASSIGN_OR_RETURN(AccessKey key, store_.GetAccessKey(id));
  if (key.status != AccessKeyStatus::kActive) {
    return Err(NotFound("The access key '" + id + "' is inactive."));
  }
  auto identity = store_.GetIdentity(key.owner_arn);
  if (!identity.has_value()) {
    // Keys go with their owner (ON DELETE CASCADE), so this is a race with a delete.
    if (identity.error().code() == StatusCode::kNotFound) {
      return Err(NotFound("The access key '" + id + "' has no owner any more."));
    }
    return Err(identity.error());
  }
  auth::SecretRecord record;
  record.secret_access_key = key.secret_access_key;
  record.principal = PrincipalFor(*identity);
  return record;
}

}  // namespace st::catalog
