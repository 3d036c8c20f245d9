// The route groups of the Iceberg REST surface, one file each; the surface
// (iceberg_rest_surface.cc) concatenates them and guards every handler.
#pragma once

#include <string>
#include <vector>

#include "api/iceberg_rest/rest_access_internal.h"
#include "http/router.h"

namespace st::api::iceberg_rest {

// GET /v1/config.
std::vector<http::Route> ConfigRoutes(SharedDeps deps);
// list/create/load/exists/drop namespaces, and the unsupported properties update.
std::vector<http::Route> NamespaceRoutes(SharedDeps deps);
// list/create/load/exists/drop/rename tables.
std::vector<http::Route> TableRoutes(SharedDeps deps);
// commit (POST .../tables/{table}) and metrics.
std::vector<http::Route> CommitRoutes(SharedDeps deps);

// The config's `endpoints` list: exactly the routes above that do something.
std::vector<std::string> AdvertisedEndpoints();

// The account a caller acts as, for created_by / modified_by: the
// principal's, or the bucket owner's when the principal has none (anonymous
// test hooks).
std::string ActingAccount(const http::RouteContext& context, const std::string& bucket_arn);

}  // namespace st::api::iceberg_rest
