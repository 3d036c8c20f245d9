// ConfluentRegistry over one connection to the catalog database. One mutex
// serialises the connection; each write is one transaction, so a concurrent
// server process on the same database sees whole registrations only.
#include "registry/confluent_registry.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "avro/schema.h"
#include "common/json_nesting.h"
#include "common/mutex.h"
#include "registry/confluent_avro_compatibility.h"
#include "registry/confluent_references_internal.h"
#include "sql/statement.h"
#include "sql/transaction.h"
#include "sqlite/database.h"

namespace st::registry::confluent {

namespace {

using sql::Connection;
using sql::Statement;
using sql::Transaction;

// CREATE IF NOT EXISTS like the Glue tables (registry_*): the catalog's
// versioned migrations own schema_migrations, so the registry's tables are
// created idempotently at open instead. Ids are allocated per account (MAX+1
// inside the registering transaction), never reused after a hard delete.
constexpr std::string_view kCreateTables = R"sql(
CREATE TABLE IF NOT EXISTS registry_confluent_schemas (
  account_id TEXT NOT NULL,
  schema_id INTEGER NOT NULL,
  schema_type TEXT NOT NULL,
  schema_text TEXT NOT NULL,
  references_json TEXT NOT NULL,
  identity_key TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, schema_id));
CREATE INDEX IF NOT EXISTS registry_confluent_schemas_by_key
  ON registry_confluent_schemas (account_id, identity_key);
CREATE TABLE IF NOT EXISTS registry_confluent_versions (
  account_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  version INTEGER NOT NULL,
  schema_id INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, subject, version));
CREATE TABLE IF NOT EXISTS registry_confluent_config (
  account_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  compatibility TEXT NOT NULL,
  PRIMARY KEY (account_id, subject));
CREATE TABLE IF NOT EXISTS registry_confluent_id_counters (
  account_id TEXT NOT NULL PRIMARY KEY,
  last_id INTEGER NOT NULL);
)sql";

constexpr std::string_view kDefaultLevel = "BACKWARD";

Error StoreError(const Status& status) { return Error{kStoreError, status.message()}; }

#define CR_TRY(expr)                                                     \
  do {                                                                   \
    Status cr_status_ = (expr);                                          \
    if (!cr_status_.ok()) return tl::unexpected(StoreError(cr_status_)); \
  } while (0)

#define CR_ASSIGN(lhs, expr)                                               \
  auto CR_CONCAT(cr_r_, __LINE__) = (expr);                                \
  if (!CR_CONCAT(cr_r_, __LINE__).has_value())                             \
    return tl::unexpected(StoreError(CR_CONCAT(cr_r_, __LINE__).error())); \
  lhs = std::move(*CR_CONCAT(cr_r_, __LINE__))
#define CR_CONCAT_INNER(a, b) a##b
#define CR_CONCAT(a, b) CR_CONCAT_INNER(a, b)

tl::unexpected<Error> Fail(int code, std::string message) {
  return tl::unexpected(Error{code, std::move(message)});
}

tl::unexpected<Error> SubjectNotFound(const std::string& subject) {
  return Fail(kSubjectNotFound, "Subject '" + subject + "' not found.");
}
tl::unexpected<Error> VersionNotFound(std::optional<int64_t> version) {
  return Fail(
      kVersionNotFound,
      "Version " + (version ? std::to_string(*version) : std::string("latest")) + " not found.");
}

std::string ReferencesJson(const std::vector<Reference>& references) {
  nlohmann::json array = nlohmann::json::array();
  for (const Reference& ref : references) {
    array.push_back({{"name", ref.name}, {"subject", ref.subject}, {"version", ref.version}});
  }
  return array.dump();
}

std::vector<Reference> ParseReferences(const std::string& json) {
  std::vector<Reference> out;
  nlohmann::json array = nlohmann::json::parse(json, nullptr, false);
  if (!array.is_array()) return out;
  for (const nlohmann::json& item : array) {
    out.push_back(Reference{item.value("name", ""), item.value("subject", ""),
                            item.value("version", int64_t{0})});
  }
  return out;
}

// A schema as stored: canonical text, and for AVRO the parsed form used by
// compatibility checks (absent when it has references we do not resolve).
struct Canonical {
  SchemaText text;
  std::optional<avro::Schema> avro;
  std::string key;  // Type, text and references: what makes an id.
};

