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

std::vector<http::Route> MetricsRoutes(std::function<std::string()> render) {
  return {{"GET",
           "/metrics",
           {},
           "Metrics",
           http::Public(),
           [render = std::move(render)](http::RouteContext&) -> Result<http::Response> {
             http::Response response = http::Response::Text(200, render());
             response.headers.Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
             return response;
           }}};
}

}  // namespace st::server
