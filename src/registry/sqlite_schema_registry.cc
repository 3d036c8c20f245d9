// SchemaRegistry over its own SQLite connection to the catalog database file.
// One mutex serialises this connection; other connections (the catalog's)
// coordinate with it through SQLite's locking and the busy timeout.

#include "avro/schema.h"
#include "common/mutex.h"
#include "common/uuid.h"
#include "registry/confluent_avro_compatibility.h"
#include "registry/definition_key_internal.h"
#include "registry/glue_arns.h"
#include "registry/schema_registry.h"
#include "registry/sqlite_registry_tables_internal.h"
#include "sql/connection.h"
#include "sql/statement.h"
#include "sql/transaction.h"
#include "sqlite/database.h"

namespace st::registry {

namespace {

using sql::Connection;
using sql::Statement;
using sql::Transaction;

constexpr size_t kMaxDefinitionBytes = 170000;
constexpr size_t kMaxDescriptionBytes = 2048;

constexpr std::string_view kSchemaColumns =
    "s.account_id, s.registry_name, s.schema_name, s.data_format, s.compatibility, "
    "s.description, s.created_at_ms, s.updated_at_ms, "
    "(SELECT COALESCE(MAX(v.version_number), 0) FROM registry_schema_versions v "
    " WHERE v.account_id = s.account_id AND v.registry_name = s.registry_name "
    " AND v.schema_name = s.schema_name)";

constexpr std::string_view kVersionColumns =
    "v.schema_version_id, v.account_id, v.registry_name, v.schema_name, v.version_number, "
    "v.definition, v.created_at_ms, s.data_format";

constexpr std::string_view kVersionJoin =
    " FROM registry_schema_versions v JOIN registry_schemas s ON s.account_id = v.account_id "
    "AND s.registry_name = v.registry_name AND s.schema_name = v.schema_name ";

catalog::TimePoint FromMillis(int64_t ms) {
  return catalog::TimePoint(std::chrono::milliseconds(ms));
}

bool IsKnownCompatibility(const std::string& value) {
  for (const char* known : {"NONE", "DISABLED", "BACKWARD", "BACKWARD_ALL", "FORWARD",
                            "FORWARD_ALL", "FULL", "FULL_ALL"}) {
    if (value == known) return true;
  }
  return false;
}

Status SchemaNotFound() { return NotFound(std::string(kSchemaNotFoundMessage)); }
Status VersionNotFound() { return NotFound(std::string(kSchemaVersionNotFoundMessage)); }

std::string RegistryOf(const SchemaRef& ref) {
  return ref.registry_name.empty() ? std::string(kDefaultRegistryName) : ref.registry_name;
}

Status ValidateRef(const SchemaRef& ref) {
  ST_TRY(ValidateGlueName("registry name", RegistryOf(ref)));
  return ValidateGlueName("schema name", ref.schema_name);
}

Status ValidateDefinition(const std::string& definition) {
  if (definition.empty() || definition.size() > kMaxDefinitionBytes) {
    return InvalidArgument("SchemaDefinition must be 1 to 170000 bytes long; it is " +
                           std::to_string(definition.size()));
  }
  return Status::OK();
}

// The injected check of a definition (a .proto), worded as DefinitionKey's
// own refusals.
Status ValidateWith(const DefinitionValidator& validate, const std::string& data_format,
                    const std::string& definition) {
  if (!validate) return Status::OK();
  Status status = validate(data_format, definition);
  if (status.ok()) return status;
  return InvalidArgument("Schema definition of " + data_format +
                         " data format is invalid: " + status.message());
}

// Why `candidate` cannot follow `existing` at `level` (BACKWARD: the
// candidate reads the existing version's data; FORWARD: the reverse; FULL:
// both); empty when it can. AVRO by schema resolution; JSON and PROTOBUF by
// the checker (null: not compared; GSR definitions have no references).
Result<std::vector<std::string>> LevelIncompatibilities(
    const confluent::CompatibilityCheckers& checkers, const std::string& data_format,
    const std::string& level, const std::string& candidate, const std::string& existing) {
  if (data_format == "AVRO") {
    Result<avro::Schema> new_schema = avro::Schema::Parse(candidate);
    Result<avro::Schema> old_schema = avro::Schema::Parse(existing);
    if (!new_schema.has_value()) return Err(new_schema.error());
    if (!old_schema.has_value()) return Err(old_schema.error());
    return confluent::AvroLevelIncompatibilities(level, *new_schema, *old_schema);
  }
  const confluent::SchemaCompatibilityChecker* checker = data_format == "JSON" ? checkers.json.get()
                                                         : data_format == "PROTOBUF"
                                                             ? checkers.protobuf.get()
                                                             : nullptr;
  std::vector<std::string> why;
  if (checker == nullptr) return why;
  const confluent::RegisteredSchema new_schema{data_format, candidate, {}};
  const confluent::RegisteredSchema old_schema{data_format, existing, {}};
  if (level != "FORWARD") {
    ST_ASSIGN_OR_RETURN(why, checker->ReadIncompatibilities(new_schema, old_schema));
  }
  if (level != "BACKWARD") {
    ST_ASSIGN_OR_RETURN(std::vector<std::string> more,
                        checker->ReadIncompatibilities(old_schema, new_schema));
    why.insert(why.end(), more.begin(), more.end());
  }
  return why;
}

class SqliteSchemaRegistry final : public SchemaRegistry {
 public:
  SqliteSchemaRegistry(std::unique_ptr<Connection> db, std::string region, const Clock& clock,
                       Random& random, GlueFormatSupport formats)
      : db_(std::move(db)),
        region_(std::move(region)),
        clock_(clock),
        random_(random),
        validate_(std::move(formats.validate)),
        checkers_(std::move(formats.checkers)) {}

