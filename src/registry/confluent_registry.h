// The Confluent-compatible schema registry: subjects with numbered versions,
// each naming a schema by an integer id, per account. Served over HTTP by
// api/confluent; the delivery side resolves the ids that Confluent-framed
// Kafka records carry with LookupSchemaById.
//
// Ids are per account: an id is allocated once per distinct (schema type,
// canonical schema text, references) within an account, so registering the
// same schema under another subject returns the same id, and an account
// never sees (or can probe for) another account's ids. Canonical text: AVRO
// is the parsed schema written back compactly (avro::Schema::ToJson), JSON
// the parsed document dumped compactly, PROTOBUF the text as sent.
//
// Compatibility is enforced on registration and by TestCompatibility: for
// AVRO with the Avro schema-resolution rules (confluent_avro_compatibility.h);
// for JSON and PROTOBUF by the SchemaCompatibilityChecker the registry was
// opened with (CompatibilityCheckers): JSON Schema's lives in this module
// (confluent_json_compatibility.h), Protobuf's in decoding, adapted by the
// server, because the `.proto` parser (libprotoc) and our model of it belong
// to decoding, which this module must not include. A type without a checker
// is only syntax-checked (JSON: one JSON document; PROTOBUF: non-empty text)
// and always compatible. The checkers see each schema with its references
// resolved (RegisteredSchema), as delivery does.
//
// Errors are Confluent's: an error_code (40401 ...) and a message.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "sql/connection.h"

namespace st::registry::confluent {

// Confluent's error codes (its REST API reference).
inline constexpr int kSubjectNotFound = 40401;
inline constexpr int kVersionNotFound = 40402;
inline constexpr int kSchemaNotFound = 40403;
inline constexpr int kSubjectSoftDeleted = 40404;
inline constexpr int kSubjectNotSoftDeleted = 40405;
inline constexpr int kVersionSoftDeleted = 40406;
inline constexpr int kVersionNotSoftDeleted = 40407;
inline constexpr int kSubjectConfigNotFound = 40408;
inline constexpr int kIncompatible = 409;
inline constexpr int kInvalidSchema = 42201;
inline constexpr int kInvalidVersion = 42202;
inline constexpr int kInvalidCompatibility = 42203;
inline constexpr int kStoreError = 50001;

struct Error {
  int error_code = kStoreError;
  std::string message;
};
template <typename T>
using Outcome = tl::expected<T, Error>;

// Bounds on what a request may store (hostile input).
inline constexpr size_t kMaxSchemaBytes = 1 << 20;
inline constexpr size_t kMaxSubjectBytes = 255;
inline constexpr size_t kMaxReferences = 100;

struct Reference {
  std::string name;
  std::string subject;
  int64_t version = 0;
};

struct SchemaText {
  std::string schema_type = "AVRO";  // AVRO | JSON | PROTOBUF
  std::string schema;
  std::vector<Reference> references;
};

struct SubjectVersion {
  std::string subject;
  int64_t version = 0;
  int64_t id = 0;
  SchemaText schema;
  bool deleted = false;
};

struct SubjectVersionRef {
  std::string subject;
  int64_t version = 0;
};

struct CompatibilityResult {
  bool is_compatible = true;
  std::vector<std::string> messages;  // Why not, when not.
};

// The delivery side's view of a registered schema (the shape of
// decoding::WriterSchema, without depending on it).
struct RegisteredSchema {
  std::string schema_type;  // AVRO | JSON | PROTOBUF
  std::string schema;       // Canonical text.
  // Its references resolved transitively (each name once, dependencies
  // before the files naming them): (reference name, schema text).
  std::vector<std::pair<std::string, std::string>> references;
};

// Decides whether data written with one schema of a type can be read with
// another; the registry composes the levels (BACKWARD = the new schema reads
// the old one's data, FORWARD the other way, FULL both, *_TRANSITIVE against
// every live version). Implementations hold no state; thread-safe.
class SchemaCompatibilityChecker {
 public:
  virtual ~SchemaCompatibilityChecker() = default;
  // Why a reader using `reader` cannot read every record written with
  // `writer`: empty when it can. Each message names the rule and the place.
  // Errors: InvalidArgument when either schema (or a reference) does not
  // parse or is beyond the checker's bounds.
  virtual Result<std::vector<std::string>> ReadIncompatibilities(
      const RegisteredSchema& reader, const RegisteredSchema& writer) const = 0;
  // OK when the checker can read `schema`; else InvalidArgument saying why.
  virtual Status Validate(const RegisteredSchema& schema) const = 0;
};

// The injected checkers per schema type (AVRO's is built in). Null: that
// type is not compared.
struct CompatibilityCheckers {
  std::shared_ptr<const SchemaCompatibilityChecker> json;
  std::shared_ptr<const SchemaCompatibilityChecker> protobuf;
};

// `version`: nullopt means "latest".
// Thread-safe. Every call names the account; nothing crosses accounts.
class ConfluentRegistry {
 public:
  virtual ~ConfluentRegistry() = default;