Outcome<Canonical> Canonicalize(const SchemaText& input) {
  Canonical out;
  out.text = input;
  if (out.text.schema_type.empty()) out.text.schema_type = "AVRO";
  const std::string& type = out.text.schema_type;
  if (type != "AVRO" && type != "JSON" && type != "PROTOBUF") {
    return Fail(kInvalidSchema, "Invalid schema: unknown schema type '" + type +
                                    "'; supported: AVRO, JSON, PROTOBUF");
  }
  if (input.schema.empty() || input.schema.size() > kMaxSchemaBytes) {
    return Fail(kInvalidSchema, "Invalid schema: the schema must be 1 to " +
                                    std::to_string(kMaxSchemaBytes) + " bytes long");
  }
  if (input.references.size() > kMaxReferences) {
    return Fail(kInvalidSchema,
                "Invalid schema: more than " + std::to_string(kMaxReferences) + " references");
  }
  for (const Reference& ref : input.references) {
    if (ref.name.empty() || ref.subject.empty() || ref.name.size() > kMaxSchemaBytes ||
        ref.subject.size() > kMaxSubjectBytes || ref.version < -1) {
      return Fail(kInvalidSchema,
                  "Invalid schema: a reference needs a name, a subject and a "
                  "version");
    }
  }
  if (type == "AVRO" || type == "JSON") {
    Status nesting = CheckJsonNesting(input.schema, "the schema");
    if (!nesting.ok()) return Fail(kInvalidSchema, "Invalid schema: " + nesting.message());
  }
  if (type == "AVRO" && input.references.empty()) {
    Result<avro::Schema> parsed = avro::Schema::Parse(input.schema);
    if (!parsed.has_value()) {
      return Fail(kInvalidSchema, "Invalid schema " + parsed.error().message());
    }
    out.text.schema = parsed->ToJson();
    out.avro = std::move(*parsed);
  } else if (type == "AVRO" || type == "JSON") {
    // AVRO with references names types of other subjects: parsed with them
    // (in the account) when registered and compared (AvroOf), JSON here.
    nlohmann::json document = nlohmann::json::parse(input.schema, nullptr, false);
    if (document.is_discarded()) {
      return Fail(kInvalidSchema, "Invalid schema: the " + type +
                                      " schema is not one JSON "
                                      "document");
    }
    out.text.schema = document.dump();
  }
  out.key = type + "\n" + ReferencesJson(out.text.references) + "\n" + out.text.schema;
  return out;
}

class SqlConfluentRegistry final : public ConfluentRegistry {
 public:
  SqlConfluentRegistry(std::unique_ptr<Connection> db, const Clock& clock,
                       CompatibilityCheckers checkers)
      : checkers_(std::move(checkers)), db_(std::move(db)), clock_(clock) {}

  Status CreateTables() {
    common::MutexLock lock(mu_);
    return db_->Exec(db_->dialect().Schema(kCreateTables));
  }

