// auth::SecretLookup over a MetadataStore: resolves an access key id to its
// secret and the Principal that SigV4 verification hands to the policy
// evaluator.
#pragma once

#include "auth/sigv4.h"
#include "catalog/metadata_store.h"

namespace st::catalog {

// A user's key authenticates as the user (PrincipalType::kUser). A role's
// key authenticates as a session of the role (kAssumedRole, session name
// "streamtables"), since AWS only ever lets roles act through sessions.
// Thread-safe (the store is). The store must outlive the lookup.
class StoreSecretLookup final : public auth::SecretLookup {
 public:
  explicit StoreSecretLookup(MetadataStore& store) : store_(store) {}

  // Errors: NotFound for an unknown or inactive key (SigV4 reports
  // InvalidAccessKeyId either way, as AWS does), the store's errors otherwise.
  Result<auth::SecretRecord> Lookup(std::string_view access_key_id) const override;

 private:
  MetadataStore& store_;
};

}  // namespace st::catalog
