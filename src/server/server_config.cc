#include "server/server_config.h"

#include <charconv>

#include "catalog/external_schema_registry.h"
#include "server/data_dir.h"

namespace st::server {

namespace {

Result<uint64_t> ParseUnsigned(std::string_view flag, std::string_view text, uint64_t max) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value > max) {
    return Err(InvalidArgument(std::string(flag) + " '" + std::string(text) +
                               "' is not a number in [0, " + std::to_string(max) + "]"));
  }
  return value;
}

bool IsTwelveDigits(std::string_view s) {
  if (s.size() != 12) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::string ListenAddress::ToString() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return h + ":" + std::to_string(port);
}

Result<ListenAddress> ParseListenAddress(std::string_view text) {
  auto bad = [&](std::string why) {
    return Err(InvalidArgument("listen address '" + std::string(text) + "' " + why +
                               "; use host:port such as 127.0.0.1:8181 or [::1]:8181"));
  };
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return bad("has no port");
  std::string_view host = text.substr(0, colon);
  if (host.front() == '[') {
    if (host.back() != ']' || host.size() < 3) return bad("has an unbalanced '['");
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return bad("is IPv6 without brackets");
  }
  auto port = ParseUnsigned("port", text.substr(colon + 1), 65535);
  if (!port.has_value()) return bad("has a bad port");
  return ListenAddress{std::string(host), static_cast<uint16_t>(*port)};
}

