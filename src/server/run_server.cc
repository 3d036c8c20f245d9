#include "server/run_server.h"

#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

#include "api/admin/admin_surface.h"
#include "api/confluent/confluent_surface.h"
#include "api/glue/glue_surface.h"
#include "api/iceberg_rest/iceberg_rest_surface.h"
#include "api/kafka/kafka_surface.h"
#include "api/s3/s3_surface.h"
#include "api/s3tables/s3tables_surface.h"
#include "auth/secret_sealer.h"
#include "catalog/bootstrap.h"
#include "catalog/metadata_store.h"
#include "catalog/postgres_metadata_store.h"
#include "catalog/sqlite_metadata_store.h"
#include "catalog/store_secret_lookup.h"
#include "catalog/table_commits.h"
#include "common/clock.h"
#include "common/random.h"
#include "delivery/delivery_service.h"
#include "delivery/kafka_client.h"
#include "delivery/record_format.h"
#include "http/error_shapes.h"
#include "http/server.h"
#include "kms/key_service.h"
#include "kms/key_store.h"
#include "kms/kms_surface.h"
#include "maintenance/maintenance_service.h"
#include "postgres/connection.h"
#include "registry/confluent_registry.h"
#include "registry/schema_registry.h"
#include "server/admin_key_file.h"
#include "server/builtin_routes.h"
#include "server/confluent_schema_lookup.h"
#include "server/data_dir.h"
#include "server/lease_keeper.h"
#include "server/master_key.h"
#include "server/object_encryption.h"
#include "server/object_store_config.h"
#include "server/policy_authorizer.h"
#include "server/schema_compatibility_checkers.h"
#include "server/server_config.h"
#include "server/sigv4_authenticator.h"
#include "storage/encrypted_object_store.h"

