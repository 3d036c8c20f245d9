// IAM policy evaluation for one request: explicit deny wins; within one
// account an allow in an identity policy or in a resource policy that names
// the principal suffices; across accounts both the identity policy and a
// resource policy must allow; otherwise the request is implicitly denied.
// With EvaluationInput::resource_policy_required (KMS key policies), a
// same-account identity allow needs a resource policy statement too.
// Not modelled: SCPs, permission boundaries, session policies, ACLs.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "auth/policy.h"
#include "auth/principal.h"

namespace st::auth {

// Condition-key values of a request; key names are case-insensitive.
class ConditionKeys {
 public:
  void Set(std::string_view key, std::string value);
  void Set(std::string_view key, std::vector<std::string> values);
  void Erase(std::string_view key);
  // nullptr when the key is absent.
  const std::vector<std::string>* Find(std::string_view key) const;

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> values_;  // Lower-case keys.
};

struct RequestContext {
  Principal principal;
  std::string action;    // "s3tables:GetTable"
  std::string resource;  // "arn:aws:s3tables:us-east-1:111122223333:bucket/b/table/<id>"
  // aws:* globals from MakeRequestContext plus service keys the caller adds
  // (s3tables:namespace, s3tables:tableName, aws:ResourceTag/..., ...).
  ConditionKeys keys;
};

// Builds a context with the global keys derived from the inputs:
// aws:PrincipalAccount, aws:PrincipalArn, aws:PrincipalType, aws:username
// (IAM users only), aws:PrincipalServiceName (services), aws:CurrentTime, aws:EpochTime,
// aws:SecureTransport, and aws:SourceIp when `source_ip` is non-empty.
RequestContext MakeRequestContext(Principal principal, std::string action, std::string resource,
                                  std::chrono::system_clock::time_point now,
                                  std::string_view source_ip, bool secure_transport);

// Non-owning: the policies must outlive the Evaluate call.
struct IdentityPolicy {
  const Policy* policy = nullptr;
  std::string name;  // For reporting ("user/alice inline policy read-tables").
};
struct ResourcePolicy {
  const Policy* policy = nullptr;
  std::string name;              // "table bucket policy", "table policy".
  std::string owner_account_id;  // The account owning the resource the policy is on.
};

struct EvaluationInput {
  std::vector<IdentityPolicy> identity_policies;  // The principal's own.
  std::vector<ResourcePolicy> resource_policies;  // Bucket and table policies.
  std::string resource_owner_account_id;          // Owner of RequestContext::resource.
  // KMS key policies: the resource policy is the primary authority, so an
  // identity policy allow counts only when a resource policy statement also
  // applies to the caller (naming it, or its account: "the key policy
  // delegates to IAM"). Without one, even the owner account is denied.
  bool resource_policy_required = false;
};

enum class Decision { kAllow, kExplicitDeny, kImplicitDeny };

struct StatementRef {
  std::string policy_name;
  size_t statement_index = 0;
  std::string sid;
};

struct EvaluationResult {
  Decision decision = Decision::kImplicitDeny;
  // The statement that decided an allow or explicit deny; for an allow that
  // needed both an identity and a resource statement, the resource one is in
  // `also`.
  std::optional<StatementRef> deciding;
  std::optional<StatementRef> also;
  // One sentence for logs and AccessDenied messages, e.g. "explicit deny in
  // table bucket policy Statement[0] (Sid "DenyAll")".
  std::string explanation;
  bool allowed() const { return decision == Decision::kAllow; }
};

// Pure and thread-safe.
EvaluationResult Evaluate(const RequestContext& request, const EvaluationInput& input);

}  // namespace st::auth
