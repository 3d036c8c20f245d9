// Routes the server mounts beside the API surfaces: public health and
// readiness checks on the control-plane surface and the Prometheus text on
// the metrics listener.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "http/router.h"
#include "server/data_dir.h"
#include "server/server_config.h"

namespace st::server {

// GET /health → 200 {"status":"ok"}: the process serves requests (liveness);
// public (load balancers carry no SigV4).
std::vector<http::Route> HealthRoutes();

// GET /ready → 200 {"status":"ready"} when `check` returns OK, else 503
// {"status":"not_ready","reason":"<the error>"}: whether this replica can
// serve now (its catalog and object store answer). `check` must be cheap
// and thread-safe; it runs on every request. Public, as /health.
std::vector<http::Route> ReadyRoutes(std::function<Status()> check);

// GET /metrics → 200 Prometheus text (version 0.0.4) from `render`; public,
// as scrapers carry no SigV4. It names accounts and channel ARNs, so the
// server mounts it only on its own metrics listener (--metrics-listen,
// loopback by default), never on the API port.
std::vector<http::Route> MetricsRoutes(std::function<std::string()> render);

// `text` (Prometheus text format) with label `name="value"` added to every
// sample line, first among its labels; comment and blank lines unchanged.
// So every series a replica exports carries replica="<id>". Precondition:
// `value` needs no escaping (no backslash, quote or newline; replica ids
// are A-Z a-z 0-9 . _ -, IsValidReplicaId).
std::string AddLabelToEverySample(std::string_view text, std::string_view name,
                                  std::string_view value);

}  // namespace st::server
