#include "server/policy_authorizer.h"

#include <string_view>
#include <vector>

#include "auth/arn.h"
#include "auth/policy.h"
#include "catalog/arns.h"
#include "kms/key_service.h"

namespace st::server {

namespace {

// Enough for every distinct policy of a busy server; past it the cache
// starts over rather than tracking recency.
constexpr size_t kMaxCachedPolicies = 4096;

bool IsIamArn(const std::string& arn) {
  return arn.rfind("arn:", 0) == 0 && arn.find(":iam::") != std::string::npos;
}

// The identity whose inline policies apply: the user, or the role behind a session.
std::string IdentityArn(const auth::Principal& principal) {
  switch (principal.type) {
    case auth::PrincipalType::kUser:
      return principal.arn;
    case auth::PrincipalType::kAssumedRole:
    case auth::PrincipalType::kRole:
      return principal.role_arn.empty() ? principal.arn : principal.role_arn;
    default:
      return "";
  }
}

// A missing policy (or a resource deleted meanwhile) is simply no policy.
Result<std::optional<std::string>> Optional(Result<std::string> document) {
  if (document.has_value()) return std::optional<std::string>(std::move(*document));
  if (document.error().code() == StatusCode::kNotFound) return std::optional<std::string>();
  return Err(document.error());
}

}  // namespace

PolicyAuthorizer::PolicyAuthorizer(PolicySources sources, const Clock& clock, Logger& logger,
                                   std::string operator_account_id)
    : sources_(sources),
      clock_(clock),
      logger_(logger),
      operator_account_id_(std::move(operator_account_id)) {}

Result<std::shared_ptr<const auth::Policy>> PolicyAuthorizer::Parse(const std::string& document,
                                                                    auth::PolicyKind kind) const {
  auto key = std::make_pair(static_cast<int>(kind), document);
  {
    common::MutexLock lock(mu_);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
  }
  Result<auth::Policy> parsed = auth::ParsePolicy(document, kind);
  if (!parsed.has_value()) return Err(parsed.error());
  auto policy = std::make_shared<const auth::Policy>(std::move(*parsed));
  common::MutexLock lock(mu_);
  if (cache_.size() >= kMaxCachedPolicies) cache_.clear();
  cache_.emplace(std::move(key), policy);
  return policy;
}

std::string PolicyAuthorizer::ResourceOwner(const auth::Principal& principal,
                                            const std::string& action,
                                            const std::string& resource) const {
  if (resource == "*" || resource.empty()) {
    return principal.account_id.empty() ? operator_account_id_ : principal.account_id;
  }
  // A passed role belongs to its own account (IAM never lets a role of
  // another account be passed); other IAM resources are the operator's,
  // whose admin API manages every account's identities.
  if (IsIamArn(resource) && action == "iam:PassRole" && !auth::ArnAccount(resource).empty()) {
    return auth::ArnAccount(resource);
  }
  if (IsIamArn(resource)) return operator_account_id_;
  std::string account = auth::ArnAccount(resource);
  if (!account.empty()) return account;
  // S3 ARNs carry no account: a general-purpose bucket's owner is in the
  // catalog, so a role of another account (a channel's DLQ writer) is judged
  // as cross-account. CreateBucket is judged as the caller's own (a taken
  // name is the handler's 409, as in S3).
  constexpr std::string_view kS3Arn = "arn:aws:s3:::";
  if (resource.rfind(kS3Arn, 0) == 0 && action != "s3:CreateBucket") {
    std::string bucket = resource.substr(kS3Arn.size());
    bucket = bucket.substr(0, bucket.find('/'));
    Result<catalog::GeneralPurposeBucket> found =
        sources_.gp_buckets.GetGeneralPurposeBucket(bucket);
    if (found.has_value()) return found->owner_account_id;
  }
  return principal.account_id.empty() ? operator_account_id_ : principal.account_id;
}

Result<auth::EvaluationResult> PolicyAuthorizer::Evaluate(const auth::Principal& principal,
                                                          const auth::AccessRequest& access,
                                                          const std::string& source_ip) const {
  auth::RequestContext context =
      auth::MakeRequestContext(principal, access.action, access.resource, clock_.Now(), source_ip,
                               /*secure_transport=*/false);
  for (const auto& [key, values] : access.condition_keys) context.keys.Set(key, values);

  // Keeps the parsed policies alive while the evaluator points at them.
  std::vector<std::shared_ptr<const auth::Policy>> held;
  auth::EvaluationInput input;
  input.resource_owner_account_id = ResourceOwner(principal, access.action, access.resource);

  std::string identity_arn = IdentityArn(principal);
  if (!identity_arn.empty()) {
    auto policies = sources_.identities.ListIdentityPolicies(identity_arn);
    if (!policies.has_value() && policies.error().code() != StatusCode::kNotFound) {
      return Err(policies.error());
    }
    if (policies.has_value()) {
      for (const catalog::NamedPolicy& named : *policies) {
        auto parsed = Parse(named.document, auth::PolicyKind::kIdentity);
        if (!parsed.has_value()) {
          return Err(Internal("the stored identity policy '" + named.name + "' of " + identity_arn +
                              " does not parse (" + parsed.error().message() +
                              "); replace it through the admin API"));
        }
        held.push_back(*parsed);
        input.identity_policies.push_back(
            {held.back().get(), identity_arn + " policy " + named.name});
      }
    }
  }

  auto add_resource_policy = [&](Result<std::string> fetched, const std::string& name,
                                 const std::string& owner) -> Status {
    ST_ASSIGN_OR_RETURN(std::optional<std::string> document, Optional(std::move(fetched)));
    if (!document) return Status::OK();
    auto parsed = Parse(*document, auth::PolicyKind::kResource);
    if (!parsed.has_value()) {
      return Internal("the stored " + name + " does not parse (" + parsed.error().message() +
                      "); replace it with Put*Policy");
    }
    held.push_back(*parsed);
    input.resource_policies.push_back({held.back().get(), name, owner});
    return Status::OK();
  };
  if (auto table = catalog::ParseTableArn(access.resource); table.has_value()) {
    ST_TRY(add_resource_policy(sources_.table_buckets.GetTableBucketPolicy(table->bucket_arn),
                               "table bucket policy", table->bucket.account_id));
    ST_TRY(add_resource_policy(sources_.tables.GetTablePolicy(table->table_id), "table policy",
                               table->bucket.account_id));
  } else if (auto bucket = catalog::ParseTableBucketArn(access.resource); bucket.has_value()) {
    ST_TRY(add_resource_policy(sources_.table_buckets.GetTableBucketPolicy(access.resource),
                               "table bucket policy", bucket->account_id));
  } else if (auto key = kms::ParseKeyArn(access.resource); key.has_value()) {
    input.resource_policy_required = true;
    if (sources_.kms_keys != nullptr) {
      Result<kms::KmsKey> found = sources_.kms_keys->GetKey(key->key_id);
      Result<std::string> policy = found.has_value() && found->arn == access.resource
                                       ? Result<std::string>(found->policy)
                                       : Result<std::string>(Err(NotFound("no such key")));
      if (!found.has_value() && found.error().code() != StatusCode::kNotFound) {
        return Err(found.error());
      }
      ST_TRY(add_resource_policy(std::move(policy), "key policy of " + access.resource,
                                 key->account_id));
    }
  }
  return auth::Evaluate(context, input);
}

Result<auth::AuthDecision> PolicyAuthorizer::Authorize(const auth::CallContext& call,
                                                       const auth::Principal& principal,
                                                       const auth::AccessRequest& access) const {
  ST_ASSIGN_OR_RETURN(auth::EvaluationResult result,
                      Evaluate(principal, access, call.remote_address));
  const std::string& who = principal.arn.empty() ? std::string("anonymous") : principal.arn;
  if (logger_.Enabled(LogLevel::kDebug)) {
    logger_.Log(LogLevel::kDebug, "authorization",
                {{"request_id", call.request_id},
                 {"principal", who},
                 {"action", access.action},
                 {"resource", access.resource},
                 {"allowed", result.allowed()},
                 {"why", result.explanation}});
  }
  if (result.allowed()) return auth::AuthDecision{true, ""};
  std::string because = result.decision == auth::Decision::kExplicitDeny
                            ? "with an explicit deny (" + result.explanation + ")"
                            : "because " + result.explanation;
  return auth::AuthDecision{false,
                            "User: " + who + " is not authorized to perform: " + access.action +
                                " on resource: " + access.resource + " " + because,
                            result.decision == auth::Decision::kExplicitDeny};
}

}  // namespace st::server
