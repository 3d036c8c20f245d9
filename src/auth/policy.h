// The IAM policy language: a parsed, validated model of identity policies and
// resource policies (table bucket and table policies), as the evaluator in
// evaluator.h consumes it. See the AWS IAM JSON policy element reference.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace st::auth {

enum class Effect { kAllow, kDeny };

// Identity policies (attached to a principal) must not name a Principal;
// resource policies must.
enum class PolicyKind { kIdentity, kResource };

enum class ConditionOperator {
  kStringEquals,
  kStringNotEquals,
  kStringEqualsIgnoreCase,
  kStringNotEqualsIgnoreCase,
  kStringLike,
  kStringNotLike,
  kNumericEquals,
  kNumericNotEquals,
  kNumericLessThan,
  kNumericLessThanEquals,
  kNumericGreaterThan,
  kNumericGreaterThanEquals,
  kDateEquals,
  kDateNotEquals,
  kDateLessThan,
  kDateLessThanEquals,
  kDateGreaterThan,
  kDateGreaterThanEquals,
  kBool,
  kBinaryEquals,
  kIpAddress,
  kNotIpAddress,
  kArnEquals,
  kArnLike,
  kArnNotEquals,
  kArnNotLike,
  kNull,
};

// ForAnyValue: / ForAllValues: prefixes for multi-valued context keys.
enum class SetQualifier { kNone, kForAnyValue, kForAllValues };

// One `"<operator>": {"<key>": <values>}` pair; a block with several keys or
// operators becomes several Conditions, all of which must hold.
struct Condition {
  ConditionOperator op = ConditionOperator::kStringEquals;
  SetQualifier qualifier = SetQualifier::kNone;
  bool if_exists = false;           // The ...IfExists suffix.
  std::string operator_text;        // As written, for messages.
  std::string key;                  // As written; matched case-insensitively.
  std::vector<std::string> values;  // Numbers and booleans in their JSON spelling.
};

// A Principal or NotPrincipal element.
struct PrincipalSpec {
  bool everyone = false;               // "*" or {"AWS": "*"}
  std::vector<std::string> aws;        // 12-digit account ids or IAM/STS ARNs.
  std::vector<std::string> services;   // "kafka.amazonaws.com"
  std::vector<std::string> federated;  // Parsed but never matched by our principals.
  std::vector<std::string> canonical_users;
};

struct Statement {
  std::string sid;  // May be empty.
  Effect effect = Effect::kDeny;
  std::optional<PrincipalSpec> principal;  // Set for resource policies.
  bool not_principal = false;
  std::vector<std::string> actions;  // "service:Action" patterns, or "*".
  bool not_action = false;
  std::vector<std::string> resources;  // ARN patterns, or "*".
  bool not_resource = false;
  std::vector<Condition> conditions;
};

struct Policy {
  // "2012-10-17" or "2008-10-17" (the default when absent); policy variables
  // such as ${aws:username} are substituted only under 2012-10-17.
  std::string version = "2008-10-17";
  std::string id;
  std::vector<Statement> statements;
};

// Parses and validates an IAM JSON policy document. Errors: InvalidArgument
// whose message starts "MalformedPolicyDocument: " and names the offending
// element and statement (bad JSON, unknown element, missing Effect, Action or
// Resource, both X and NotX, a Principal in an identity policy or none in a
// resource policy, an invalid principal, action or resource, an unknown
// condition operator, a value the operator cannot parse, duplicate Sids).
Result<Policy> ParsePolicy(std::string_view json, PolicyKind kind);

// Whether `policy` (a resource policy) grants public access by S3's Block
// Public Access rule, which S3 Tables always enforces: an Allow statement
// whose Principal is "*" / {"AWS": "*"}, or that uses NotPrincipal, unless a
// condition pins it with fixed values (StringEquals/ArnEquals/...Like without
// wildcards, not IfExists) of aws:SourceArn, aws:SourceAccount,
// aws:SourceOwner, aws:SourceVpc(e), aws:SourceOrgID, aws:PrincipalAccount,
// aws:PrincipalArn, aws:PrincipalOrgID, aws:userid, s3:DataAccessPointArn,
// s3:DataAccessPointAccount or the SSE-KMS key id, or an IpAddress
// aws:SourceIp no broader than /8 (IPv4) or /32 (IPv6). Returns the first such
// statement and why, or nullopt when the policy is not public.
std::optional<std::string> PublicAccessReason(const Policy& policy);

// The operator named `name` without qualifier or IfExists ("StringLike");
// case-insensitive. nullopt when unknown.
std::optional<ConditionOperator> ConditionOperatorFromName(std::string_view name);

}  // namespace st::auth