  Outcome<int64_t> Register(const std::string& account, const std::string& subject,
                            const SchemaText& schema) override {
    if (auto checked = CheckSubject(subject); !checked) return tl::unexpected(checked.error());
    Outcome<Canonical> canonical = Canonicalize(schema);
    if (!canonical) return tl::unexpected(canonical.error());
    common::MutexLock lock(mu_);
    Transaction txn(*db_);
    CR_TRY(txn.status());
    auto live = LiveVersions(account, subject);
    if (!live) return tl::unexpected(live.error());
    for (const auto& [version, id] : *live) {
      auto stored = LoadSchema(account, id);
      if (!stored) return tl::unexpected(stored.error());
      if (stored->key == canonical->key) return id;
    }
    if (canonical->text.schema_type == "AVRO" && !canonical->avro.has_value()) {
      // With references: valid only with their named types (at every level).
      Result<avro::Schema> parsed = AvroOf(account, *canonical);
      if (!parsed.has_value())
        return Fail(kInvalidSchema, "Invalid schema " + parsed.error().message());
    }
    auto level = LevelOf(account, subject, true);
    if (!level) return tl::unexpected(level.error());
    std::vector<std::pair<int64_t, Canonical>> existing;
    for (const auto& [version, id] : *live) {
      auto stored = LoadSchema(account, id);
      if (!stored) return tl::unexpected(stored.error());
      existing.emplace_back(version, std::move(*stored));
    }
    auto checked = Incompatibilities(account, *level, *canonical, existing);
    if (!checked) return tl::unexpected(checked.error());
    const std::vector<std::string>& problems = *checked;
    if (!problems.empty()) {
      std::string message =
          "Schema being registered is incompatible with an earlier schema for "
          "subject \"" +
          subject + "\", details: [";
      for (size_t i = 0; i < problems.size(); ++i) message += (i ? ", " : "") + problems[i];
      return Fail(kIncompatible, message + "]");
    }
    auto id = IdFor(account, *canonical);
    if (!id) return tl::unexpected(id.error());
    CR_ASSIGN(Statement next, db_->Prepare("SELECT COALESCE(MAX(version), 0) FROM "
                                           "registry_confluent_versions WHERE account_id = ? AND "
                                           "subject = ?"));
    next.Bind(1, account).Bind(2, subject);
    CR_ASSIGN(bool row, next.Step());
    int64_t version = row ? next.Int64(0) + 1 : 1;
    CR_ASSIGN(Statement insert,
              db_->Prepare("INSERT INTO registry_confluent_versions VALUES (?, ?, ?, ?, 0, ?)"));
    insert.Bind(1, account)
        .Bind(2, subject)
        .Bind(3, version)
        .Bind(4, *id)
        .Bind(5, clock_.NowMillis());
    CR_TRY(insert.Run());
    CR_TRY(txn.Commit());
    return *id;
  }

  Outcome<std::vector<std::string>> ListSubjects(const std::string& account,
                                                 bool include_deleted) override {
    common::MutexLock lock(mu_);
    CR_ASSIGN(Statement query,
              db_->Prepare(std::string("SELECT DISTINCT subject FROM registry_confluent_versions "
                                       "WHERE account_id = ?") +
                           (include_deleted ? "" : " AND deleted = 0") + " ORDER BY subject"));
    query.Bind(1, account);
    CR_ASSIGN(std::vector<std::string> out,
              query.ReadRows([](const Statement& row) { return row.Text(0); }));
    return out;
  }

  Outcome<std::vector<int64_t>> ListVersions(const std::string& account, const std::string& subject,
                                             bool include_deleted) override {
    common::MutexLock lock(mu_);
    auto rows = Versions(account, subject, include_deleted);
    if (!rows) return tl::unexpected(rows.error());
    if (rows->empty()) return SubjectNotFound(subject);
    std::vector<int64_t> out;
    for (const VersionRow& row : *rows) out.push_back(row.version);
    return out;
  }

  Outcome<SubjectVersion> GetVersion(const std::string& account, const std::string& subject,
                                     std::optional<int64_t> version,
                                     bool include_deleted) override {
    common::MutexLock lock(mu_);
    auto row = FindVersion(account, subject, version, include_deleted);
    if (!row) return tl::unexpected(row.error());
    return Materialize(account, subject, *row);
  }

  Outcome<SubjectVersion> Lookup(const std::string& account, const std::string& subject,
                                 const SchemaText& schema, bool include_deleted) override {
    Outcome<Canonical> canonical = Canonicalize(schema);
    common::MutexLock lock(mu_);
    auto rows = Versions(account, subject, include_deleted);
    if (!rows) return tl::unexpected(rows.error());
    if (rows->empty()) return SubjectNotFound(subject);
    if (!canonical) return tl::unexpected(canonical.error());
    for (const VersionRow& row : *rows) {
      auto stored = LoadSchema(account, row.id);
      if (!stored) return tl::unexpected(stored.error());
      if (stored->key == canonical->key) return Materialize(account, subject, row);
    }
    return Fail(kSchemaNotFound, "Schema not found");
  }

