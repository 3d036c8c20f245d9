#include "auth/evaluator.h"

#include <algorithm>
#include <cctype>

#include "auth/condition_internal.h"
#include "auth/time_format_internal.h"
#include "auth/wildcard_internal.h"
#include "common/ascii.h"

namespace st::auth {
namespace {

// How a resource policy's Principal element relates to the caller. A grant
// to the caller's whole account is delegated: the account's own identity
// policies must still allow (AWS treats "the account" as "its administrators
// decide").
enum class PrincipalMatch { kNone, kAccount, kSpecific };

bool IsRootOf(std::string_view arn, std::string_view account) {
  // arn:<partition>:iam::<account>:root
  size_t iam = arn.find(":iam::");
  return arn.rfind("arn:", 0) == 0 && iam != std::string_view::npos &&
         arn.substr(iam + 6) == std::string(account) + ":root";
}

PrincipalMatch MatchPrincipal(const PrincipalSpec& spec, const Principal& who) {
  if (spec.everyone) return PrincipalMatch::kSpecific;
  if (who.type == PrincipalType::kService) {
    return std::find(spec.services.begin(), spec.services.end(), who.service) != spec.services.end()
               ? PrincipalMatch::kSpecific
               : PrincipalMatch::kNone;
  }
  PrincipalMatch best = PrincipalMatch::kNone;
  for (const std::string& entry : spec.aws) {
    if (entry == who.arn || (!who.role_arn.empty() && entry == who.role_arn)) {
      return PrincipalMatch::kSpecific;
    }
    if (!who.account_id.empty() && (entry == who.account_id || IsRootOf(entry, who.account_id))) {
      best = who.type == PrincipalType::kAccountRoot ? PrincipalMatch::kSpecific
                                                     : PrincipalMatch::kAccount;
    }
  }
  return best;
}

struct Applicability {
  bool applies = false;
  PrincipalMatch principal = PrincipalMatch::kSpecific;
};

Applicability Applies(const Statement& st, const RequestContext& request, bool substitute) {
  Applicability result;
  if (st.principal) {
    PrincipalMatch match = MatchPrincipal(*st.principal, request.principal);
    if (st.not_principal) {
      // NotPrincipal excludes only exact matches, so a Deny/NotPrincipal
      // statement errs towards denying.
      if (match == PrincipalMatch::kSpecific) return result;
      match = PrincipalMatch::kSpecific;
    } else if (match == PrincipalMatch::kNone) {
      return result;
    }
    result.principal = match;
  }
  bool action = std::any_of(st.actions.begin(), st.actions.end(), [&](const std::string& pattern) {
    return WildcardMatch(pattern, request.action, /*ignore_case=*/true);
  });
  if (action == st.not_action) return result;
  bool resource =
      std::any_of(st.resources.begin(), st.resources.end(), [&](const std::string& pattern) {
        if (!substitute) return ArnMatch(pattern, request.resource);
        auto resolved = SubstitutePolicyVariables(pattern, request.keys);
        return resolved && ArnMatch(*resolved, request.resource);
      });
  if (resource == st.not_resource) return result;
  for (const Condition& condition : st.conditions) {
    if (!EvaluateCondition(condition, request.keys, substitute)) return result;
  }
  result.applies = true;
  return result;
}

StatementRef Ref(const std::string& policy_name, size_t index, const Statement& st) {
  return StatementRef{policy_name, index, st.sid};
}

std::string Describe(const StatementRef& ref) {
  std::string out = ref.policy_name + " Statement[" + std::to_string(ref.statement_index) + "]";
  if (!ref.sid.empty()) out += " (Sid \"" + ref.sid + "\")";
  return out;
}

bool Substitutes(const Policy& policy) { return policy.version == "2012-10-17"; }

}  // namespace

void ConditionKeys::Set(std::string_view key, std::string value) {
  values_[AsciiLower(key)] = {std::move(value)};
}
void ConditionKeys::Set(std::string_view key, std::vector<std::string> values) {
  values_[AsciiLower(key)] = std::move(values);
}
void ConditionKeys::Erase(std::string_view key) { values_.erase(AsciiLower(key)); }
const std::vector<std::string>* ConditionKeys::Find(std::string_view key) const {
  auto it = values_.find(AsciiLower(key));
  return it == values_.end() ? nullptr : &it->second;
}

RequestContext MakeRequestContext(Principal principal, std::string action, std::string resource,
                                  std::chrono::system_clock::time_point now,
                                  std::string_view source_ip, bool secure_transport) {
  RequestContext request;
  request.action = std::move(action);
  request.resource = std::move(resource);
  ConditionKeys& keys = request.keys;
  if (!principal.account_id.empty()) keys.Set("aws:PrincipalAccount", principal.account_id);
  if (!principal.arn.empty()) {
    // For sessions AWS reports the role ARN as aws:PrincipalArn.
    keys.Set("aws:PrincipalArn", principal.role_arn.empty() ? principal.arn : principal.role_arn);
  }
  switch (principal.type) {
    case PrincipalType::kAnonymous:
      keys.Set("aws:PrincipalType", "Anonymous");
      break;
    case PrincipalType::kAccountRoot:
      keys.Set("aws:PrincipalType", "Account");
      break;
    case PrincipalType::kUser:
      keys.Set("aws:PrincipalType", "User");
      if (!principal.username.empty()) keys.Set("aws:username", principal.username);
      break;
    case PrincipalType::kAssumedRole:
    case PrincipalType::kRole:
      keys.Set("aws:PrincipalType", "AssumedRole");
      break;
    case PrincipalType::kService:
      keys.Set("aws:PrincipalType", "Service");
      keys.Set("aws:PrincipalServiceName", principal.service);
      break;
  }
  keys.Set("aws:CurrentTime", FormatIso8601(now));
  keys.Set("aws:EpochTime",
           std::to_string(
               std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count()));
  keys.Set("aws:SecureTransport", secure_transport ? "true" : "false");
  if (!source_ip.empty()) keys.Set("aws:SourceIp", std::string(source_ip));
  request.principal = std::move(principal);
  return request;
}

EvaluationResult Evaluate(const RequestContext& request, const EvaluationInput& input) {
  EvaluationResult result;
  std::optional<StatementRef> identity_allow, resource_allow_direct, resource_allow_any;
  const Principal& who = request.principal;
  if (who.type == PrincipalType::kAnonymous) {
    // S3 Tables blocks public access: no policy, not even Principal "*",
    // grants anything to a caller without credentials.
    result.decision = Decision::kImplicitDeny;
    result.explanation =
        "anonymous requests are never allowed (public access is blocked); "
        "sign the request with SigV4";
    return result;
  }
  const bool has_identity = who.type != PrincipalType::kService;

  // Explicit deny anywhere wins, so every statement is looked at before deciding.
  if (has_identity) {
    for (const IdentityPolicy& attached : input.identity_policies) {
      if (!attached.policy) continue;
      const bool substitute = Substitutes(*attached.policy);
      for (size_t i = 0; i < attached.policy->statements.size(); ++i) {
        const Statement& st = attached.policy->statements[i];
        if (!Applies(st, request, substitute).applies) continue;
        if (st.effect == Effect::kDeny) {
          result.decision = Decision::kExplicitDeny;
          result.deciding = Ref(attached.name, i, st);
          result.explanation = "explicit deny in " + Describe(*result.deciding);
          return result;
        }
        if (!identity_allow) identity_allow = Ref(attached.name, i, st);
      }
    }
  }
  for (const ResourcePolicy& attached : input.resource_policies) {
    if (!attached.policy) continue;
    const bool substitute = Substitutes(*attached.policy);
    const bool same_account = has_identity && who.account_id == attached.owner_account_id;
    for (size_t i = 0; i < attached.policy->statements.size(); ++i) {
      const Statement& st = attached.policy->statements[i];
      Applicability applicability = Applies(st, request, substitute);
      if (!applicability.applies) continue;
      if (st.effect == Effect::kDeny) {
        result.decision = Decision::kExplicitDeny;
        result.deciding = Ref(attached.name, i, st);
        result.explanation = "explicit deny in " + Describe(*result.deciding);
        return result;
      }
      StatementRef ref = Ref(attached.name, i, st);
      if (!resource_allow_any) resource_allow_any = ref;
      // Alone sufficient: same account naming the caller itself, or callers
      // without identity policies (services).
      bool direct =
          applicability.principal == PrincipalMatch::kSpecific && (same_account || !has_identity);
      if (direct && !resource_allow_direct) resource_allow_direct = ref;
    }
  }

  const bool same_account = has_identity && who.account_id == input.resource_owner_account_id;
  if (resource_allow_direct) {
    result.decision = Decision::kAllow;
    result.deciding = resource_allow_direct;
    result.explanation = "allowed by " + Describe(*resource_allow_direct);
  } else if (identity_allow && same_account &&
             (!input.resource_policy_required || resource_allow_any)) {
    result.decision = Decision::kAllow;
    result.deciding = identity_allow;
    result.explanation = "allowed by " + Describe(*identity_allow);
  } else if (identity_allow && resource_allow_any) {
    result.decision = Decision::kAllow;
    result.deciding = identity_allow;
    result.also = resource_allow_any;
    result.explanation = "allowed across accounts by " + Describe(*identity_allow) + " and " +
                         Describe(*resource_allow_any);
  } else {
    result.decision = Decision::kImplicitDeny;
    const std::string& who_text = who.arn;
    if (identity_allow && same_account) {
      result.explanation = "no statement of the " +
                           (input.resource_policies.empty() ? std::string("resource policy")
                                                            : input.resource_policies[0].name) +
                           " allows " + who_text + " or its account " + request.action + ", so " +
                           Describe(*identity_allow) + " does not apply";
    } else if (identity_allow) {
      result.explanation = who_text + " is in another account than the resource owner " +
                           input.resource_owner_account_id + ", and no resource policy allows " +
                           request.action + " on " + request.resource;
    } else if (resource_allow_any) {
      result.explanation = Describe(*resource_allow_any) + " grants " + request.action +
                           " to the account, but no identity policy of " + who_text + " allows it";
    } else {
      result.explanation =
          "no policy allows " + request.action + " on " + request.resource + " for " + who_text;
    }
  }
  return result;
}

}  // namespace st::auth
