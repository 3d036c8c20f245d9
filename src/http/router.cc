#include "http/router.h"

#include <algorithm>
#include <exception>

#include "http/route_pattern_internal.h"

namespace st::http {

namespace {

const std::string kEmpty;

// Bare-bones shape for requests no surface covers (only when nothing is mounted at "").
class PlainErrorWriter final : public ErrorWriter {
 public:
  Response Write(const Request&, const HttpError& error) const override {
    return Response::Text(error.http_status != 0 ? error.http_status : 500,
                          error.status.message() + "\n");
  }
};

bool PrefixCovers(std::string_view prefix, std::string_view raw_path) {
  if (prefix.empty()) return true;
  if (raw_path.substr(0, prefix.size()) != prefix) return false;
  return raw_path.size() == prefix.size() || raw_path[prefix.size()] == '/';
}

}  // namespace

void PathParams::Add(std::string name, std::string value) {
  items_.emplace_back(std::move(name), std::move(value));
}

const std::string& PathParams::Get(std::string_view name) const {
  for (const auto& [key, value] : items_) {
    if (key == name) return value;
  }
  return kEmpty;
}

Access Public() {
  Access access;
  access.is_public = true;
  return access;
}

Access Requires(std::string action, AccessResolver resolve) {
  Access access;
  access.action = std::move(action);
  access.resolve = std::move(resolve);
  return access;
}

auth::CallContext CallContextOf(const Request& request) {
  return auth::CallContext{request.request_id, request.remote_address};
}

struct Router::Impl {
  struct CompiledRoute {
    Route route;
    internal::RoutePattern pattern;
    const ErrorWriter* errors;
    std::string surface;
  };
  struct MountedSurface {
    std::string name;
    std::string prefix;
    std::shared_ptr<const ErrorWriter> errors;
  };

  const Authenticator& authenticator;
  const auth::Authorizer& authorizer;
  Logger& logger;
  std::vector<MountedSurface> surfaces;
  std::vector<CompiledRoute> routes;
  PlainErrorWriter plain;

  // The surface whose error shape answers `raw_path`: the longest prefix.
  const ErrorWriter& ErrorsFor(std::string_view raw_path) const {
    const MountedSurface* best = nullptr;
    for (const MountedSurface& s : surfaces) {
      if (PrefixCovers(s.prefix, raw_path) &&
          (best == nullptr || s.prefix.size() > best->prefix.size())) {
        best = &s;
      }
    }
    return best != nullptr ? *best->errors : plain;
  }

