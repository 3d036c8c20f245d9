#include "server/placeholder_auth.h"

namespace st::server {

tl::expected<auth::Principal, http::HttpError> AnonymousAuthenticator::Authenticate(
    const http::Request&) const {
  auth::Principal anonymous;
  anonymous.arn = "anonymous";
  return anonymous;
}

Result<http::AuthDecision> DenyAllAuthorizer::Authorize(const http::Request&,
                                                        const auth::Principal& principal,
                                                        const http::AccessRequest& access) const {
  return http::AuthDecision{false, "User: " + principal.arn + " is not authorized to perform: " +
                                       access.action + " on resource: " + access.resource +
                                       " (this server has no authorization configured yet)"};
}

}  // namespace st::server
