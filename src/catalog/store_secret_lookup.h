// auth::SecretLookup over an IdentityStore: resolves an access key id to its
// secret and the Principal that SigV4 verification hands to the policy
// evaluator.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "auth/sigv4.h"
#include "catalog/identity_store.h"
#include "common/clock.h"
#include "common/mutex.h"

namespace st::catalog {

// Optional cache of successful lookups, so a busy endpoint does not query the
// catalog twice per request.
struct SecretCacheOptions {
  // 0 (default): no cache, a deleted or deactivated key fails on its next
  // request. Otherwise a key keeps authenticating for up to `ttl` after it
  // was deleted or deactivated (and keeps its old principal after its owner
  // changed): the revocation delay operators accept. Failed lookups are never
  // cached, so a new key works at once.
  std::chrono::milliseconds ttl{0};
  // Required when ttl > 0; must outlive the lookup.
  const Clock* clock = nullptr;
  // Past this many cached keys the cache starts over.
  size_t max_entries = 10000;
};

// A user's key authenticates as the user (PrincipalType::kUser). A role's
// key authenticates as a session of the role (kAssumedRole, session name
// "streamtables"), since AWS only ever lets roles act through sessions.
// Thread-safe (the store is; the cache has its own lock). The store must
// outlive the lookup.
class StoreSecretLookup final : public auth::SecretLookup {
 public:
  explicit StoreSecretLookup(IdentityStore& store, SecretCacheOptions cache = {})
      : store_(store), cache_options_(cache) {}

  // Errors: NotFound for an unknown or inactive key (SigV4 reports
  // InvalidAccessKeyId either way, as AWS does), the store's errors otherwise.
  Result<auth::SecretRecord> Lookup(std::string_view access_key_id) const override EXCLUDES(mu_);

 private:
  struct Cached {
    auth::SecretRecord record;
    std::chrono::system_clock::time_point expires;
  };
  Result<auth::SecretRecord> Fetch(const std::string& access_key_id) const;

  IdentityStore& store_;
  SecretCacheOptions cache_options_;
  mutable common::Mutex mu_;
  mutable std::map<std::string, Cached, std::less<>> cache_ GUARDED_BY(mu_);
};

}  // namespace st::catalog