  // Registers (or finds) `schema` under `subject`; returns its id. Errors:
  // 42201 (invalid schema; also, when it is compared with existing versions,
  // a JSON/PROTOBUF schema its checker cannot read or whose references do
  // not resolve), 409 (incompatible per the subject's level), 40401 never,
  // 50001.
  virtual Outcome<int64_t> Register(const std::string& account, const std::string& subject,
                                    const SchemaText& schema) = 0;
  virtual Outcome<std::vector<std::string>> ListSubjects(const std::string& account,
                                                         bool include_deleted) = 0;
  // 40401 when the subject has no (live, unless include_deleted) version.
  virtual Outcome<std::vector<int64_t>> ListVersions(const std::string& account,
                                                     const std::string& subject,
                                                     bool include_deleted) = 0;
  // 40401, 40402.
  virtual Outcome<SubjectVersion> GetVersion(const std::string& account, const std::string& subject,
                                             std::optional<int64_t> version,
                                             bool include_deleted) = 0;
  // The version of `subject` holding `schema`. 40401, 40403, 42201.
  virtual Outcome<SubjectVersion> Lookup(const std::string& account, const std::string& subject,
                                         const SchemaText& schema, bool include_deleted) = 0;
  // Soft (permanent=false: versions hidden, numbers kept) or hard (only after
  // soft). Returns the versions deleted. 40401, 40404 (soft twice), 40405.
  virtual Outcome<std::vector<int64_t>> DeleteSubject(const std::string& account,
                                                      const std::string& subject,
                                                      bool permanent) = 0;
  // 40401, 40402, 40406, 40407.
  virtual Outcome<int64_t> DeleteVersion(const std::string& account, const std::string& subject,
                                         std::optional<int64_t> version, bool permanent) = 0;
  // 40403.
  virtual Outcome<SchemaText> GetSchemaById(const std::string& account, int64_t id) = 0;
  // The (subject, version) pairs using `id`, live ones unless include_deleted. 40403.
  virtual Outcome<std::vector<SubjectVersionRef>> VersionsOfId(const std::string& account,
                                                               int64_t id,
                                                               bool include_deleted) = 0;
  // `subject` empty: the account's level (BACKWARD unless set). For a
  // subject: its own level, else (default_to_global) the account's, else 40408.
  virtual Outcome<std::string> GetCompatibility(const std::string& account,
                                                const std::string& subject,
                                                bool default_to_global) = 0;
  // 42203 for an unknown level.
  virtual Outcome<std::string> SetCompatibility(const std::string& account,
                                                const std::string& subject,
                                                const std::string& level) = 0;
  // Would `schema` be accepted as the next version, against `version` (or,
  // for *_TRANSITIVE levels with version nullopt, all live versions)?
  // 40401, 40402, 42201.
  virtual Outcome<CompatibilityResult> TestCompatibility(const std::string& account,
                                                         const std::string& subject,
                                                         std::optional<int64_t> version,
                                                         const SchemaText& schema) = 0;
};

// True for NONE, BACKWARD(_TRANSITIVE), FORWARD(_TRANSITIVE), FULL(_TRANSITIVE).
bool IsCompatibilityLevel(const std::string& level);

// Opens the registry on its own connection (the catalog's database, any
// backend) and creates its tables (registry_confluent_*) if missing.
Result<std::unique_ptr<ConfluentRegistry>> OpenConfluentRegistry(
    std::unique_ptr<sql::Connection> db, const Clock& clock, CompatibilityCheckers checkers = {});
// The same on the SQLite file `db_path` (normally the catalog's).
Result<std::unique_ptr<ConfluentRegistry>> OpenSqliteConfluentRegistry(
    const std::string& db_path, const Clock& clock, CompatibilityCheckers checkers = {});

// For delivery: the schema `id` of `account` with its references (by subject
// and version, -1 = latest, in the same account). Errors: NotFound (no such
// id in the account, or a reference that is not registered), Unavailable/Io
// from the store, InvalidArgument for references nested deeper than 32.
Result<RegisteredSchema> LookupSchemaById(ConfluentRegistry& registry, const std::string& account,
                                          int64_t id);

}  // namespace st::registry::confluent