  Outcome<std::vector<int64_t>> DeleteSubject(const std::string& account,
                                              const std::string& subject, bool permanent) override {
    common::MutexLock lock(mu_);
    Transaction txn(*db_);
    CR_TRY(txn.status());
    auto all = Versions(account, subject, true);
    if (!all) return tl::unexpected(all.error());
    if (all->empty()) return SubjectNotFound(subject);
    std::vector<int64_t> out;
    bool any_live = false;
    for (const VersionRow& row : *all) any_live = any_live || !row.deleted;
    if (permanent) {
      if (any_live) {
        return Fail(
            kSubjectNotSoftDeleted,
            "Subject '" + subject + "' was not deleted first before being permanently deleted");
      }
      for (const VersionRow& row : *all) out.push_back(row.version);
      CR_ASSIGN(Statement erase, db_->Prepare("DELETE FROM registry_confluent_versions WHERE "
                                              "account_id = ? AND subject = ?"));
      erase.Bind(1, account).Bind(2, subject);
      CR_TRY(erase.Run());
      CR_ASSIGN(Statement config, db_->Prepare("DELETE FROM registry_confluent_config WHERE "
                                               "account_id = ? AND subject = ?"));
      config.Bind(1, account).Bind(2, subject);
      CR_TRY(config.Run());
    } else {
      if (!any_live) {
        return Fail(kSubjectSoftDeleted, "Subject '" + subject +
                                             "' was soft deleted.Set permanent=true to delete "
                                             "permanently");
      }
      for (const VersionRow& row : *all) {
        if (!row.deleted) out.push_back(row.version);
      }
      CR_ASSIGN(Statement soft, db_->Prepare("UPDATE registry_confluent_versions SET deleted = 1 "
                                             "WHERE account_id = ? AND subject = ?"));
      soft.Bind(1, account).Bind(2, subject);
      CR_TRY(soft.Run());
    }
    CR_TRY(txn.Commit());
    return out;
  }

  Outcome<int64_t> DeleteVersion(const std::string& account, const std::string& subject,
                                 std::optional<int64_t> version, bool permanent) override {
    common::MutexLock lock(mu_);
    Transaction txn(*db_);
    CR_TRY(txn.status());
    // A numbered version is found even when soft-deleted (to hard-delete it,
    // or to say it already was); "latest" means the latest live one.
    auto row = FindVersion(account, subject, version, version.has_value());
    if (!row) return tl::unexpected(row.error());
    std::string name = "Subject '" + subject + "' Version " + std::to_string(row->version);
    if (permanent) {
      if (!row->deleted) {
        return Fail(kVersionNotSoftDeleted,
                    name + " was not deleted first before being permanently deleted");
      }
      CR_ASSIGN(Statement erase, db_->Prepare("DELETE FROM registry_confluent_versions WHERE "
                                              "account_id = ? AND subject = ? AND version = ?"));
      erase.Bind(1, account).Bind(2, subject).Bind(3, row->version);
      CR_TRY(erase.Run());
    } else {
      if (row->deleted) {
        return Fail(kVersionSoftDeleted,
                    name + " was soft deleted.Set permanent=true to delete permanently");
      }
      CR_ASSIGN(Statement soft,
                db_->Prepare("UPDATE registry_confluent_versions SET deleted = 1 "
                             "WHERE account_id = ? AND subject = ? AND version = ?"));
      soft.Bind(1, account).Bind(2, subject).Bind(3, row->version);
      CR_TRY(soft.Run());
    }
    CR_TRY(txn.Commit());
    return row->version;
  }

  Outcome<SchemaText> GetSchemaById(const std::string& account, int64_t id) override {
    common::MutexLock lock(mu_);
    auto stored = LoadSchema(account, id);
    if (!stored) return tl::unexpected(stored.error());
    return stored->text;
  }

  Outcome<std::vector<SubjectVersionRef>> VersionsOfId(const std::string& account, int64_t id,
                                                       bool include_deleted) override {
    common::MutexLock lock(mu_);
    auto stored = LoadSchema(account, id);
    if (!stored) return tl::unexpected(stored.error());
    CR_ASSIGN(
        Statement query,
        db_->Prepare(std::string("SELECT subject, version FROM registry_confluent_versions "
                                 "WHERE account_id = ? AND schema_id = ?") +
                     (include_deleted ? "" : " AND deleted = 0") + " ORDER BY subject, version"));
    query.Bind(1, account).Bind(2, id);
    CR_ASSIGN(std::vector<SubjectVersionRef> out, query.ReadRows([](const Statement& row) {
      return SubjectVersionRef{row.Text(0), row.Int64(1)};
    }));
    return out;
  }

