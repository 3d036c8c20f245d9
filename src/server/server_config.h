// Command-line configuration of `streamtables server`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/logger.h"
#include "common/status.h"

namespace st::server {

struct ListenAddress {
  std::string host = "127.0.0.1";
  uint16_t port = 0;
  std::string ToString() const;  // "127.0.0.1:8181", "[::1]:8181"
};

struct ServerConfig {
  std::string data_dir = "./data";
  // Control plane at "/", Iceberg REST at "/iceberg".
  ListenAddress listen{"127.0.0.1", 8181};
  // S3-compatible data endpoint.
  ListenAddress s3_listen{"127.0.0.1", 9000};
  // Prometheus /metrics on a listener of its own: it names accounts and
  // channels, so loopback by default. nullopt: --metrics-listen off.
  std::optional<ListenAddress> metrics_listen = ListenAddress{"127.0.0.1", 9464};
  // Empty: $STREAMTABLES_MASTER_KEY_FILE, else <data-dir>/keys/master.key.
  std::string master_key_file;
  // Empty: <data-dir>/keys/kms-master.key, created on first start. The key
  // that wraps KMS key material; a file readable by group or others is refused.
  std::string kms_master_key_file;
  // Empty: <data-dir>/keys/sse-s3.key, created on first start. The key that
  // seals SSE-S3 data keys; replicas sharing an object store must share it.
  std::string sse_s3_key_file;
  // Where table data lives. Empty: <data-dir>/objects. "s3://bucket/prefix?
  // endpoint=http://host:port&region=r": an S3-compatible store, credentials
  // from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (s3store/s3_object_store.h).
  std::string object_store;
  // Empty: the SQLite catalog file in the data dir. A postgresql:// URL: the
  // catalog (metadata store) on that PostgreSQL database.
  std::string catalog_url;
  // The PostgreSQL catalog's connection pool (PostgresStoreOptions::connections).
  int catalog_connections = 4;
  std::string region = "us-east-1";
  std::string account_id;  // Empty: the data dir's, generated on first start.
  // Empty: the data dir's, generated on first start (data_dir.h SettleReplicaId).
  std::string replica_id;
  LogLevel log_level = LogLevel::kInfo;
  int threads = 4;  // I/O threads per endpoint; handlers run on them.
  // Control-plane and catalog requests are small JSON documents.
  uint64_t max_body_bytes = 1024 * 1024;
  // S3 PutObject / UploadPart bodies are held in memory for now.
  uint64_t s3_max_body_bytes = 64ull * 1024 * 1024;
  // Per channel: decoded rows and failed records held before a commit is
  // forced (with librdkafka's prefetch, a quarter of it, this bounds memory).
  uint64_t delivery_buffer_bytes = 48ull * 1024 * 1024;
  // All channels together (delivery/memory_budget.h); 0: no server-wide bound.
  uint64_t delivery_memory_bytes = 512ull * 1024 * 1024;
  // --external-registry-hosts: the host:port entries a channel's external
  // schema registry may be on (catalog::ParseRegistryHostList). Empty by
  // default: a tenant names the URL, so the server sends nothing to any host
  // the operator did not list (the host itself, internal services).
  std::vector<std::string> external_registry_hosts;
  // --external-registry-ca-file: the PEM CAs https registries' certificates
  // must chain to; empty: the system's trust store (OpenSSL's default
  // paths, SSL_CERT_FILE / SSL_CERT_DIR).
  std::string external_registry_ca_file;
  // Both endpoints: a request head (request line and headers) must arrive
  // within this long of its first byte (http::Server::Options::header_timeout).
  uint64_t header_timeout_ms = 20'000;
  // How often the maintenance scheduler runs every table's enabled jobs; 0
  // turns the scheduler off (POST /admin/maintenance/run still works).
  uint64_t maintenance_interval_seconds = 3600;
  // How often the scheduler's compaction-only pass compacts hot partitions
  // (maintenance_service.h); 0 turns it off. A streaming table at freshness
  // 1 s adds 60 files a minute to its current partition.
  uint64_t hot_compaction_interval_seconds = 60;
  // Input plus decoded bytes one compaction job may hold (MiB).
  uint64_t compaction_memory_budget_mb = 4096;
  // FOR TESTS ONLY: maintenance (its schedule, snapshot and file ages) sees
  // the time this many hours ahead, so day-long rules can be proven without
  // waiting. Refused unless --allow-test-only-options yes comes with it.
  int64_t test_only_clock_offset_hours = 0;
  bool allow_test_only_options = false;
  bool help = false;
};

// "host:port" or "[v6]:port"; port 0 asks for an ephemeral port.
// Errors: kInvalidArgument naming the flag value and the expected form.
Result<ListenAddress> ParseListenAddress(std::string_view text);

// Parses `args` (without the program/subcommand name): --flag value or
// --flag=value. Errors: kInvalidArgument naming the flag and the fix.
Result<ServerConfig> ParseServerFlags(const std::vector<std::string>& args);

// The --help text.
std::string ServerUsage();

}  // namespace st::server