Result<ServerConfig> ParseServerFlags(const std::vector<std::string>& args) {
  ServerConfig config;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    if (flag == "--help" || flag == "-h") {
      config.help = true;
      continue;
    }
    if (flag.rfind("--", 0) != 0) {
      return Err(InvalidArgument("unexpected argument '" + flag + "'; see --help"));
    }
    std::string value;
    size_t eq = flag.find('=');
    if (eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return Err(InvalidArgument("flag " + flag + " needs a value; see --help"));
    }

    if (flag == "--data-dir") {
      if (value.empty()) return Err(InvalidArgument("--data-dir must not be empty"));
      config.data_dir = value;
    } else if (flag == "--listen") {
      ST_ASSIGN_OR_RETURN(config.listen, ParseListenAddress(value));
    } else if (flag == "--s3-listen") {
      ST_ASSIGN_OR_RETURN(config.s3_listen, ParseListenAddress(value));
    } else if (flag == "--metrics-listen") {
      if (value == "off") {
        config.metrics_listen.reset();
      } else {
        ST_ASSIGN_OR_RETURN(config.metrics_listen, ParseListenAddress(value));
      }
    } else if (flag == "--master-key-file") {
      if (value.empty()) return Err(InvalidArgument("--master-key-file must not be empty"));
      config.master_key_file = value;
    } else if (flag == "--object-store") {
      config.object_store = value;
    } else if (flag == "--kms-master-key-file") {
      if (value.empty()) return Err(InvalidArgument("--kms-master-key-file must not be empty"));
      config.kms_master_key_file = value;
    } else if (flag == "--sse-s3-key-file") {
      if (value.empty()) return Err(InvalidArgument("--sse-s3-key-file must not be empty"));
      config.sse_s3_key_file = value;
    } else if (flag == "--catalog") {
      if (!value.starts_with("postgresql://") && !value.starts_with("postgres://")) {
        return Err(InvalidArgument("--catalog '" + value +
                                   "' must be a postgresql://user@host:port/db URL (the default "
                                   "catalog is the SQLite file in the data dir)"));
      }
      config.catalog_url = value;
    } else if (flag == "--catalog-connections") {
      ST_ASSIGN_OR_RETURN(uint64_t connections, ParseUnsigned(flag, value, 64));
      if (connections == 0) return Err(InvalidArgument("--catalog-connections must be 1 to 64"));
      config.catalog_connections = static_cast<int>(connections);
    } else if (flag == "--region") {
      if (value.empty()) return Err(InvalidArgument("--region must not be empty"));
      config.region = value;
    } else if (flag == "--account-id") {
      if (!IsTwelveDigits(value)) {
        return Err(InvalidArgument("--account-id '" + value + "' must be exactly 12 digits"));
      }
      config.account_id = value;
    } else if (flag == "--replica-id") {
      if (!IsValidReplicaId(value)) {
        return Err(InvalidArgument("--replica-id '" + value +
                                   "' must be 1-64 characters of A-Z a-z 0-9 . _ -"));
      }
      config.replica_id = value;
    } else if (flag == "--log-level") {
      ST_ASSIGN_OR_RETURN(config.log_level, ParseLogLevel(value));
    } else if (flag == "--threads") {
      ST_ASSIGN_OR_RETURN(uint64_t threads, ParseUnsigned(flag, value, 256));
      config.threads = static_cast<int>(threads);
    } else if (flag == "--max-body-bytes") {
      ST_ASSIGN_OR_RETURN(config.max_body_bytes, ParseUnsigned(flag, value, UINT64_MAX));
    } else if (flag == "--delivery-buffer-mb") {
      ST_ASSIGN_OR_RETURN(uint64_t mb, ParseUnsigned(flag, value, 65536));
      if (mb == 0) return Err(InvalidArgument("--delivery-buffer-mb must be at least 1"));
      config.delivery_buffer_bytes = mb * 1024 * 1024;
    } else if (flag == "--delivery-memory-mb") {
      ST_ASSIGN_OR_RETURN(uint64_t mb, ParseUnsigned(flag, value, 1 << 20));
      config.delivery_memory_bytes = mb * 1024 * 1024;
    } else if (flag == "--external-registry-hosts") {
      ST_ASSIGN_OR_RETURN(config.external_registry_hosts, catalog::ParseRegistryHostList(value));
    } else if (flag == "--external-registry-ca-file") {
      if (value.empty()) return Err(InvalidArgument("--external-registry-ca-file needs a path"));
      config.external_registry_ca_file = std::string(value);
    } else if (flag == "--header-timeout-ms") {
      ST_ASSIGN_OR_RETURN(config.header_timeout_ms, ParseUnsigned(flag, value, 3'600'000));
      if (config.header_timeout_ms == 0) {
        return Err(InvalidArgument("--header-timeout-ms must be at least 1"));
      }
    } else if (flag == "--s3-max-body-bytes") {
      ST_ASSIGN_OR_RETURN(config.s3_max_body_bytes, ParseUnsigned(flag, value, UINT64_MAX));
    } else if (flag == "--maintenance-interval-seconds") {
      ST_ASSIGN_OR_RETURN(config.maintenance_interval_seconds,
                          ParseUnsigned(flag, value, 7ull * 24 * 3600));
    } else if (flag == "--hot-compaction-interval-seconds") {
      ST_ASSIGN_OR_RETURN(config.hot_compaction_interval_seconds,
                          ParseUnsigned(flag, value, 7ull * 24 * 3600));
    } else if (flag == "--compaction-memory-budget-mb") {
      ST_ASSIGN_OR_RETURN(config.compaction_memory_budget_mb,
                          ParseUnsigned(flag, value, 1024ull * 1024));
      if (config.compaction_memory_budget_mb == 0) {
        return Err(InvalidArgument("--compaction-memory-budget-mb must be at least 1"));
      }
    } else if (flag == "--test-only-clock-offset-hours") {
      // Ten years either way is more than any maintenance rule needs.
      ST_ASSIGN_OR_RETURN(config.test_only_clock_offset_hours,
                          ParseUnsigned(flag, value, 10ull * 365 * 24));
    } else if (flag == "--allow-test-only-options") {
      if (value != "yes") {
        return Err(InvalidArgument("--allow-test-only-options takes only 'yes'"));
      }
      config.allow_test_only_options = true;
    } else {
      return Err(InvalidArgument("unknown flag " + flag + "; see --help"));
    }
  }
  if (config.test_only_clock_offset_hours != 0 && !config.allow_test_only_options) {
    return Err(InvalidArgument(
        "--test-only-clock-offset-hours shifts maintenance time for tests and must never be "
        "used in production; pass --allow-test-only-options yes to use it"));
  }
  return config;
}

