// Routes the server mounts beside the API surfaces: a public health check on
// the control-plane surface and the Prometheus text on the metrics listener.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "http/router.h"
#include "server/data_dir.h"
#include "server/server_config.h"

namespace st::server {

// GET /health → 200 {"status":"ok"}; public (load balancers carry no SigV4).
std::vector<http::Route> HealthRoutes();

// GET /metrics → 200 Prometheus text (version 0.0.4) from `render`; public,
// as scrapers carry no SigV4. It names accounts and channel ARNs, so the
// server mounts it only on its own metrics listener (--metrics-listen,
// loopback by default), never on the API port.
std::vector<http::Route> MetricsRoutes(std::function<std::string()> render);

}  // namespace st::server
