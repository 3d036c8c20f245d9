// Who is making a request, as authentication establishes it and as the
// policy evaluator matches it against Principal elements and condition keys.
#pragma once

#include <string>

namespace st::auth {

enum class PrincipalType {
  kAnonymous,    // No credentials (public routes only); the evaluator never allows it.
  kAccountRoot,  // arn:aws:iam::<account>:root
  kUser,         // arn:aws:iam::<account>:user/<path><name>
  kAssumedRole,  // arn:aws:sts::<account>:assumed-role/<role>/<session>
  kRole,         // the role itself (rare in requests; used by tests)
  kService,      // an AWS service principal such as kafka.amazonaws.com
};

struct Principal {
  PrincipalType type = PrincipalType::kAnonymous;
  std::string account_id;  // 12 digits; empty for anonymous and services.
  std::string arn;         // The caller's own ARN (a session ARN for assumed roles).
  std::string username;    // IAM user name, for aws:username; empty otherwise.
  // For kAssumedRole: the role's ARN (arn:aws:iam::<account>:role/<path><name>),
  // which a Principal element names to match every session of the role.
  std::string role_arn;
  // For kService: the service host name ("kafka.amazonaws.com").
  std::string service;
};

}  // namespace st::auth