namespace st::server {

namespace {

std::string Url(const http::Server& server) { return "http://" + server.endpoint(); }

// Table files live at the root of the object store ("<wh>--table-s3/...").
constexpr const char* kObjectKeyRoot = "";

delivery::DeliveryService::Options DeliveryOptions(const ServerConfig& config) {
  delivery::DeliveryService::Options options;
  options.buffer_budget_bytes = static_cast<int64_t>(config.delivery_buffer_bytes);
  options.total_buffer_budget_bytes = static_cast<int64_t>(config.delivery_memory_bytes);
  return options;
}

// A connection of its own to the --catalog PostgreSQL database, for the
// stores that share the catalog's database (KMS keys, schema registry).
Result<std::unique_ptr<postgres::Connection>> OpenPostgresConnection(const ServerConfig& config,
                                                                     const std::string& label) {
  return postgres::Connection::Open({config.catalog_url, label});
}

// The catalog of --catalog: PostgreSQL when a URL is given, else the SQLite
// file in the data dir. The KMS key store and the schema registry follow it.
Result<std::unique_ptr<catalog::MetadataStore>> OpenCatalog(const ServerConfig& config,
                                                            const DataDirLayout& layout,
                                                            const auth::SecretSealer* sealer,
                                                            const Clock& clock, Random& random) {
  if (!config.catalog_url.empty()) {
    return catalog::OpenPostgresMetadataStore(
        {config.catalog_url, sealer, config.catalog_connections}, clock, random);
  }
  catalog::SqliteStoreOptions options;
  options.path = layout.catalog_db_path;
  options.secret_sealer = sealer;
  return catalog::OpenSqliteMetadataStore(options, clock, random);
}

// /health and /ready. Ready: the catalog answers a read, and the object
// store answers a HEAD (a missing probe object is an answer).
std::vector<http::Route> ReadinessRoutes(catalog::MetadataStore& store,
                                         storage::ObjectStore& objects) {
  std::vector<http::Route> routes = HealthRoutes();
  for (http::Route& route : ReadyRoutes([&store, &objects]() -> Status {
         if (Result<std::optional<catalog::Lease>> lease = store.GetLease("coordinator");
             !lease.has_value()) {
           return lease.error().WithContext("catalog database");
         }
         Result<storage::ObjectInfo> probe = objects.Head("streamtables-ready-probe");
         if (!probe.has_value() && probe.error().code() != StatusCode::kNotFound) {
           return probe.error().WithContext("object store");
         }
         return Status::OK();
       })) {
    routes.push_back(std::move(route));
  }
  return routes;
}

// streamtables_replica_info and the lease gauges: the keeper's, or, with no
// keeper (SQLite: this process is the only replica), held.
std::string ReplicaMetricsText(const LeaseKeeper* keeper) {
  std::string text =
      "# HELP streamtables_replica_info This replica (the replica label names it).\n"
      "# TYPE streamtables_replica_info gauge\nstreamtables_replica_info 1\n";
  return text + (keeper != nullptr ? keeper->MetricsText()
                                   : LeaseMetricsText(LeaseKeeperOptions{}.name, true, 1));
}

// glibc gives threads that allocate at once their own malloc arenas, up to
// eight per core, and an arena keeps much of what is freed into it. Delivery
// allocates record buffers on librdkafka's threads and column buffers on the
// channel workers and frees them on others, so with 20 channels (over a
// hundred threads) retained arena memory was about a third of the peak RSS:
// one arena per core ran the same 20 channels at 0.70x the peak and the same
// speed (bench/RESULTS.md, "Many channels: malloc arenas"). Before any thread
// starts; an operator's MALLOC_ARENA_MAX or GLIBC_TUNABLES arena_max wins.
void LimitMallocArenas() {
#ifdef M_ARENA_MAX
  if (std::getenv("MALLOC_ARENA_MAX") != nullptr) return;
  if (const char* tunables = std::getenv("GLIBC_TUNABLES");
      tunables != nullptr && std::strstr(tunables, "arena_max") != nullptr) {
    return;
  }
  const unsigned cores = std::max(2U, std::thread::hardware_concurrency());
  (void)mallopt(M_ARENA_MAX, static_cast<int>(cores));
#endif
}

}  // namespace

int RunServer(int argc, char** argv) {
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  Result<ServerConfig> parsed = ParseServerFlags(args);
  if (!parsed.has_value()) {
    std::fprintf(stderr, "streamtables server: %s\n", parsed.error().message().c_str());
    return 2;
  }
  const ServerConfig& config = *parsed;
  if (config.help) {
    std::fputs(ServerUsage().c_str(), stdout);
    return 0;
  }
  // Backstop for the explicit modes every file and directory is created
  // with: nothing the server writes is readable by other users.
  ::umask(077);
  LimitMallocArenas();

  // Block the stop signals before any thread starts, so they all inherit the
  // mask and only sigwait() below sees the signals.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  const Clock& clock = SystemClock::Default();
  Random& random = DefaultRandom::Default();
  JsonLinesLogger logger(stderr, config.log_level, clock);
  auto fail = [&](const Status& status) {
    logger.Log(LogLevel::kError, "startup_failed", {{"error", status.ToString()}});
    return 1;
  };
  // Read when the first https registry is used; a wrong path fails here.
  if (!config.external_registry_ca_file.empty()) {
    std::FILE* ca = std::fopen(config.external_registry_ca_file.c_str(), "r");
    if (ca == nullptr) {
      return fail(InvalidArgument("--external-registry-ca-file " +
                                  config.external_registry_ca_file + ": " + std::strerror(errno)));
    }
    std::fclose(ca);
  }

  // ---- State: data dir, catalog, objects, table engine, admin identity.
  Result<DataDirLayout> layout = PrepareDataDir(config.data_dir, config.account_id, random);
  if (!layout.has_value()) return fail(layout.error());
  if (layout->repaired.files > 0 || layout->repaired.dirs > 0) {
    std::string examples;
    for (const std::string& example : layout->repaired.examples) {
      examples += (examples.empty() ? "" : ", ") + example;
    }
    logger.Log(LogLevel::kWarn, "data_dir_modes_tightened",
               {{"data_dir", layout->root},
                {"files_set_0600", layout->repaired.files},
                {"dirs_set_0700", layout->repaired.dirs},
                {"changed", examples}});
  }
  Result<std::string> replica_id = SettleReplicaId(*layout, config.replica_id, random);
  if (!replica_id.has_value()) return fail(replica_id.error());
  const char* master_key_env = std::getenv(kMasterKeyEnv);
  Result<MasterKey> master_key = LoadMasterKey(
      {config.master_key_file, master_key_env ? master_key_env : "", layout->master_key_path});
  if (!master_key.has_value()) return fail(master_key.error().WithContext("master key"));
  if (!master_key->warning.empty()) {
    logger.Log(LogLevel::kWarn, "master_key_readable_by_others",
               {{"warning", master_key->warning}});
  }
  Result<std::unique_ptr<auth::AesGcmSecretSealer>> sealer =
      auth::AesGcmSecretSealer::Make(master_key->bytes);
  if (!sealer.has_value()) return fail(sealer.error().WithContext("master key"));
  Result<std::unique_ptr<catalog::MetadataStore>> store_or =
      OpenCatalog(config, *layout, sealer->get(), clock, random);
  if (!store_or.has_value()) {
    Status error = store_or.error();
    if (master_key->created && error.code() == StatusCode::kFailedPrecondition) {
      // The data dir lost its key file: do not leave a new, useless one behind.
      DiscardCreatedMasterKey(*master_key);
      error = error.WithContext(master_key->path + " was missing (a new key was made and removed)");
    }
    return fail(error.WithContext("catalog database"));
  }
  // One store serves as every per-entity interface; each component below
  // gets the interfaces it uses (the API surfaces and delivery still take
  // the whole MetadataStore).
  catalog::MetadataStore& store = **store_or;
  catalog::IdentityStore& identities = store;
  // ---- Replicas: on a shared (PostgreSQL) catalog, run-once work follows
  // the "coordinator" lease; on SQLite this process is the only replica
  // and always leads (docs/replicas.md).
  std::unique_ptr<LeaseKeeper> lease_keeper;
  std::function<bool()> is_leader;
  if (!config.catalog_url.empty()) {
    lease_keeper = std::make_unique<LeaseKeeper>(store, *replica_id, logger, LeaseKeeperOptions{});
    is_leader = [&lease_keeper] { return lease_keeper->IsLeader(); };
  }
  // ---- KMS: keys in the catalog database, their material wrapped under a
  // master key of its own that is never in the database.
  Result<MasterKey> kms_master_key =
      LoadKmsMasterKey(config.kms_master_key_file, layout->keys_dir + "/kms-master.key");
  if (!kms_master_key.has_value()) {
    return fail(kms_master_key.error().WithContext("KMS master key"));
  }
  Result<std::unique_ptr<auth::AesGcmSecretSealer>> kms_sealer =
      auth::AesGcmSecretSealer::Make(kms_master_key->bytes);
  if (!kms_sealer.has_value()) return fail(kms_sealer.error().WithContext("KMS master key"));
  Result<std::unique_ptr<kms::KeyStore>> kms_store_or =
      config.catalog_url.empty()
          ? kms::OpenSqliteKeyStore(layout->catalog_db_path)
          : OpenPostgresConnection(config, "KMS key store (catalog database)")
                .and_then([](std::unique_ptr<postgres::Connection> db) {
                  return kms::OpenKeyStore(std::move(db));
                });
  if (!kms_store_or.has_value()) return fail(kms_store_or.error().WithContext("KMS key store"));
  kms::KeyService kms_keys({**kms_store_or, **kms_sealer, clock, random, config.region});

  // ---- Objects: every object is stored encrypted (SSE-S3 under the
  // server's key file, or SSE-KMS with its table's key); everything above
  // the store reads plaintext.
  Result<std::unique_ptr<storage::ObjectStore>> objects_or = OpenObjectStore(config, *layout);
  if (!objects_or.has_value()) return fail(objects_or.error().WithContext("object store"));
  Result<MasterKey> sse_s3_key = LoadKmsMasterKey(
      config.sse_s3_key_file, layout->keys_dir + "/sse-s3.key", "--sse-s3-key-file");
  if (!sse_s3_key.has_value()) return fail(sse_s3_key.error().WithContext("SSE-S3 key"));
  Result<std::unique_ptr<auth::AesGcmSecretSealer>> sse_s3_sealer =
      auth::AesGcmSecretSealer::Make(sse_s3_key->bytes);
  if (!sse_s3_sealer.has_value()) return fail(sse_s3_sealer.error().WithContext("SSE-S3 key"));
  TableEncryptionResolver encryption_resolver(store);
  ServerDataKeys data_keys(kms_keys, *std::move(sse_s3_sealer));
  std::unique_ptr<storage::ObjectStore> encrypted_objects =
      storage::NewEncryptedObjectStore(**objects_or, encryption_resolver, data_keys, clock);
  storage::ObjectStore& objects = *encrypted_objects;
  catalog::TableCommitsOptions commits_options;
  commits_options.key_root = kObjectKeyRoot;
  catalog::TableCommits commits(
      catalog::TableCommitsStores{.tables = store, .offsets = store, .units = store}, objects,
      clock, random, commits_options);
  Result<catalog::AdminCredentials> admin = catalog::EnsureAdmin(identities, layout->account_id);
  if (!admin.has_value()) return fail(admin.error().WithContext("admin bootstrap"));

  Result<std::unique_ptr<registry::SchemaRegistry>> registry_or =
      config.catalog_url.empty()
          ? registry::OpenSqliteSchemaRegistry(layout->catalog_db_path, config.region, clock,
                                               random, MakeGlueFormatSupport())
          : OpenPostgresConnection(config, "schema registry database")
                .and_then([&](std::unique_ptr<postgres::Connection> db) {
                  return registry::OpenSchemaRegistry(std::move(db), config.region, clock, random,
                                                      MakeGlueFormatSupport());
                });
  if (!registry_or.has_value()) return fail(registry_or.error().WithContext("schema registry"));
  registry::SchemaRegistry& schemas = **registry_or;
  Result<std::unique_ptr<registry::confluent::ConfluentRegistry>> confluent_or =
      config.catalog_url.empty()
          ? registry::confluent::OpenSqliteConfluentRegistry(layout->catalog_db_path, clock,
                                                             MakeSchemaCompatibilityCheckers())
          : OpenPostgresConnection(config, "confluent schema registry database")
                .and_then([&](std::unique_ptr<postgres::Connection> db) {
                  return registry::confluent::OpenConfluentRegistry(
                      std::move(db), clock, MakeSchemaCompatibilityCheckers());
                });
  if (!confluent_or.has_value()) {
    return fail(confluent_or.error().WithContext("confluent registry"));
  }

  // ---- Auth: SigV4 over the catalog's keys, IAM policies from the catalog.
  catalog::StoreSecretLookup secrets(identities);
  SigV4Authenticator api_authenticator(secrets, clock, Endpoint::kApi, config.region);
  SigV4Authenticator s3_authenticator(secrets, clock, Endpoint::kS3, config.region);
  PolicyAuthorizer authorizer(PolicySources{.identities = identities,
                                            .table_buckets = store,
                                            .tables = store,
                                            .gp_buckets = store,
                                            .kms_keys = kms_store_or->get()},
                              clock, logger, layout->account_id);
  (void)commits;  // Used by the surfaces mounted below.

  // ---- S3 endpoint first: the catalog surfaces hand its URL to clients.
  http::Router s3_router(s3_authenticator, authorizer, logger);
  Status mounted = s3_router.Mount(api::s3::MakeS3Surface(
      {store, objects, kObjectKeyRoot, random, &secrets, &clock, config.region,
       config.object_store.empty() ? layout->objects_dir : "", &authorizer}));
  if (!mounted.ok()) return fail(mounted);
  http::Server::Options s3_options;
  s3_options.address = config.s3_listen.host;
  s3_options.port = config.s3_listen.port;
  s3_options.threads = config.threads;
  s3_options.max_body_bytes = config.s3_max_body_bytes;
  s3_options.header_timeout = std::chrono::milliseconds(config.header_timeout_ms);
  Result<std::unique_ptr<http::Server>> s3 = http::Server::Make(s3_options, s3_router, logger);
  if (!s3.has_value()) return fail(s3.error().WithContext("S3 endpoint (--s3-listen)"));
  const std::string s3_url = Url(**s3);

  // ---- Delivery: one worker per active channel, acting as its service role.
  // Its real adapters are built here: librdkafka, and records decoded
  // against the built-in schema registry.
  std::unique_ptr<delivery::KafkaClientFactory> kafka = delivery::NewRdKafkaClientFactory();
  // AVRO_CONFLUENT, PROTOBUF_CONFLUENT and JSON_SCHEMA_CONFLUENT writer
  // schemas (Protobuf: with the files its references name) come from the
  // built-in Confluent-compatible registry, in the channel owner's account (its ids are per
  // account), or from the external registry a channel names, on the hosts
  // --external-registry-hosts allows.
  registry::confluent::ExternalRegistryOptions external_options;
  external_options.allowed_hosts = config.external_registry_hosts;
  external_options.tls_ca_file = config.external_registry_ca_file;
  registry::confluent::ExternalConfluentRegistry external_registries(std::move(external_options));
  delivery::ConfluentSchemaLookup confluent_lookup =
      MakeConfluentSchemaLookup(**confluent_or, external_registries, **sealer);
  std::unique_ptr<delivery::RecordFormat> record_format =
      delivery::NewDecodingRecordFormat(schemas, std::move(confluent_lookup));
  delivery::DeliveryService delivery(
      {store, commits, objects, authorizer, clock, random, config.region, kObjectKeyRoot, logger,
       *kafka, *record_format, *replica_id, is_leader},
      DeliveryOptions(config));

  // ---- Maintenance: the scheduler acts as the maintenance principal; only
  // its clock carries the test-only offset (SigV4 and commits keep real time).
  OffsetClock maintenance_clock(clock, std::chrono::hours(config.test_only_clock_offset_hours));
  maintenance::MaintenanceOptions maintenance_options;
  maintenance_options.interval =
      std::chrono::seconds(std::max<uint64_t>(config.maintenance_interval_seconds, 1));
  maintenance_options.hot_compaction_interval =
      std::chrono::seconds(config.hot_compaction_interval_seconds);
  maintenance_options.compaction_memory_budget_bytes =
      static_cast<int64_t>(config.compaction_memory_budget_mb) << 20;
  maintenance::MaintenanceService maintenance_service(
      {store, commits, objects, kObjectKeyRoot, authorizer, maintenance_clock, random, logger,
       is_leader},
      maintenance_options);
  if (config.test_only_clock_offset_hours != 0) {
    logger.Log(LogLevel::kWarn, "test_only_clock_offset",
               {{"hours", config.test_only_clock_offset_hours},
                {"warning", "maintenance time is shifted; never use this in production"}});
  }

  // ---- API endpoint: control plane at /, Iceberg REST at /iceberg, admin at
  // /admin, channels at /v1 and /api/v2, the Glue schema registry at /glue,
  // KMS at /kms.
  http::Router api_router(api_authenticator, authorizer, logger);
  mounted = api_router.Mount(api::s3tables::MakeS3TablesSurface(
      {store, commits, objects, kObjectKeyRoot, config.region, layout->account_id, clock,
       &authorizer,
       [&data_keys](const std::string& key_arn) {
         return data_keys.CheckKeyUsable({storage::SseKind::kSseKms, key_arn, ""});
       }},
      ReadinessRoutes(store, **objects_or)));
  if (mounted.ok()) {
    mounted = api_router.Mount(api::iceberg_rest::MakeIcebergRestSurface(
        {store, commits, objects, kObjectKeyRoot, config.region, s3_url, clock, random}));
  }
  if (mounted.ok()) {
    mounted = api_router.Mount(api::admin::MakeAdminSurface(
        {store, layout->account_id, config.region,
         [&maintenance_service](const std::string& table_id, catalog::MaintenanceJob job) {
           return maintenance_service.RunNow(table_id, job);
         }}));
  }
  api::kafka::KafkaDeps kafka_deps{
      store,
      authorizer,
      layout->account_id,
      [&delivery](const std::string& arn) { return delivery.LiveStateInfo(arn); },
      [&delivery](const std::string& arn) {
        std::vector<api::kafka::KafkaDeps::QuarantinedVersion> out;
        for (const auto& [version, q] : delivery.QuarantinedVersions(arn)) {
          out.push_back({version, q.records, q.message});
        }
        return out;
      },
      config.external_registry_hosts,
      sealer->get()};
  if (mounted.ok()) mounted = api_router.Mount(api::kafka::MakeKafkaSurface(kafka_deps));
  if (mounted.ok()) mounted = api_router.Mount(api::kafka::MakeKafkaOperationsSurface(kafka_deps));
  if (mounted.ok()) {
    mounted = api_router.Mount(api::glue::MakeGlueSurface({schemas, config.region, clock}));
  }
  if (mounted.ok()) {
    mounted = api_router.Mount(
        api::confluent::MakeConfluentSurface({**confluent_or, secrets, authorizer, config.region}));
  }
  if (mounted.ok()) mounted = api_router.Mount(kms::MakeKmsSurface({kms_keys, authorizer}));
  if (!mounted.ok()) return fail(mounted);

  http::Server::Options api_options = s3_options;
  api_options.address = config.listen.host;
  api_options.port = config.listen.port;
  api_options.max_body_bytes = config.max_body_bytes;
  Result<std::unique_ptr<http::Server>> api = http::Server::Make(api_options, api_router, logger);
  if (!api.has_value()) return fail(api.error().WithContext("API endpoint (--listen)"));

  // ---- Metrics endpoint: /metrics alone, unauthenticated, loopback by default.
  http::Router metrics_router(api_authenticator, authorizer, logger);
  std::unique_ptr<http::Server> metrics;
  if (config.metrics_listen.has_value()) {
    mounted = metrics_router.Mount(
        {"metrics", "", std::make_shared<http::S3TablesErrorWriter>(), MetricsRoutes([&] {
           std::string text = delivery.MetricsText() + maintenance_service.MetricsText() +
                              ReplicaMetricsText(lease_keeper.get());
           return AddLabelToEverySample(text, "replica", *replica_id);
         })});
    if (!mounted.ok()) return fail(mounted);
    http::Server::Options metrics_options = s3_options;
    metrics_options.address = config.metrics_listen->host;
    metrics_options.port = config.metrics_listen->port;
    metrics_options.threads = 1;
    metrics_options.max_body_bytes = 4096;  // GETs only.
    Result<std::unique_ptr<http::Server>> made =
        http::Server::Make(metrics_options, metrics_router, logger);
    if (!made.has_value()) {
      return fail(
          made.error().WithContext("metrics endpoint (--metrics-listen; 'off' disables it)"));
    }
    metrics = *std::move(made);
  }
  const std::string metrics_url = metrics ? Url(*metrics) : "off";

  std::string key_file = AdminKeyFilePath(layout->keys_dir);
  Status written =
      WriteAdminKeyFile(key_file, {*admin, config.region, layout->account_id, Url(**api), s3_url});
  if (!written.ok()) return fail(written);

  logger.Log(LogLevel::kInfo, "started",
             {{"api", Url(**api)},
              {"s3", s3_url},
              {"data_dir", layout->root},
              {"account_id", layout->account_id},
              {"replica_id", *replica_id},
              {"region", config.region},
              {"admin_key_file", key_file},
              {"admin_created", admin->created}});
  // The listening line comes first: scripts read exactly one line to find the ports.
  if (lease_keeper) lease_keeper->Start();  // Before delivery: a lone replica leads at once.
  delivery.Start();
  if (config.maintenance_interval_seconds > 0) maintenance_service.Start();
  std::printf("streamtables: listening api=%s s3=%s metrics=%s\n", Url(**api).c_str(),
              s3_url.c_str(), metrics_url.c_str());
  std::printf("streamtables: admin credentials in %s\n", key_file.c_str());
  std::fflush(stdout);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  logger.Log(LogLevel::kInfo, "shutdown",
             {{"signal", signal_number == SIGINT ? "SIGINT" : "SIGTERM"}});
  // Delivery first: a commit in flight completes, uncommitted work is dropped
  // and re-read from Kafka after the next start.
  delivery.Stop();
  maintenance_service.Stop();
  // Released only once nothing here acts on it, so another replica takes
  // over at its next attempt instead of after the TTL.
  if (lease_keeper) lease_keeper->Stop();
  // Drain both endpoints at once so the grace period is not spent twice.
  std::thread s3_stop([&] { (*s3)->Shutdown(); });
  std::thread metrics_stop([&] {
    if (metrics) metrics->Shutdown();
  });
  (*api)->Shutdown();
  s3_stop.join();
  metrics_stop.join();
  logger.Log(
      LogLevel::kInfo, "stopped",
      {{"api_requests", (*api)->requests_served()}, {"s3_requests", (*s3)->requests_served()}});
  return 0;
}

}  // namespace st::server