std::string ServerUsage() {
  return R"(usage: streamtables server [flags]

  --data-dir DIR           state directory (default ./data): catalog, objects, keys
  --listen HOST:PORT       control plane at / and Iceberg REST at /iceberg (default 127.0.0.1:8181)
  --s3-listen HOST:PORT    S3-compatible data endpoint (default 127.0.0.1:9000)
  --metrics-listen HOST:PORT|off
                           Prometheus /metrics, unauthenticated (default 127.0.0.1:9464)
  --master-key-file PATH   key that seals secret access keys in the catalog (default:
                           $STREAMTABLES_MASTER_KEY_FILE, else DIR/keys/master.key,
                           created on first start; back it up apart from the data dir)
  --kms-master-key-file PATH  key that wraps KMS key material (default: DIR/keys/kms-master.key,
                           created on first start; must not be readable by group or others)
  --sse-s3-key-file PATH   key that seals SSE-S3 data keys (default: DIR/keys/sse-s3.key, created
                           on first start; replicas on one object store need the same one)
  --object-store URL       where table data lives (default DIR/objects); an S3-compatible store:
                           s3://BUCKET/PREFIX?endpoint=http[s]://HOST:PORT&region=REGION, with
                           AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN;
                           AWS_CA_BUNDLE: the CAs of an https endpoint, default the system's)
  --catalog URL            postgresql://user[:password]@host:port/db: the catalog on
                           PostgreSQL (default: the SQLite file DIR/catalog.db)
  --catalog-connections N  connections to the PostgreSQL catalog, kept open and shared by
                           the request threads (1-64, default 4; SQLite always uses one)
  --region REGION          region in ARNs and SigV4 scopes (default us-east-1)
  --account-id DIGITS      12-digit account id (default: generated once, kept in the data dir)
  --replica-id NAME        this server's name among replicas on one catalog (Kafka group
                           member, leases, metric labels; default: generated once, kept in
                           the data dir)
  --log-level LEVEL        debug | info | warn | error (default info); JSON lines on stderr
  --threads N              I/O threads per endpoint (default 4)
  --max-body-bytes N       API request body limit (default 1048576)
  --s3-max-body-bytes N    S3 request body limit (default 67108864)
  --delivery-buffer-mb N   per-channel delivery buffer before a commit is forced (default 48)
  --delivery-memory-mb N   all channels' buffers together: past it, channels at or above
                           their fair share commit early (default 512, 0: no bound)
  --external-registry-hosts HOST:PORT,...
                           the hosts a channel's external Confluent-compatible schema
                           registry (recordSchema.externalSchemaRegistry) may be on, matched
                           exactly (default empty: every channel naming one is refused)
  --external-registry-ca-file PATH
                           PEM CAs that https registries' certificates must chain to
                           (default: the system's trust store; SSL_CERT_FILE works too)
  --header-timeout-ms N    a request's line and headers must arrive within N ms of its first
                           byte, or the connection is closed (default 20000)
  --maintenance-interval-seconds N
                           run every table's enabled maintenance jobs every N seconds
                           (default 3600; 0: only on POST /admin/maintenance/run)
  --hot-compaction-interval-seconds N
                           between those passes, compact every partition holding more than
                           8 small files every N seconds (default 60; 0: off; needs the
                           scheduler, so nothing runs with --maintenance-interval-seconds 0)
  --compaction-memory-budget-mb N
                           input plus decoded bytes one compaction job (or record
                           expiration's rewrite of straddling files) may hold (default
                           4096); a data file that would decode past it (each page is
                           checked from its header before it is decompressed) fails the
                           job naming the file instead of exhausting memory
  --test-only-clock-offset-hours N
                           TESTS ONLY, needs --allow-test-only-options yes: maintenance
                           sees the time N hours ahead (snapshot and file ages, schedule)

Port 0 picks a free port. On start the server prints one line to stdout:
  streamtables: listening api=http://HOST:PORT s3=http://HOST:PORT metrics=http://HOST:PORT
(metrics=off when disabled). The data dir is the server user's alone (0700
directories, 0600 files; an existing one is tightened on start).
SIGINT/SIGTERM stop it gracefully: in-flight requests finish, exit code 0.
)";
}

}  // namespace st::server
