#include "api/iceberg_rest/iceberg_rest_surface.h"

#include <exception>
#include <nlohmann/json.hpp>

#include "api/iceberg_rest/routes_internal.h"
#include "http/error_shapes.h"

namespace st::api::iceberg_rest {

namespace {

// The JSON library throws on misuse the accessors were meant to rule out;
// should one slip through, the client gets a 400 (it was its document) and
// the server keeps serving.
http::RouteHandler Guarded(http::RouteHandler handler) {
  return [handler = std::move(handler)](http::RouteContext& context) -> Result<http::Response> {
    try {
      return handler(context);
    } catch (const nlohmann::json::exception& e) {
      return Err(InvalidArgument(std::string("Malformed request body: ") + e.what()));
    } catch (const std::exception& e) {
      return Err(Internal(std::string("Unexpected failure in ") + context.request.operation + ": " +
                          e.what()));
    }
  };
}

}  // namespace

http::Surface MakeIcebergRestSurface(const IcebergRestDeps& deps) {
  auto shared = std::make_shared<const IcebergRestDeps>(deps);
  std::vector<http::Route> routes;
  for (auto group :
       {ConfigRoutes(shared), NamespaceRoutes(shared), TableRoutes(shared), CommitRoutes(shared)}) {
    for (http::Route& route : group) {
      route.handler = Guarded(std::move(route.handler));
      routes.push_back(std::move(route));
    }
  }
  return {"iceberg", "/iceberg", std::make_shared<http::IcebergErrorWriter>(), std::move(routes)};
}

}  // namespace st::api::iceberg_rest