  Outcome<std::string> GetCompatibility(const std::string& account, const std::string& subject,
                                        bool default_to_global) override {
    common::MutexLock lock(mu_);
    if (subject.empty()) return LevelOf(account, "", true);
    auto own = StoredLevel(account, subject);
    if (!own) return tl::unexpected(own.error());
    if (own->has_value()) return **own;
    if (!default_to_global) {
      return Fail(kSubjectConfigNotFound, "Subject '" + subject +
                                              "' does not have subject-level compatibility "
                                              "configured");
    }
    return LevelOf(account, "", true);
  }

  Outcome<std::string> SetCompatibility(const std::string& account, const std::string& subject,
                                        const std::string& level) override {
    if (!IsCompatibilityLevel(level)) {
      return Fail(kInvalidCompatibility,
                  "Invalid compatibility level. Valid values are none, backward, forward, full, "
                  "backward_transitive, forward_transitive, and full_transitive");
    }
    if (subject.size() > kMaxSubjectBytes) return SubjectNotFound(subject);
    common::MutexLock lock(mu_);
    Transaction txn(*db_);
    CR_TRY(txn.status());
    CR_ASSIGN(Statement erase, db_->Prepare("DELETE FROM registry_confluent_config WHERE "
                                            "account_id = ? AND subject = ?"));
    erase.Bind(1, account).Bind(2, subject);
    CR_TRY(erase.Run());
    CR_ASSIGN(Statement insert,
              db_->Prepare("INSERT INTO registry_confluent_config VALUES (?, ?, ?)"));
    insert.Bind(1, account).Bind(2, subject).Bind(3, level);
    CR_TRY(insert.Run());
    CR_TRY(txn.Commit());
    return level;
  }

  Outcome<CompatibilityResult> TestCompatibility(const std::string& account,
                                                 const std::string& subject,
                                                 std::optional<int64_t> version,
                                                 const SchemaText& schema) override {
    Outcome<Canonical> canonical = Canonicalize(schema);
    common::MutexLock lock(mu_);
    auto live = LiveVersions(account, subject);
    if (!live) return tl::unexpected(live.error());
    if (live->empty()) return SubjectNotFound(subject);
    if (!canonical) return tl::unexpected(canonical.error());
    auto level = LevelOf(account, subject, true);
    if (!level) return tl::unexpected(level.error());
    std::vector<std::pair<int64_t, int64_t>> against;
    if (version.has_value()) {
      for (const auto& entry : *live) {
        if (entry.first == *version) against.push_back(entry);
      }
      if (against.empty()) return VersionNotFound(version);
    } else {
      against = *live;
    }
    std::vector<std::pair<int64_t, Canonical>> existing;
    for (const auto& [number, id] : against) {
      auto stored = LoadSchema(account, id);
      if (!stored) return tl::unexpected(stored.error());
      existing.emplace_back(number, std::move(*stored));
    }
    auto checked = Incompatibilities(account, *level, *canonical, existing);
    if (!checked) return tl::unexpected(checked.error());
    CompatibilityResult result;
    result.messages = std::move(*checked);
    result.is_compatible = result.messages.empty();
    return result;
  }

 private:
  struct VersionRow {
    int64_t version = 0;
    int64_t id = 0;
    bool deleted = false;
  };

  const SchemaCompatibilityChecker* CheckerFor(const std::string& schema_type) const {
    if (schema_type == "JSON") return checkers_.json.get();
    if (schema_type == "PROTOBUF") return checkers_.protobuf.get();
    return nullptr;
  }

  // `schema` with its references resolved in `account` (as LookupSchemaById).
  Result<RegisteredSchema> Resolve(const std::string& account, const SchemaText& schema)
      REQUIRES(mu_) {
    RegisteredSchema out{schema.schema_type, schema.schema, {}};
    ST_TRY(ResolveReferences(
        schema.references,
        [&](const std::string& subject, std::optional<int64_t> version) -> Outcome<SubjectVersion> {
          mu_.AssertHeld();  // Called synchronously below, under the caller's lock.
          auto row = FindVersion(account, subject, version, true);
          if (!row) return tl::unexpected(row.error());
          return Materialize(account, subject, *row);
        },
        &out));
    return out;
  }

