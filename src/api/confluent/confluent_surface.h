// The Confluent Schema Registry REST API over registry/confluent_registry.h,
// mounted at "/schema-registry" on the API endpoint: clients use the base URL
// "<api>/schema-registry" (confluent-kafka's SchemaRegistryClient accepts a
// path in its url). A path prefix rather than a listener of its own: the API
// port already carries TLS, limits, logging and metrics, and a deployment
// opens no extra port.
//
// Authentication is HTTP Basic: user = access key id, password = its secret
// access key, resolved through the same identity store as SigV4 (temporary
// keys, which need a session token, are refused). Missing or wrong
// credentials: 401 {"error_code":401,"message":"Unauthorized"}. The router
// treats these routes as public so that this surface can answer in
// Confluent's shape; every handler here authenticates and authorizes first.
//
// Authorization: the IAM-style actions schemaregistry:ReadSubject,
// WriteSubject, DeleteSubject, ReadConfig, WriteConfig on
//   arn:aws:schemaregistry:<region>:<account>:subject/<subject>   (subject calls)
//   arn:aws:schemaregistry:<region>:<account>:subject/*           (listing, ids)
//   arn:aws:schemaregistry:<region>:<account>:config              (global config, mode, types)
// denied: 403 {"error_code":40301,...}. The registry is the caller's account's.
#pragma once

#include <string>

#include "auth/authorizer.h"
#include "auth/sigv4.h"
#include "http/router.h"
#include "registry/confluent_registry.h"

namespace st::api::confluent {

// All must outlive the mounted router.
struct ConfluentDeps {
  registry::confluent::ConfluentRegistry& registry;
  const auth::SecretLookup& secrets;
  const auth::Authorizer& authorizer;
  std::string region;
};

http::Surface MakeConfluentSurface(const ConfluentDeps& deps);

}  // namespace st::api::confluent
