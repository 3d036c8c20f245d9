// Routes the server mounts before the API surfaces exist: a public health
// check on the control-plane surface and a placeholder Iceberg config.
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

// GET /v1/config (mounted under /iceberg) → 200 {"defaults":{},"overrides":{}}.
// Public placeholder until the Iceberg REST surface (src/api/iceberg_rest)
// replaces it with the real, signed route.
std::vector<http::Route> IcebergPlaceholderRoutes();

}  // namespace st::server