  // An AVRO schema parsed with the named types of its references (parsed
  // once when it has none).
  Result<avro::Schema> AvroOf(const std::string& account, const Canonical& schema) REQUIRES(mu_) {
    if (schema.avro.has_value()) return *schema.avro;
    ST_ASSIGN_OR_RETURN(RegisteredSchema resolved, Resolve(account, schema.text));
    std::vector<std::string_view> referenced;
    for (const auto& [name, text] : resolved.references) referenced.push_back(text);
    return avro::Schema::Parse(resolved.schema, referenced);
  }

  // The messages for `candidate` at `level` against `existing` ((version,
  // schema), oldest first); transitive levels check all, others the latest
  // only. 42201 when `candidate` must be compared but its checker cannot
  // read it (or its references do not resolve); an existing version that
  // cannot be read is reported as a message (it blocks the level until the
  // subject is set to NONE, rather than being skipped unchecked).
  Outcome<std::vector<std::string>> Incompatibilities(
      const std::string& account, const std::string& level, const Canonical& candidate,
      const std::vector<std::pair<int64_t, Canonical>>& existing) REQUIRES(mu_) {
    std::vector<std::string> out;
    if (level == "NONE" || existing.empty()) return out;
    const bool transitive = level.ends_with("_TRANSITIVE");
    const std::string base = transitive ? level.substr(0, level.size() - 11) : level;
    const bool backward = base == "BACKWARD" || base == "FULL";
    const bool forward = base == "FORWARD" || base == "FULL";
    const SchemaCompatibilityChecker* checker = CheckerFor(candidate.text.schema_type);
    std::optional<RegisteredSchema> resolved;
    std::optional<avro::Schema> candidate_avro = candidate.avro;
    for (size_t i = transitive ? 0 : existing.size() - 1; i < existing.size(); ++i) {
      const auto& [version, old] = existing[i];
      if (old.text.schema_type != candidate.text.schema_type) {
        out.push_back("the schema type " + candidate.text.schema_type +
                      " differs from the existing " + old.text.schema_type);
        continue;
      }
      if (candidate.text.schema_type == "AVRO") {
        // With references: their named types resolved in the account.
        if (!candidate_avro.has_value()) {
          Result<avro::Schema> got = AvroOf(account, candidate);
          if (!got.has_value())
            return Fail(kInvalidSchema, "Invalid schema " + got.error().message());
          candidate_avro = std::move(*got);
        }
        Result<avro::Schema> previous = AvroOf(account, old);
        if (!previous.has_value()) {
          out.push_back("version " + std::to_string(version) +
                        " cannot be compared: " + previous.error().message());
          continue;
        }
        for (std::string& message : AvroLevelIncompatibilities(base, *candidate_avro, *previous)) {
          out.push_back(std::move(message));
        }
        continue;
      }
      if (checker == nullptr) continue;
      if (!resolved.has_value()) {
        Result<RegisteredSchema> got = Resolve(account, candidate.text);
        Status valid = got.has_value() ? checker->Validate(*got) : got.error();
        if (!valid.ok()) return Fail(kInvalidSchema, "Invalid schema: " + valid.message());
        resolved = std::move(*got);
      }
      const std::string name = "version " + std::to_string(version);
      Result<RegisteredSchema> previous = Resolve(account, old.text);
      if (!previous.has_value()) {
        out.push_back(name + " cannot be compared: " + previous.error().message());
        continue;
      }
      auto direction = [&](const RegisteredSchema& reader, const RegisteredSchema& writer,
                           const std::string& prefix) {
        Result<std::vector<std::string>> got = checker->ReadIncompatibilities(reader, writer);
        if (!got.has_value()) {
          out.push_back(name + " cannot be compared: " + got.error().message());
          return;
        }
        for (std::string& message : *got) out.push_back(prefix + message);
      };
      if (backward) {
        direction(*resolved, *previous,
                  "new schema cannot read data written with the old one (" + name + "), ");
      }
      if (forward) {
        direction(*previous, *resolved,
                  "old schema (" + name + ") cannot read data written with the new one, ");
      }
    }
    return out;
  }

