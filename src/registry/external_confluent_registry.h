// Delivery's client of external Confluent-compatible schema registries (a
// channel's recordSchema.externalSchemaRegistry): the writer schema of a
// schema id from `GET <url>/schemas/ids/{id}`, its references resolved
// transitively from `GET <url>/subjects/{subject}/versions/{version}` into
// the shape LookupSchemaById gives for the built-in registry.
//
// A tenant names the URL, so every request is fenced (SSRF): the host:port
// must be on the operator's allow-list (checked before each request, not
// only at CreateChannel: the list may have shrunk since), redirects are
// errors (never followed), bodies are bounded, connect and I/O have
// timeouts, and references are bounded in depth and number.
//
// Successful lookups are cached per (URL, credentials, id): ids are
// immutable in a registry, and the credentials are part of the key because
// one URL may serve several tenants whose ids differ (this server's own
// registry has per-account ids). The key holds a SHA-256 of the credentials,
// never the secret. Not-found answers are not cached (the id may be
// registered later).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/external_schema_registry.h"
#include "common/status.h"
#include "registry/confluent_registry.h"

namespace st::registry::confluent {

struct ExternalRegistryOptions {
  // host:port entries (catalog::ParseRegistryHostList); empty: no request
  // is ever sent.
  std::vector<std::string> allowed_hosts;
  // Short: a lookup blocks a channel's worker thread, and a registry that
  // does not answer is retried with the batch anyway.
  std::chrono::milliseconds connect_timeout{3000};
  std::chrono::milliseconds io_timeout{10000};
  // https registries: the PEM bundle of CAs their certificates must chain to
  // (--external-registry-ca-file); empty: the system's trust store.
  std::string tls_ca_file;
  // A schema response body; larger ones fail (the built-in registry stores
  // at most kMaxSchemaBytes per schema, as Confluent's default does).
  size_t max_body_bytes = kMaxSchemaBytes;
  // References fetched for one schema, all levels together, and how deep
  // they may nest (as the built-in registry's resolver).
  size_t max_references = 256;
  int max_reference_depth = 32;
  // The cache: at most this many schemas and this many bytes of schema text
  // (least recently used evicted first).
  size_t cache_entries = 4096;
  size_t cache_bytes = size_t{64} << 20;
};

struct BasicAuth {
  std::string key;
  std::string secret;
};

// Thread-safe: channel workers look up concurrently.
class ExternalConfluentRegistry {
 public:
  explicit ExternalConfluentRegistry(ExternalRegistryOptions options);
  ~ExternalConfluentRegistry();
  ExternalConfluentRegistry(const ExternalConfluentRegistry&) = delete;
  ExternalConfluentRegistry& operator=(const ExternalConfluentRegistry&) = delete;

  // The schema `id` of `registry` (its url/host/port/path_prefix are used;
  // its secret fields are not: `auth` carries the unsealed credentials).
  // Errors, each naming the registry URL:
  //  NotFound: 404 with error_code 40403 for the id, or 40401/40402 for a
  //    reference (the record is SCHEMA_NOT_FOUND);
  //  FailedPrecondition: the host is not on the allow-list;
  //  Unavailable: connection refused, timeout, 5xx, 401/403 (the message
  //    says which: "external schema registry http://h:1/p: 401 Unauthorized
  //    ..."), a redirect, any other status (404 without a Confluent error
  //    code too: a wrong path prefix must not send records to the DLQ), a
  //    body over max_body_bytes or not the registry's JSON, or references
  //    beyond the bounds. Every error but NotFound is transient for delivery.
  Result<RegisteredSchema> LookupSchemaById(const catalog::ExternalSchemaRegistry& registry,
                                            const std::optional<BasicAuth>& auth, int64_t id);

  // Cache statistics (tests, metrics).
  size_t cached_schemas() const;
  int64_t requests_sent() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace st::registry::confluent