  Result<RegistryInfo> CreateRegistry(const std::string& account_id,
                                      const std::string& registry_name,
                                      const std::string& description) override {
    ST_TRY(ValidateGlueName("registry name", registry_name));
    if (description.size() > kMaxDescriptionBytes) {
      return Err(InvalidArgument("Description of registry '" + registry_name +
                                 "' is longer than 2048 bytes"));
    }
    common::MutexLock lock(mu_);
    int64_t now = clock_.NowMillis();
    ST_ASSIGN_OR_RETURN(Statement insert,
                        db_->Prepare("INSERT INTO registry_registries VALUES (?, ?, ?, ?, ?)"));
    insert.Bind(1, account_id)
        .Bind(2, registry_name)
        .Bind(3, description)
        .Bind(4, now)
        .Bind(5, now);
    Status inserted = insert.Run();
    if (inserted.code() == StatusCode::kAlreadyExists) {
      return Err(AlreadyExists("Registry already exists: '" + registry_name + "' in account " +
                               account_id));
    }
    ST_TRY(inserted);
    return LoadRegistry(account_id, registry_name);
  }

  Result<RegistryInfo> GetRegistry(const std::string& account_id,
                                   const std::string& registry_name) override {
    ST_TRY(ValidateGlueName("registry name", registry_name));
    common::MutexLock lock(mu_);
    if (registry_name == kDefaultRegistryName) ST_TRY(EnsureDefaultRegistry(account_id));
    return LoadRegistry(account_id, registry_name);
  }

  Result<std::vector<RegistryInfo>> ListRegistries(const std::string& account_id) override {
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(Statement query,
                        db_->Prepare("SELECT registry_name, description, created_at_ms, "
                                     "updated_at_ms FROM registry_registries WHERE account_id = ? "
                                     "ORDER BY registry_name"));
    query.Bind(1, account_id);
    return query.ReadRows([&](const Statement& row) { return RegistryRow(account_id, row); });
  }