  static Outcome<bool> CheckSubject(const std::string& subject) {
    if (subject.empty() || subject.size() > kMaxSubjectBytes) {
      return Fail(kInvalidSchema, "Invalid subject: a subject name is 1 to " +
                                      std::to_string(kMaxSubjectBytes) + " bytes long");
    }
    return true;
  }

  Outcome<std::vector<VersionRow>> Versions(const std::string& account, const std::string& subject,
                                            bool include_deleted) REQUIRES(mu_) {
    CR_ASSIGN(Statement query,
              db_->Prepare(std::string("SELECT version, schema_id, deleted FROM "
                                       "registry_confluent_versions WHERE account_id = ? AND "
                                       "subject = ?") +
                           (include_deleted ? "" : " AND deleted = 0") + " ORDER BY version"));
    query.Bind(1, account).Bind(2, subject);
    CR_ASSIGN(std::vector<VersionRow> out, query.ReadRows([](const Statement& row) {
      return VersionRow{row.Int64(0), row.Int64(1), row.Int64(2) != 0};
    }));
    return out;
  }

  // (version, id) of the live versions, oldest first.
  Outcome<std::vector<std::pair<int64_t, int64_t>>> LiveVersions(const std::string& account,
                                                                 const std::string& subject)
      REQUIRES(mu_) {
    auto rows = Versions(account, subject, false);
    if (!rows) return tl::unexpected(rows.error());
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const VersionRow& row : *rows) out.emplace_back(row.version, row.id);
    return out;
  }

  Outcome<VersionRow> FindVersion(const std::string& account, const std::string& subject,
                                  std::optional<int64_t> version, bool include_deleted)
      REQUIRES(mu_) {
    auto all = Versions(account, subject, true);
    if (!all) return tl::unexpected(all.error());
    bool any_live = false;
    for (const VersionRow& row : *all) any_live = any_live || !row.deleted;
    if (all->empty() || (!any_live && !include_deleted)) return SubjectNotFound(subject);
    const VersionRow* found = nullptr;
    for (const VersionRow& row : *all) {
      if (row.deleted && !include_deleted) continue;
      if (!version.has_value() || row.version == *version) found = &row;
    }
    if (found == nullptr) return VersionNotFound(version);
    return *found;
  }

  Outcome<SubjectVersion> Materialize(const std::string& account, const std::string& subject,
                                      const VersionRow& row) REQUIRES(mu_) {
    auto stored = LoadSchema(account, row.id);
    if (!stored) return tl::unexpected(stored.error());
    return SubjectVersion{subject, row.version, row.id, stored->text, row.deleted};
  }

  Outcome<Canonical> LoadSchema(const std::string& account, int64_t id) REQUIRES(mu_) {
    CR_ASSIGN(Statement query,
              db_->Prepare("SELECT schema_type, schema_text, references_json, identity_key FROM "
                           "registry_confluent_schemas WHERE account_id = ? AND schema_id = ?"));
    query.Bind(1, account).Bind(2, id);
    CR_ASSIGN(bool row, query.Step());
    if (!row) return Fail(kSchemaNotFound, "Schema " + std::to_string(id) + " not found");
    Canonical out;
    out.text.schema_type = query.Text(0);
    out.text.schema = query.Text(1);
    out.text.references = ParseReferences(query.Text(2));
    out.key = query.Text(3);
    if (out.text.schema_type == "AVRO" && out.text.references.empty()) {
      Result<avro::Schema> parsed = avro::Schema::Parse(out.text.schema);
      if (parsed.has_value()) out.avro = std::move(*parsed);
    }
    return out;
  }

  Outcome<int64_t> IdFor(const std::string& account, const Canonical& schema) REQUIRES(mu_) {
    CR_ASSIGN(Statement find, db_->Prepare("SELECT schema_id FROM registry_confluent_schemas "
                                           "WHERE account_id = ? AND identity_key = ? LIMIT 1"));
    find.Bind(1, account).Bind(2, schema.key);
    CR_ASSIGN(bool found, find.Step());
    if (found) return find.Int64(0);
    CR_ASSIGN(Statement counter, db_->Prepare("SELECT last_id FROM registry_confluent_id_counters "
                                              "WHERE account_id = ?"));
    counter.Bind(1, account);
    CR_ASSIGN(bool has_counter, counter.Step());
    int64_t id = has_counter ? counter.Int64(0) + 1 : 1;
    CR_ASSIGN(Statement bump,
              db_->Prepare(has_counter ? "UPDATE registry_confluent_id_counters SET last_id = ? "
                                         "WHERE account_id = ?"
                                       : "INSERT INTO registry_confluent_id_counters (last_id, "
                                         "account_id) VALUES (?, ?)"));
    bump.Bind(1, id).Bind(2, account);
    CR_TRY(bump.Run());
    CR_ASSIGN(Statement insert,
              db_->Prepare("INSERT INTO registry_confluent_schemas VALUES (?, ?, ?, ?, ?, ?, ?)"));
    insert.Bind(1, account)
        .Bind(2, id)
        .Bind(3, schema.text.schema_type)
        .Bind(4, schema.text.schema)
        .Bind(5, ReferencesJson(schema.text.references))
        .Bind(6, schema.key)
        .Bind(7, clock_.NowMillis());
    CR_TRY(insert.Run());
    return id;
  }

  Outcome<std::optional<std::string>> StoredLevel(const std::string& account,
                                                  const std::string& subject) REQUIRES(mu_) {
    CR_ASSIGN(Statement query, db_->Prepare("SELECT compatibility FROM registry_confluent_config "
                                            "WHERE account_id = ? AND subject = ?"));
    query.Bind(1, account).Bind(2, subject);
    CR_ASSIGN(bool row, query.Step());
    if (!row) return std::optional<std::string>();
    return std::optional<std::string>(query.Text(0));
  }

  // The subject's level, else the account's, else BACKWARD.
  Outcome<std::string> LevelOf(const std::string& account, const std::string& subject,
                               bool fall_back) REQUIRES(mu_) {
    if (!subject.empty()) {
      auto own = StoredLevel(account, subject);
      if (!own) return tl::unexpected(own.error());
      if (own->has_value() || !fall_back) return own->value_or(std::string(kDefaultLevel));
    }
    auto global = StoredLevel(account, "");
    if (!global) return tl::unexpected(global.error());
    return global->value_or(std::string(kDefaultLevel));
  }

  const CompatibilityCheckers checkers_;
  common::Mutex mu_;
  std::unique_ptr<Connection> db_ PT_GUARDED_BY(mu_);
  const Clock& clock_;
};

}  // namespace

