// The embedded schema registry: the subset of the AWS Glue Schema Registry
// (docs/msk-channel-api-notes.md §14) that GSR producers and JSON_SCHEMA_GSR channels
// need. Registries and schemas belong to an account; schema versions are
// numbered from 1 and carry a lower-case UUID id that GSR-framed Kafka
// records embed (§13).
//
// Every version is AVAILABLE as soon as it is registered: compatibility modes
// are stored and reported but not enforced. A definition is compared as a
// parsed JSON document (whitespace and object-member order do not matter)
// for the JSON and AVRO data formats, and byte for byte for PROTOBUF (whose
// definitions the opener's DefinitionValidator checks as .proto files).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/records.h"
#include "common/clock.h"
#include "common/random.h"
#include "common/status.h"
#include "registry/confluent_registry.h"
#include "sql/connection.h"

namespace st::registry {

// The registry a schema lands in when the caller names none; created on first use.
inline constexpr std::string_view kDefaultRegistryName = "default-registry";

// GetSchemaByDefinition's NotFound messages. GSR clients (Java and Python)
// string-match them to choose between RegisterSchemaVersion and CreateSchema,
// so they must stay exactly so.
inline constexpr std::string_view kSchemaNotFoundMessage = "Schema is not found.";
inline constexpr std::string_view kSchemaVersionNotFoundMessage = "Schema version is not found.";

struct RegistryInfo {
  std::string account_id;
  std::string registry_name;
  std::string registry_arn;  // arn:aws:glue:<region>:<account>:registry/<name>
  std::string description;
  std::string status;  // Always "AVAILABLE".
  catalog::TimePoint created_at;
  catalog::TimePoint updated_at;
};

struct SchemaInfo {
  std::string account_id;
  std::string registry_name;
  std::string registry_arn;
  std::string schema_name;
  std::string schema_arn;     // arn:aws:glue:<region>:<account>:schema/<registry>/<schema>
  std::string data_format;    // JSON | AVRO | PROTOBUF
  std::string compatibility;  // NONE | DISABLED | BACKWARD | ... (RegisterSchemaVersion)
  std::string description;
  std::string status;          // Always "AVAILABLE".
  int64_t latest_version = 0;  // 0 while the schema has no version.
  catalog::TimePoint created_at;
  catalog::TimePoint updated_at;
};

struct SchemaVersion {
  std::string schema_version_id;  // Lower-case UUID.
  std::string account_id;
  std::string schema_arn;
  std::string registry_name;
  std::string schema_name;
  int64_t version_number = 0;  // From 1.
  std::string data_format;     // JSON | AVRO | PROTOBUF
  std::string definition;      // As first registered.
  std::string status;          // Always "AVAILABLE".
  catalog::TimePoint created_at;
};

// Names one schema. An empty registry_name means kDefaultRegistryName.
struct SchemaRef {
  std::string account_id;
  std::string registry_name;
  std::string schema_name;
};

struct NewSchema {
  SchemaRef schema;
  std::string data_format;                 // JSON | AVRO | PROTOBUF
  std::string compatibility = "BACKWARD";  // Glue's default.
  std::string description;
  // When set, version 1 is registered with it in the same transaction.
  std::optional<std::string> definition;
};

struct CreatedSchema {
  SchemaInfo schema;
  std::optional<SchemaVersion> first_version;  // Set when NewSchema::definition was.
};

struct SchemaVersionPage {
  std::vector<SchemaVersion> versions;  // Ascending version numbers.
  std::string next_token;               // "" on the last page.
};

// Thread-safe. Errors besides those listed: Unavailable (the database is
// busy beyond the busy timeout), Io.
class SchemaRegistry {
 public:
  virtual ~SchemaRegistry() = default;

  // Errors: InvalidArgument (name not [a-zA-Z0-9-_$#.]{1,255}, description
  // over 2048 bytes), AlreadyExists.
  virtual Result<RegistryInfo> CreateRegistry(const std::string& account_id,
                                              const std::string& registry_name,
                                              const std::string& description) = 0;
  // Errors: NotFound. kDefaultRegistryName is created on first use, also here.
  virtual Result<RegistryInfo> GetRegistry(const std::string& account_id,
                                           const std::string& registry_name) = 0;
  // Every registry of the account, by name.
  virtual Result<std::vector<RegistryInfo>> ListRegistries(const std::string& account_id) = 0;

  // Errors: InvalidArgument (names, data format, compatibility, a
  // definition that is not a JSON document for JSON/AVRO), NotFound (the
  // registry; never for kDefaultRegistryName), AlreadyExists (the schema).
  virtual Result<CreatedSchema> CreateSchema(const NewSchema& request) = 0;
  // Errors: NotFound (message kSchemaNotFoundMessage).
  virtual Result<SchemaInfo> GetSchema(const SchemaRef& schema) = 0;
  // The schemas of one registry (empty: all registries), by registry then name.
  virtual Result<std::vector<SchemaInfo>> ListSchemas(const std::string& account_id,
                                                      const std::string& registry_name) = 0;