  Result<CreatedSchema> CreateSchema(const NewSchema& request) override {
    const SchemaRef& ref = request.schema;
    ST_TRY(ValidateRef(ref));
    if (request.data_format != "JSON" && request.data_format != "AVRO" &&
        request.data_format != "PROTOBUF") {
      return Err(InvalidArgument("DataFormat '" + request.data_format +
                                 "' is not supported; use JSON, AVRO or PROTOBUF"));
    }
    if (!IsKnownCompatibility(request.compatibility)) {
      return Err(InvalidArgument("Compatibility '" + request.compatibility +
                                 "' is not one of NONE, DISABLED, BACKWARD, BACKWARD_ALL, "
                                 "FORWARD, FORWARD_ALL, FULL, FULL_ALL"));
    }
    if (request.description.size() > kMaxDescriptionBytes) {
      return Err(InvalidArgument("Description of schema '" + ref.schema_name +
                                 "' is longer than 2048 bytes"));
    }
    std::string key;
    if (request.definition.has_value()) {
      ST_TRY(ValidateDefinition(*request.definition));
      ST_ASSIGN_OR_RETURN(key, internal::DefinitionKey(request.data_format, *request.definition));
      ST_TRY(Validate(request.data_format, *request.definition));
    }
    const std::string registry = RegistryOf(ref);

    common::MutexLock lock(mu_);
    Transaction transaction(*db_);
    ST_TRY(transaction.status());
    if (registry == kDefaultRegistryName) ST_TRY(EnsureDefaultRegistry(ref.account_id));
    ST_TRY(LoadRegistry(ref.account_id, registry));
    int64_t now = clock_.NowMillis();
    ST_ASSIGN_OR_RETURN(
        Statement insert,
        db_->Prepare("INSERT INTO registry_schemas VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    insert.Bind(1, ref.account_id)
        .Bind(2, registry)
        .Bind(3, ref.schema_name)
        .Bind(4, request.data_format)
        .Bind(5, request.compatibility)
        .Bind(6, request.description)
        .Bind(7, now)
        .Bind(8, now);
    Status inserted = insert.Run();
    if (inserted.code() == StatusCode::kAlreadyExists) {
      return Err(AlreadyExists("Schema already exists: '" + ref.schema_name + "' in registry '" +
                               registry + "'"));
    }
    ST_TRY(inserted);
    CreatedSchema created;
    if (request.definition.has_value()) {
      ST_ASSIGN_OR_RETURN(std::string id, InsertVersion(ref.account_id, registry, ref.schema_name,
                                                        1, *request.definition, key, now));
      (void)id;
    }
    ST_TRY(transaction.Commit());
    SchemaRef stored{ref.account_id, registry, ref.schema_name};
    ST_ASSIGN_OR_RETURN(created.schema, LoadSchema(stored));
    if (request.definition.has_value()) {
      ST_ASSIGN_OR_RETURN(created.first_version, LoadVersionByNumber(stored, 1));
    }
    return created;
  }

  Result<SchemaInfo> GetSchema(const SchemaRef& ref) override {
    ST_TRY(ValidateRef(ref));
    common::MutexLock lock(mu_);
    return LoadSchema(ref);
  }

  Result<std::vector<SchemaInfo>> ListSchemas(const std::string& account_id,
                                              const std::string& registry_name) override {
    common::MutexLock lock(mu_);
    if (!registry_name.empty()) {
      if (registry_name == kDefaultRegistryName) ST_TRY(EnsureDefaultRegistry(account_id));
      ST_TRY(LoadRegistry(account_id, registry_name));
    }
    ST_ASSIGN_OR_RETURN(Statement query,
                        db_->Prepare("SELECT " + std::string(kSchemaColumns) +
                                     " FROM registry_schemas s WHERE s.account_id = ? AND "
                                     "(? = '' OR s.registry_name = ?) "
                                     "ORDER BY s.registry_name, s.schema_name"));
    query.Bind(1, account_id).Bind(2, registry_name).Bind(3, registry_name);
    return query.ReadRows([this](const Statement& row) { return SchemaRow(row); });
  }

  Result<SchemaVersion> RegisterSchemaVersion(const SchemaRef& ref,
                                              const std::string& definition) override {
    ST_TRY(ValidateRef(ref));
    ST_TRY(ValidateDefinition(definition));
    common::MutexLock lock(mu_);
    Transaction transaction(*db_);
    ST_TRY(transaction.status());
    ST_ASSIGN_OR_RETURN(SchemaInfo schema, LoadSchema(ref));
    ST_ASSIGN_OR_RETURN(std::string key, internal::DefinitionKey(schema.data_format, definition));
    ST_TRY(Validate(schema.data_format, definition));
    SchemaRef stored{schema.account_id, schema.registry_name, schema.schema_name};
    Result<SchemaVersion> existing = LoadVersionByKey(stored, key);
    if (existing.has_value() || existing.error().code() != StatusCode::kNotFound) return existing;
    ST_TRY(CheckCompatibility(schema, stored, definition));
    ST_ASSIGN_OR_RETURN(std::string id, InsertVersion(schema.account_id, schema.registry_name,
                                                      schema.schema_name, schema.latest_version + 1,
                                                      definition, key, clock_.NowMillis()));
    ST_TRY(transaction.Commit());
    return LoadVersionById(id);
  }

  Result<SchemaVersion> GetSchemaVersionById(const std::string& schema_version_id) override {
    Result<Uuid> parsed = Uuid::Parse(schema_version_id);
    if (!parsed.has_value()) {
      return Err(InvalidArgument("SchemaVersionId '" + schema_version_id +
                                 "' is not a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)"));
    }
    common::MutexLock lock(mu_);
    return LoadVersionById(parsed->ToString());
  }

  Result<SchemaVersion> GetSchemaVersion(const SchemaRef& ref,
                                         std::optional<int64_t> version_number) override {
    ST_TRY(ValidateRef(ref));
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(SchemaInfo schema, LoadSchema(ref));
    int64_t number = version_number.value_or(schema.latest_version);
    if (number < 1) return Err(VersionNotFound());
    return LoadVersionByNumber({schema.account_id, schema.registry_name, schema.schema_name},
                               number);
  }

  Result<SchemaVersion> GetLatestSchemaVersion(const std::string& schema_arn) override {
    ST_ASSIGN_OR_RETURN(GlueArnParts parts, ParseSchemaArn(schema_arn));
    if (parts.region != region_) return Err(SchemaNotFound());
    return GetSchemaVersion({parts.account_id, parts.registry_name, parts.schema_name},
                            std::nullopt);
  }

  Result<SchemaVersion> GetSchemaByDefinition(const SchemaRef& ref,
                                              const std::string& definition) override {
    ST_TRY(ValidateRef(ref));
    ST_TRY(ValidateDefinition(definition));
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(SchemaInfo schema, LoadSchema(ref));
    ST_ASSIGN_OR_RETURN(std::string key, internal::DefinitionKey(schema.data_format, definition));
    return LoadVersionByKey({schema.account_id, schema.registry_name, schema.schema_name}, key);
  }

  Result<SchemaVersionPage> ListSchemaVersions(const SchemaRef& ref, const std::string& page_token,
                                               int max_results) override {
    ST_TRY(ValidateRef(ref));
    if (max_results < 1 || max_results > 100) {
      return Err(InvalidArgument("MaxResults must be between 1 and 100; got " +
                                 std::to_string(max_results)));
    }
    int64_t after = 0;
    if (!page_token.empty()) {
      bool digits = page_token.size() <= 18;
      for (char c : page_token) digits = digits && c >= '0' && c <= '9';
      if (!digits) {
        return Err(InvalidArgument("NextToken '" + page_token +
                                   "' was not returned by ListSchemaVersions; start without it"));
      }
      after = std::stoll(page_token);
    }
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(SchemaInfo schema, LoadSchema(ref));
    ST_ASSIGN_OR_RETURN(
        Statement query,
        db_->Prepare("SELECT " + std::string(kVersionColumns) + std::string(kVersionJoin) +
                     "WHERE v.account_id = ? AND v.registry_name = ? AND v.schema_name = ? AND "
                     "v.version_number > ? ORDER BY v.version_number LIMIT ?"));
    query.Bind(1, schema.account_id)
        .Bind(2, schema.registry_name)
        .Bind(3, schema.schema_name)
        .Bind(4, after)
        .Bind(5, static_cast<int64_t>(max_results) + 1);
    SchemaVersionPage page;
    ST_ASSIGN_OR_RETURN(page.versions,
                        query.ReadRows([this](const Statement& row) { return VersionRow(row); }));
    // The extra row asked for only says that another page follows.
    if (static_cast<int>(page.versions.size()) > max_results) {
      page.versions.resize(static_cast<size_t>(max_results));
      page.next_token = std::to_string(page.versions.back().version_number);
    }
    return page;
  }

  Status Validate(const std::string& data_format, const std::string& definition) const {
    return ValidateWith(validate_, data_format, definition);
  }

  Status CreateTables() EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    return internal::CreateRegistryTables(*db_);
  }

 private:
  // Callers hold mu_.
  // OK when `definition` may become the next version of `schema` under its
  // compatibility mode (SchemaRegistry::RegisterSchemaVersion).
  Status CheckCompatibility(const SchemaInfo& schema, const SchemaRef& stored,
                            const std::string& definition) REQUIRES(mu_) {
    const std::string& mode = schema.compatibility;
    if (mode == "NONE" || schema.latest_version < 1) return Status::OK();
    if (mode == "DISABLED") {
      return InvalidArgument("Schema '" + schema.schema_name +
                             "' has compatibility DISABLED: it takes no new versions; change its "
                             "compatibility to register one");
    }
    const bool all = mode.ends_with("_ALL");
    const std::string level = all ? mode.substr(0, mode.size() - 4) : mode;
    for (int64_t n = all ? 1 : schema.latest_version; n <= schema.latest_version; ++n) {
      ST_ASSIGN_OR_RETURN(SchemaVersion old, LoadVersionByNumber(stored, n));
      Result<std::vector<std::string>> why =
          LevelIncompatibilities(checkers_, schema.data_format, level, definition, old.definition);
      if (!why.has_value()) {
        return InvalidArgument("Schema definition of " + schema.data_format +
                               " data format cannot be compared with version " + std::to_string(n) +
                               ": " + why.error().message());
      }
      if (!why->empty()) {
        return InvalidArgument("Schema definition is not compatible with version " +
                               std::to_string(n) + " of schema '" + schema.schema_name +
                               "' under compatibility " + mode + ": " + why->front());
      }
    }
    return Status::OK();
  }

  Status EnsureDefaultRegistry(const std::string& account_id) REQUIRES(mu_) {
    int64_t now = clock_.NowMillis();
    ST_ASSIGN_OR_RETURN(
        Statement insert,
        db_->Prepare(
            "INSERT INTO registry_registries VALUES (?, ?, '', ?, ?) ON CONFLICT DO NOTHING"));
    insert.Bind(1, account_id).Bind(2, kDefaultRegistryName).Bind(3, now).Bind(4, now);
    return insert.Run();
  }

  RegistryInfo RegistryRow(const std::string& account_id, const Statement& row) const {
    RegistryInfo info;
    info.account_id = account_id;
    info.registry_name = row.Text(0);
    info.registry_arn = RegistryArn(region_, account_id, info.registry_name);
    info.description = row.Text(1);
    info.status = "AVAILABLE";
    info.created_at = FromMillis(row.Int64(2));
    info.updated_at = FromMillis(row.Int64(3));
    return info;
  }

  Result<RegistryInfo> LoadRegistry(const std::string& account_id, const std::string& registry_name)
      REQUIRES(mu_) {
    ST_ASSIGN_OR_RETURN(Statement query,
                        db_->Prepare("SELECT registry_name, description, created_at_ms, "
                                     "updated_at_ms FROM registry_registries WHERE account_id = ? "
                                     "AND registry_name = ?"));
    query.Bind(1, account_id).Bind(2, registry_name);
    ST_ASSIGN_OR_RETURN(bool row, query.Step());
    if (!row) {
      return Err(NotFound("Registry is not found: '" + registry_name + "' in account " +
                          account_id + "; create it with CreateRegistry"));
    }
    return RegistryRow(account_id, query);
  }

  SchemaInfo SchemaRow(const Statement& row) const {
    SchemaInfo info;
    info.account_id = row.Text(0);
    info.registry_name = row.Text(1);
    info.schema_name = row.Text(2);
    info.registry_arn = RegistryArn(region_, info.account_id, info.registry_name);
    info.schema_arn = SchemaArn(region_, info.account_id, info.registry_name, info.schema_name);
    info.data_format = row.Text(3);
    info.compatibility = row.Text(4);
    info.description = row.Text(5);
    info.status = "AVAILABLE";
    info.created_at = FromMillis(row.Int64(6));
    info.updated_at = FromMillis(row.Int64(7));
    info.latest_version = row.Int64(8);
    return info;
  }

  Result<SchemaInfo> LoadSchema(const SchemaRef& ref) REQUIRES(mu_) {
    ST_ASSIGN_OR_RETURN(Statement query,
                        db_->Prepare("SELECT " + std::string(kSchemaColumns) +
                                     " FROM registry_schemas s WHERE s.account_id = ? AND "
                                     "s.registry_name = ? AND s.schema_name = ?"));
    query.Bind(1, ref.account_id).Bind(2, RegistryOf(ref)).Bind(3, ref.schema_name);
    ST_ASSIGN_OR_RETURN(bool row, query.Step());
    if (!row) return Err(SchemaNotFound());
    return SchemaRow(query);
  }

  SchemaVersion VersionRow(const Statement& row) const {
    SchemaVersion version;
    version.schema_version_id = row.Text(0);
    version.account_id = row.Text(1);
    version.registry_name = row.Text(2);
    version.schema_name = row.Text(3);
    version.schema_arn =
        SchemaArn(region_, version.account_id, version.registry_name, version.schema_name);
    version.version_number = row.Int64(4);
    version.definition = row.Text(5);
    version.created_at = FromMillis(row.Int64(6));
    version.data_format = row.Text(7);
    version.status = "AVAILABLE";
    return version;
  }

  Result<SchemaVersion> LoadVersionWhere(const std::string& where,
                                         const std::vector<std::string>& texts,
                                         std::optional<int64_t> number) REQUIRES(mu_) {
    ST_ASSIGN_OR_RETURN(Statement query,
                        db_->Prepare("SELECT " + std::string(kVersionColumns) +
                                     std::string(kVersionJoin) + "WHERE " + where));
    int index = 1;
    for (const std::string& text : texts) query.Bind(index++, text);
    if (number.has_value()) query.Bind(index, *number);
    ST_ASSIGN_OR_RETURN(bool row, query.Step());
    if (!row) return Err(VersionNotFound());
    return VersionRow(query);
  }

  Result<SchemaVersion> LoadVersionById(const std::string& id) REQUIRES(mu_) {
    return LoadVersionWhere("v.schema_version_id = ?", {id}, std::nullopt);
  }

  Result<SchemaVersion> LoadVersionByNumber(const SchemaRef& ref, int64_t number) REQUIRES(mu_) {
    return LoadVersionWhere(
        "v.account_id = ? AND v.registry_name = ? AND v.schema_name = ? AND v.version_number = ?",
        {ref.account_id, RegistryOf(ref), ref.schema_name}, number);
  }

  Result<SchemaVersion> LoadVersionByKey(const SchemaRef& ref, const std::string& key)
      REQUIRES(mu_) {
    return LoadVersionWhere(
        "v.account_id = ? AND v.registry_name = ? AND v.schema_name = ? AND v.definition_key = ? "
        "ORDER BY v.version_number LIMIT 1",
        {ref.account_id, RegistryOf(ref), ref.schema_name, key}, std::nullopt);
  }

  Result<std::string> InsertVersion(const std::string& account_id, const std::string& registry,
                                    const std::string& schema, int64_t number,
                                    const std::string& definition, const std::string& key,
                                    int64_t now) REQUIRES(mu_) {
    std::string id = Uuid::Generate(random_).ToString();
    ST_ASSIGN_OR_RETURN(
        Statement insert,
        db_->Prepare("INSERT INTO registry_schema_versions VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    insert.Bind(1, id)
        .Bind(2, account_id)
        .Bind(3, registry)
        .Bind(4, schema)
        .Bind(5, number)
        .Bind(6, definition)
        .Bind(7, key)
        .Bind(8, now);
    ST_TRY(insert.Run());
    return id;
  }

  common::Mutex mu_;
  std::unique_ptr<Connection> db_ PT_GUARDED_BY(mu_);  // One connection: statements take turns.
  const std::string region_;
  const Clock& clock_;
  Random& random_;
  const DefinitionValidator validate_;
  const confluent::CompatibilityCheckers checkers_;
};

}  // namespace

Result<std::unique_ptr<SchemaRegistry>> OpenSqliteSchemaRegistry(const std::string& db_path,
                                                                 const std::string& region,
                                                                 const Clock& clock, Random& random,
                                                                 GlueFormatSupport formats) {
  sqlite::OpenOptions options;
  options.path = db_path;
  options.label = "schema registry database";
  // Like the catalog's default: registry writes are short.
  options.busy_timeout = std::chrono::milliseconds(5000);
  ST_ASSIGN_OR_RETURN(std::unique_ptr<sqlite::Database> db, sqlite::Database::Open(options));
  return OpenSchemaRegistry(std::move(db), region, clock, random, std::move(formats));
}

Result<std::unique_ptr<SchemaRegistry>> OpenSchemaRegistry(std::unique_ptr<sql::Connection> db,
                                                           const std::string& region,
                                                           const Clock& clock, Random& random,
                                                           GlueFormatSupport formats) {
  auto registry = std::make_unique<SqliteSchemaRegistry>(std::move(db), region, clock, random,
                                                         std::move(formats));
  ST_TRY(registry->CreateTables());
  return std::unique_ptr<SchemaRegistry>(std::move(registry));
}

}  // namespace st::registry
