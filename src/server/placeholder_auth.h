// Authentication and authorization hooks used until the SigV4 verifier and
// the policy evaluator are wired in: every caller is anonymous and every
// non-public route is denied, so a route added before auth lands fails closed.
#pragma once

#include "http/router.h"

namespace st::server {

class AnonymousAuthenticator final : public http::Authenticator {
 public:
  tl::expected<auth::Principal, http::HttpError> Authenticate(
      const http::Request& request) const override;
};

class DenyAllAuthorizer final : public http::Authorizer {
 public:
  Result<http::AuthDecision> Authorize(const http::Request& request,
                                       const auth::Principal& principal,
                                       const http::AccessRequest& access) const override;
};

}  // namespace st::server