  // Registers `definition` as the next version; if an equal definition is
  // already a version of the schema, returns that version instead (as Glue
  // does). A new version must meet the schema's compatibility mode (as
  // Glue's RegisterSchemaVersion: "returns an error if new version of schema
  // does not meet the compatibility requirements"): BACKWARD, the new
  // definition reads data written with the latest version; FORWARD, the
  // latest reads the new one's data; FULL, both; the _ALL modes against every
  // version; NONE, none; DISABLED takes no new version. AVRO is compared by
  // Avro schema resolution, JSON and PROTOBUF by the injected checkers (none
  // injected: not compared). Errors: NotFound (kSchemaNotFoundMessage),
  // InvalidArgument (the definition is empty, over 170000 bytes, or not JSON
  // for JSON/AVRO; incompatible, naming the version, the mode and why;
  // DISABLED).
  virtual Result<SchemaVersion> RegisterSchemaVersion(const SchemaRef& schema,
                                                      const std::string& definition) = 0;

  // Any letter case. Errors: NotFound (kSchemaVersionNotFoundMessage),
  // InvalidArgument (not a UUID).
  virtual Result<SchemaVersion> GetSchemaVersionById(const std::string& schema_version_id) = 0;
  // `version_number` nullopt: the latest. Errors: NotFound
  // (kSchemaNotFoundMessage or kSchemaVersionNotFoundMessage).
  virtual Result<SchemaVersion> GetSchemaVersion(const SchemaRef& schema,
                                                 std::optional<int64_t> version_number) = 0;
  // The latest version of the schema an ARN names (a channel's gsrArn).
  // Errors: InvalidArgument (not a Glue schema ARN), NotFound (as above, also
  // for an ARN of another region).
  virtual Result<SchemaVersion> GetLatestSchemaVersion(const std::string& schema_arn) = 0;
  // The version whose definition equals `definition` as a document. Errors:
  // NotFound with exactly kSchemaNotFoundMessage (no such schema) or
  // kSchemaVersionNotFoundMessage (no such version).
  virtual Result<SchemaVersion> GetSchemaByDefinition(const SchemaRef& schema,
                                                      const std::string& definition) = 0;
  // Versions in ascending order, `max_results` (1..100) per page from
  // `page_token` ("" = first page). Errors: NotFound (kSchemaNotFoundMessage),
  // InvalidArgument (bad token or max_results).
  virtual Result<SchemaVersionPage> ListSchemaVersions(const SchemaRef& schema,
                                                       const std::string& page_token,
                                                       int max_results) = 0;
};

// Checks a definition of a data format this module cannot parse itself
// (PROTOBUF: the .proto parser is decoding's, above the registry; the server
// passes one over decoding::ValidateProtobufSchema). Called by CreateSchema
// and RegisterSchemaVersion with every definition before it is stored; an
// error refuses it as InvalidArgument "Schema definition of <format> data
// format is invalid: <message>" (Glue's InvalidInputException). Thread-safe.
using DefinitionValidator =
    std::function<Status(const std::string& data_format, const std::string& definition)>;

// What the registry is given for the formats it cannot handle itself
// (PROTOBUF: decoding's .proto parser and compatibility rules; JSON Schema's
// checker is this module's, passed the same way as for the Confluent API).
struct GlueFormatSupport {
  DefinitionValidator validate;  // Unset: PROTOBUF definitions are stored unchecked.
  // Compatibility of JSON and PROTOBUF versions; null: that format's
  // versions are not compared (AVRO's check is built in).
  confluent::CompatibilityCheckers checkers;
};

// Opens the registry in the SQLite database file `db_path` (normally the
// catalog's file) with its own connection (WAL, busy timeout) and creates its
// tables (prefix registry_) if missing. `region` goes into every ARN. Clock
// and Random must outlive the registry. Errors: Io, Corruption.
Result<std::unique_ptr<SchemaRegistry>> OpenSqliteSchemaRegistry(const std::string& db_path,
                                                                 const std::string& region,
                                                                 const Clock& clock, Random& random,
                                                                 GlueFormatSupport formats = {});
// The same registry on a connection of its own to a database of any backend
// (the PostgreSQL catalog's); creates its tables if missing.
Result<std::unique_ptr<SchemaRegistry>> OpenSchemaRegistry(std::unique_ptr<sql::Connection> db,
                                                           const std::string& region,
                                                           const Clock& clock, Random& random,
                                                           GlueFormatSupport formats = {});

}  // namespace st::registry
