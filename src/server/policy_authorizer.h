// The production auth::Authorizer: IAM policy evaluation (auth::Evaluate) over
// the caller's identity policies, the table bucket policy of the resource's
// bucket and, for a table, its table policy, all read from the catalog.
//
// Resource owner (which decides same- vs cross-account):
//   table or table bucket ARN   the account in the ARN;
//   IAM ARN (admin API)         the operator account: identities of every
//                               account are administered by principals of
//                               the server's default account;
//   "*" (account-level actions) the caller's own account;
//   any other ARN               the account field of the ARN, else the caller's.
// KMS key ARNs (arn:aws:kms:<region>:<account>:key/<id>) are judged as AWS
// KMS does: the key policy must allow, naming the caller or delegating to
// the caller's account (whose IAM policies must then allow); across
// accounts both the key policy and the caller's IAM policy must allow;
// explicit deny anywhere wins (auth::EvaluationInput::resource_policy_required).
// Condition keys: the route's (s3tables:namespace, s3tables:tableName) plus
// aws:PrincipalAccount/PrincipalArn/PrincipalType/username/CurrentTime/
// EpochTime/SourceIp and aws:SecureTransport=false (the server speaks plain
// HTTP).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "auth/authorizer.h"
#include "auth/evaluator.h"
#include "catalog/general_purpose_bucket_store.h"
#include "catalog/identity_store.h"
#include "catalog/metadata_store.h"
#include "catalog/table_bucket_store.h"
#include "catalog/table_store.h"
#include "common/clock.h"
#include "common/logger.h"
#include "common/mutex.h"
#include "kms/key_store.h"

namespace st::server {

// Where the authorizer reads policies and resource owners from (often one
// MetadataStore as all of them).
struct PolicySources {
  catalog::IdentityStore& identities;              // Identity policies.
  catalog::TableBucketStore& table_buckets;        // Table bucket policies.
  catalog::TableStore& tables;                     // Table policies.
  catalog::GeneralPurposeBucketStore& gp_buckets;  // Owners of S3 ARNs.
  // Key policies of KMS key ARNs; null: no KMS, every key ARN is denied.
  const kms::KeyStore* kms_keys = nullptr;
};

// Thread-safe. The stores, `clock` and `logger` must outlive it.
class PolicyAuthorizer final : public auth::Authorizer {
 public:
  PolicyAuthorizer(PolicySources sources, const Clock& clock, Logger& logger,
                   std::string operator_account_id);
  PolicyAuthorizer(catalog::MetadataStore& store, const Clock& clock, Logger& logger,
                   std::string operator_account_id)
      : PolicyAuthorizer(PolicySources{store, store, store, store}, clock, logger,
                         std::move(operator_account_id)) {}

  // Errors: the store's (e.g. Unavailable), and Internal for a stored policy
  // that no longer parses (fail closed: it might have held a Deny).
  Result<auth::AuthDecision> Authorize(const auth::CallContext& call,
                                       const auth::Principal& principal,
                                       const auth::AccessRequest& access) const override;

  // The decision without an HTTP request (for tests and tools).
  Result<auth::EvaluationResult> Evaluate(const auth::Principal& principal,
                                          const auth::AccessRequest& access,
                                          const std::string& source_ip) const;

 private:
  // Parsed policies, keyed by kind and document text; shared so an entry
  // evicted meanwhile stays valid for the evaluation holding it.
  Result<std::shared_ptr<const auth::Policy>> Parse(const std::string& document,
                                                    auth::PolicyKind kind) const EXCLUDES(mu_);
  std::string ResourceOwner(const auth::Principal& principal, const std::string& action,
                            const std::string& resource) const;

  PolicySources sources_;
  const Clock& clock_;
  Logger& logger_;
  std::string operator_account_id_;
  mutable common::Mutex mu_;
  mutable std::map<std::pair<int, std::string>, std::shared_ptr<const auth::Policy>> cache_
      GUARDED_BY(mu_);
};

}  // namespace st::server
