#include "server/builtin_routes.h"

#include <nlohmann/json.hpp>

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

std::vector<http::Route> ReadyRoutes(std::function<Status()> check) {
  return {{"GET",
           "/ready",
           {},
           "Ready",
           http::Public(),
           [check = std::move(check)](http::RouteContext&) -> Result<http::Response> {
             Status ready = check();
             if (ready.ok()) return http::Response::Json(200, R"({"status":"ready"})");
             nlohmann::json body = {{"status", "not_ready"}, {"reason", ready.ToString()}};
             return http::Response::Json(503, body.dump());
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

std::string AddLabelToEverySample(std::string_view text, std::string_view name,
                                  std::string_view value) {
  const std::string label = std::string(name) + "=\"" + std::string(value) + "\"";
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    if (line.empty() || line.front() == '#') {
      out += line;
    } else {
      // The metric name ends at '{' (labels follow) or at the blank before the value.
      const size_t cut = line.find_first_of("{ ");
      if (cut == std::string_view::npos) {
        out += line;
      } else if (line[cut] == '{') {
        out += line.substr(0, cut + 1);
        out += label;
        if (cut + 1 < line.size() && line[cut + 1] != '}') out += ',';
        out += line.substr(cut + 1);
      } else {
        out += line.substr(0, cut);
        out += '{' + label + '}';
        out += line.substr(cut);
      }
    }
    if (end < text.size()) out += '\n';
    begin = end + 1;
  }
  return out;
}

}  // namespace st::server
