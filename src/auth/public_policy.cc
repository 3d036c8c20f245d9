// S3's Block Public Access rule for resource policies ("The meaning of
// public" in the S3 User Guide), which S3 Tables applies to every table
// bucket and table policy: an Allow statement for everyone (Principal "*",
// {"AWS": "*"}, or any NotPrincipal) is public unless one of its conditions
// pins the caller or the calling path to fixed values.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "auth/policy.h"
#include "common/ascii.h"

namespace st::auth {
namespace {

// Keys that, fixed, limit a grant to known accounts, principals, networks or
// services.
bool IsRestrictingKey(const std::string& key) {
  static const char* const kKeys[] = {"aws:sourcearn",
                                      "aws:sourceaccount",
                                      "aws:sourceowner",
                                      "aws:sourcevpc",
                                      "aws:sourcevpce",
                                      "aws:sourceorgid",
                                      "aws:principalaccount",
                                      "aws:principalarn",
                                      "aws:principalorgid",
                                      "aws:userid",
                                      "s3:dataaccesspointarn",
                                      "s3:dataaccesspointaccount",
                                      "s3:x-amz-server-side-encryption-aws-kms-key-id"};
  return std::find(std::begin(kKeys), std::end(kKeys), key) != std::end(kKeys);
}

// A value that names one thing: no wildcard, no policy variable.
bool IsFixedValue(const std::string& value) {
  return !value.empty() && value.find_first_of("*?") == std::string::npos &&
         value.find("${") == std::string::npos;
}

// A CIDR no broader than /8 (IPv4) or /32 (IPv6); a bare address is one host.
bool IsNarrowCidr(const std::string& cidr) {
  bool v6 = cidr.find(':') != std::string::npos;
  size_t slash = cidr.find('/');
  if (slash == std::string::npos) return true;
  std::string bits = cidr.substr(slash + 1);
  if (bits.empty() || bits.size() > 3 ||
      !std::all_of(bits.begin(), bits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  return std::atoi(bits.c_str()) >= (v6 ? 32 : 8);
}

// Whether `condition` pins the request to fixed values of a restricting key.
bool Restricts(const Condition& condition) {
  if (condition.if_exists || condition.qualifier == SetQualifier::kForAllValues) return false;
  const std::string key = AsciiLower(condition.key);
  if (key == "aws:sourceip") {
    return condition.op == ConditionOperator::kIpAddress &&
           std::all_of(condition.values.begin(), condition.values.end(), IsNarrowCidr);
  }
  if (!IsRestrictingKey(key)) return false;
  switch (condition.op) {
    case ConditionOperator::kStringEquals:
    case ConditionOperator::kStringEqualsIgnoreCase:
    case ConditionOperator::kStringLike:
    case ConditionOperator::kArnEquals:
    case ConditionOperator::kArnLike:
      break;
    default:
      return false;
  }
  return std::all_of(condition.values.begin(), condition.values.end(), IsFixedValue);
}

}  // namespace

std::optional<std::string> PublicAccessReason(const Policy& policy) {
  for (size_t i = 0; i < policy.statements.size(); ++i) {
    const Statement& st = policy.statements[i];
    if (st.effect != Effect::kAllow || !st.principal) continue;
    const bool everyone = st.not_principal || st.principal->everyone;
    if (!everyone) continue;
    if (std::any_of(st.conditions.begin(), st.conditions.end(), Restricts)) continue;
    std::string where = "Statement[" + std::to_string(i) + "]";
    if (!st.sid.empty()) where += " (Sid \"" + st.sid + "\")";
    return where + " allows " +
           (st.not_principal ? std::string("everyone but the NotPrincipal")
                             : std::string("Principal \"*\"")) +
           " without a condition that fixes aws:SourceAccount, aws:SourceArn, "
           "aws:PrincipalAccount, aws:PrincipalArn, aws:PrincipalOrgID, aws:SourceVpc, "
           "aws:SourceVpce or a /8-or-narrower aws:SourceIp";
  }
  return std::nullopt;
}

}  // namespace st::auth
