// The router: one route table per API surface, matched on decoded path
// segments, with authentication and authorization run for every non-public
// route BEFORE its handler, so no handler can forget the check.
//
// A surface registers a table like
//
//   std::vector<Route> routes = {
//     {"PUT", "/buckets", {}, "CreateTableBucket",
//      Requires("s3tables:CreateTableBucket"), CreateTableBucket},
//     {"GET", "/buckets/{tableBucketARN}", {}, "GetTableBucket",
//      Requires("s3tables:GetTableBucket", BucketArnResource), GetTableBucket},
//     {"GET", "/get-table", {}, "GetTable", Requires("s3tables:GetTable", TableResource),
//     GetTable},
//   };
//   router.Mount({"s3tables", "", std::make_shared<S3TablesErrorWriter>(), routes});
//
// Templates: literal segments match a decoded segment exactly; `{name}`
// captures one non-empty segment (never "." or ".."), which may contain '/'
// if the client sent %2F; `{name+}` (last only) captures the rest of the path,
// at least one character, segments re-joined with '/' (S3 object keys).
// Query rules discriminate routes with the same path (`?uploads`,
// `?list-type=2`). When several routes match, the most specific wins: compared
// segment by segment, literal > capture > greedy; then more query rules.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "auth/authorizer.h"
#include "auth/principal.h"
#include "common/logger.h"
#include "common/status.h"
#include "http/handler.h"
#include "http/http_error.h"

namespace st::http {

// Values captured by a route template, by capture name.
class PathParams {
 public:
  void Add(std::string name, std::string value);
  // The decoded value of capture `name`; "" when the template has no such
  // capture (templates are validated at Mount, so that is a route-table bug).
  const std::string& Get(std::string_view name) const;
  const std::vector<std::pair<std::string, std::string>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

// Fills in resource and condition keys (and may change the action) from the
// matched request; `access.action` arrives preset from the route. An error is
// sent to the client in the surface's shape (e.g. a malformed ARN → 400)
// without calling the authorizer or the handler.
using AccessResolver = std::function<Status(const Request& request, const PathParams& params,
                                            auth::AccessRequest& access)>;

struct Access {
  bool is_public = false;  // No authentication at all (health checks only).
  std::string action;
  AccessResolver resolve;  // Null: resource "*", no condition keys.
};
// A route anyone may call without credentials.
Access Public();
// A route that needs `action` on the resource `resolve` computes.
Access Requires(std::string action, AccessResolver resolve = nullptr);

struct RouteContext {
  Request& request;
  const auth::Principal& principal;  // Anonymous for public routes.
  const PathParams& params;
  const auth::AccessRequest& access;  // What was authorized; empty action for public routes.
  Logger& logger;
  const ErrorWriter& errors;

  const std::string& request_id() const { return request.request_id; }
  // An error response in this surface's shape, for codes a Status cannot
  // express (S3 NoSuchBucket, Iceberg NoSuchNamespaceException, ...).
  Response Fail(const HttpError& error) const { return errors.Write(request, error); }
};

// A handler's error Status is written with the surface's ErrorWriter.
using RouteHandler = std::function<Result<Response>(RouteContext& context)>;

struct QueryRule {
  std::string key;
  std::optional<std::string> value;  // nullopt: the key must be present, any value.
};

struct Route {
  std::string method;  // "GET", "HEAD", ...: matched exactly.
  std::string path;    // Template relative to the surface prefix.
  std::vector<QueryRule> query;
  std::string operation;  // "GetTable": for logs and metrics.
  Access access;
  RouteHandler handler;
};

struct Surface {
  std::string name;    // "s3tables", "iceberg", "s3": for logs.
  std::string prefix;  // "" (root) or "/iceberg": a literal path prefix.
  std::shared_ptr<const ErrorWriter> errors;
  std::vector<Route> routes;
};

// Establishes who sent a request. Must be thread-safe.
class Authenticator {
 public:
  virtual ~Authenticator() = default;
  // Errors go to the client in the surface's shape; set HttpError::wire_code
  // for precise codes (SignatureDoesNotMatch, InvalidAccessKeyId, ...).
  //
  // The error is an HttpError rather than a Status (so not Result<Principal>):
  // a SigV4 refusal's wire code, HTTP status and S3 XML details (StringToSign,
  // CanonicalRequest, ServerTime ...) are what clients and their tests read,
  // and a Status carries only a code and a message. The same holds for the
  // S3 surface's payload decoders (api/s3) that return HttpError; everything
  // else returns Status/Result.
  virtual tl::expected<auth::Principal, HttpError> Authenticate(const Request& request) const = 0;
};

// The authorizer's view of `request`: its request id and peer address.
auth::CallContext CallContextOf(const Request& request);

// Thread-safe for Handle/Reject once all Mounts are done; Mount is not
// thread-safe and must happen before the server starts.
class Router final : public Handler {
 public:
  // All three must outlive the router.
  Router(const Authenticator& authenticator, const auth::Authorizer& authorizer, Logger& logger);
  ~Router() override;

  // Adds a surface. Errors (kInvalidArgument) name the offending template: a
  // prefix not of the form "/literal[/literal...]" or "", a template not
  // starting with '/', a capture that is not a whole segment, `{x+}` not last,
  // duplicate capture names, a route without handler or action; also
  // kAlreadyExists for a second surface on the same prefix or two routes with
  // the same method, path shape and query rules.
  Status Mount(Surface surface);

  Response Handle(Request& request) override;
  Response Reject(const Request& request, const HttpError& error) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace st::http
