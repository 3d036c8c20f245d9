#include "server/builtin_routes.h"

namespace st::server {

std::vector<http::Route> HealthRoutes() {
  return {{"GET",
           "/health",
           {},
           "Health",
           http::Public(),
           [](http::RouteContext&) -> Result<http::Response> {
             return http::Response::Json(200, R"({"status":"ok"})");
           }}};
}

std::vector<http::Route> IcebergPlaceholderRoutes() {
  return {{"GET",
           "/v1/config",
           {},
           "GetConfig",
           http::Public(),
           [](http::RouteContext&) -> Result<http::Response> {
             return http::Response::Json(200, R"({"defaults":{},"overrides":{}})");
           }}};
}

}  // namespace st::server