  Response Dispatch(Request& request);
};

Router::Router(const Authenticator& authenticator, const auth::Authorizer& authorizer,
               Logger& logger)
    : impl_(std::make_unique<Impl>(Impl{authenticator, authorizer, logger, {}, {}, {}})) {}

Router::~Router() = default;

Status Router::Mount(Surface surface) {
  for (const auto& s : impl_->surfaces) {
    if (s.prefix == surface.prefix) {
      return AlreadyExists("surface '" + surface.name + "': prefix '" + surface.prefix +
                           "' is already mounted by surface '" + s.name + "'");
    }
  }
  if (surface.errors == nullptr) {
    return InvalidArgument("surface '" + surface.name + "' has no ErrorWriter");
  }
  std::vector<Impl::CompiledRoute> compiled;
  for (Route& route : surface.routes) {
    ST_ASSIGN_OR_RETURN(internal::RoutePattern pattern,
                        internal::CompilePattern(surface.prefix, route.path));
    if (!route.handler) {
      return InvalidArgument("route " + route.method + " " + route.path + " has no handler");
    }
    if (!route.access.is_public && route.access.action.empty()) {
      return InvalidArgument("route " + route.method + " " + route.path +
                             " needs an IAM action (Requires(...)) or Public()");
    }
    compiled.push_back({std::move(route), std::move(pattern), surface.errors.get(), surface.name});
  }
  auto same = [](const Impl::CompiledRoute& a, const Impl::CompiledRoute& b) {
    if (a.route.method != b.route.method || a.pattern.Shape() != b.pattern.Shape()) return false;
    if (a.route.query.size() != b.route.query.size()) return false;
    for (size_t i = 0; i < a.route.query.size(); ++i) {
      if (a.route.query[i].key != b.route.query[i].key ||
          a.route.query[i].value != b.route.query[i].value) {
        return false;
      }
    }
    return true;
  };
  for (size_t i = 0; i < compiled.size(); ++i) {
    auto clash = [&](const Impl::CompiledRoute& other) { return same(compiled[i], other); };
    if (std::any_of(impl_->routes.begin(), impl_->routes.end(), clash) ||
        std::any_of(compiled.begin(), compiled.begin() + static_cast<ptrdiff_t>(i), clash)) {
      return AlreadyExists("route " + compiled[i].route.method + " " + surface.prefix +
                           compiled[i].route.path + " (" + compiled[i].route.operation +
                           ") duplicates another route with the same shape and query rules");
    }
  }
  impl_->surfaces.push_back({surface.name, surface.prefix, surface.errors});
  for (auto& c : compiled) impl_->routes.push_back(std::move(c));
  return Status::OK();
}

Response Router::Reject(const Request& request, const HttpError& error) {
  return impl_->ErrorsFor(request.raw_path()).Write(request, error);
}

Response Router::Handle(Request& request) {
  try {
    return impl_->Dispatch(request);
  } catch (const std::exception& e) {
    impl_->logger.Log(LogLevel::kError, "handler_exception",
                      {{"request_id", request.request_id}, {"what", e.what()}});
  } catch (...) {
    impl_->logger.Log(LogLevel::kError, "handler_exception", {{"request_id", request.request_id}});
  }
  return impl_->ErrorsFor(request.raw_path())
      .Write(request, HttpError(Internal("the server failed while handling " + request.method +
                                         " " + request.raw_path() +
                                         "; see the server log for "
                                         "request id " +
                                         request.request_id)));
}

Response Router::Impl::Dispatch(Request& request) {
  const CompiledRoute* best = nullptr;
  std::vector<int> best_rank;
  std::vector<std::string> allowed_methods;
  bool method_matched = false;
  for (const CompiledRoute& c : routes) {
    if (!internal::MatchPattern(c.pattern, request.segments(), nullptr)) continue;
    if (c.route.method != request.method) {
      if (std::find(allowed_methods.begin(), allowed_methods.end(), c.route.method) ==
          allowed_methods.end()) {
        allowed_methods.push_back(c.route.method);
      }
      continue;
    }
    method_matched = true;
    if (!internal::MatchQuery(c.route.query, request.query())) continue;
    std::vector<int> rank = c.pattern.Rank();
    rank.push_back(static_cast<int>(c.route.query.size()));
    if (best == nullptr || rank > best_rank) {
      best = &c;
      best_rank = std::move(rank);
    }
  }

  if (best == nullptr) {
    const ErrorWriter& errors = ErrorsFor(request.raw_path());
    if (method_matched) {
      return errors.Write(
          request, HttpError(InvalidArgument("no operation matches " + request.method + " " +
                                             request.raw_path() + " with these query parameters"),
                             400, ""));
    }
    if (!allowed_methods.empty()) {
      std::sort(allowed_methods.begin(), allowed_methods.end());
      std::string allow;
      for (const auto& m : allowed_methods) allow += (allow.empty() ? "" : ", ") + m;
      Response response = errors.Write(
          request, HttpError(Unsupported("method " + request.method + " is not allowed on " +
                                         request.raw_path() + "; allowed: " + allow),
                             405, ""));
      response.headers.Set("Allow", allow);
      return response;
    }
    return errors.Write(request,
                        HttpError(NotFound("no API operation at " + request.method + " " +
                                           request.raw_path() + "; check the endpoint URL"),
                                  404, ""));
  }

  const Route& route = best->route;
  const ErrorWriter& errors = *best->errors;
  request.operation = route.operation;
  PathParams params;
  internal::MatchPattern(best->pattern, request.segments(), &params);

  auth::Principal principal;
  auth::AccessRequest access;
  if (!route.access.is_public) {
    auto authenticated = authenticator.Authenticate(request);
    if (!authenticated.has_value()) {
      logger.Log(LogLevel::kInfo, "auth_failed",
                 {{"request_id", request.request_id},
                  {"operation", route.operation},
                  {"message", authenticated.error().status.message()}});
      return errors.Write(request, authenticated.error());
    }
    principal = std::move(authenticated).value();
    request.principal_arn = principal.arn;

    access.action = route.access.action;
    if (route.access.resolve) {
      Status resolved = route.access.resolve(request, params, access);
      if (!resolved.ok()) return errors.Write(request, HttpError(resolved));
    }
    Result<auth::AuthDecision> decision =
        authorizer.Authorize(CallContextOf(request), principal, access);
    if (!decision.has_value()) return errors.Write(request, HttpError(decision.error()));
    // An explicit deny of the request itself is final; otherwise any of its
    // alternatives may allow it (the first denial is what the client hears).
    for (size_t i = 0; !decision->allowed && !decision->explicit_deny && i < access.or_else.size();
         ++i) {
      Result<auth::AuthDecision> other =
          authorizer.Authorize(CallContextOf(request), principal, access.or_else[i]);
      if (!other.has_value()) return errors.Write(request, HttpError(other.error()));
      if (other->allowed) decision = std::move(other);
    }
    if (!decision->allowed) {
      logger.Log(LogLevel::kInfo, "access_denied",
                 {{"request_id", request.request_id},
                  {"principal", principal.arn},
                  {"action", access.action},
                  {"resource", access.resource},
                  {"message", decision->message}});
      std::string message = decision->message.empty()
                                ? principal.arn + " is not authorized to perform " + access.action +
                                      " on " + access.resource
                                : decision->message;
      return errors.Write(request, HttpError(Status(StatusCode::kAccessDenied, message)));
    }
  }

  RouteContext context{request, principal, params, access, logger, errors};
  Result<Response> response = route.handler(context);
  if (!response.has_value()) return errors.Write(request, HttpError(response.error()));
  return std::move(response).value();
}

}  // namespace st::http
