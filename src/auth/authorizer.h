// The authorization interface: may this principal perform this action on
// this resource? The router asks it before every non-public route, the API
// surfaces for a second action (iam:PassRole, tagging), delivery for each
// catalog and storage action a channel's service role takes. Nothing here
// knows HTTP: a caller describes itself with a CallContext.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "auth/principal.h"
#include "common/status.h"

namespace st::auth {

// What one request asks permission for.
struct AccessRequest {
  std::string action;          // "s3tables:GetTable", "s3:GetObject".
  std::string resource = "*";  // The resource ARN, or "*" for account-level actions.
  // Service condition keys ("s3tables:namespace" -> {"ns1"}); the authorizer
  // adds the aws:* globals itself.
  std::map<std::string, std::vector<std::string>> condition_keys;
  // Requests that each also suffice when this one is not allowed (and not
  // explicitly denied): an operation that several grants open, e.g. the
  // Iceberg REST config call for a reader of the bucket's tables. The router
  // tries them in order; the authorizer itself ignores this list.
  std::vector<AccessRequest> or_else;
};

// Where a request comes from, beyond its principal: all an authorizer reads
// of the call that carries it.
struct CallContext {
  std::string request_id;      // Names the request in the authorizer's logs.
  std::string remote_address;  // The peer's IP address: aws:SourceIp.
};

struct AuthDecision {
  bool allowed = false;
  // For a deny: sent to the client as the AccessDenied message, so it names
  // the principal, action and resource (never the policy text).
  std::string message;
  // For a deny: a policy statement denied explicitly (not merely no allow).
  // Service principals acting for a resource's owner (maintenance) are
  // stopped only by an explicit deny.
  bool explicit_deny = false;
};

// Decides whether `principal` may perform `access`. Must be thread-safe.
class Authorizer {
 public:
  virtual ~Authorizer() = default;
  // A deny is a decision, not an error. Errors (e.g. the policy store is
  // unavailable) are the store's; callers fail closed on them.
  virtual Result<AuthDecision> Authorize(const CallContext& call, const Principal& principal,
                                         const AccessRequest& access) const = 0;
};

}  // namespace st::auth