bool IsCompatibilityLevel(const std::string& level) {
  for (const char* known : {"NONE", "BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD",
                            "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE"}) {
    if (level == known) return true;
  }
  return false;
}

Result<std::unique_ptr<ConfluentRegistry>> OpenConfluentRegistry(
    std::unique_ptr<sql::Connection> db, const Clock& clock, CompatibilityCheckers checkers) {
  auto registry = std::make_unique<SqlConfluentRegistry>(std::move(db), clock, std::move(checkers));
  ST_TRY(registry->CreateTables());
  return std::unique_ptr<ConfluentRegistry>(std::move(registry));
}

Result<std::unique_ptr<ConfluentRegistry>> OpenSqliteConfluentRegistry(
    const std::string& db_path, const Clock& clock, CompatibilityCheckers checkers) {
  sqlite::OpenOptions options;
  options.path = db_path;
  options.label = "confluent schema registry database";
  options.busy_timeout = std::chrono::milliseconds(5000);
  ST_ASSIGN_OR_RETURN(std::unique_ptr<sqlite::Database> db, sqlite::Database::Open(options));
  return OpenConfluentRegistry(std::move(db), clock, std::move(checkers));
}

Result<RegisteredSchema> LookupSchemaById(ConfluentRegistry& registry, const std::string& account,
                                          int64_t id) {
  Outcome<SchemaText> found = registry.GetSchemaById(account, id);
  if (!found) {
    StatusCode code = found.error().error_code == kSchemaNotFound ? StatusCode::kNotFound
                                                                  : StatusCode::kUnavailable;
    return Err(Status(code, found.error().message));
  }
  RegisteredSchema out{found->schema_type, found->schema, {}};
  ST_TRY(ResolveReferences(
      found->references,
      [&](const std::string& subject, std::optional<int64_t> version) {
        return registry.GetVersion(account, subject, version, true);
      },
      &out));
  return out;
}

}  // namespace st::registry::confluent
