// RecordFormat over decoding::PartitionedFileWriter and the built-in schema
// registry. A JSON channel's table follows the latest version of its gsrArn
// schema. An Avro channel (AVRO_GSR, AVRO_CONFLUENT) and a Protobuf channel
// (PROTOBUF_CONFLUENT, PROTOBUF_GSR) create their table from the writer schema of
// the first record and evolve it (EvolveForAvro; EvolveForProtobuf maps the
// message onto the same rules) when a later record names a version the table
// has not seen: see AvroBatchWriter. A JSON_SCHEMA_GSR or
// JSON_SCHEMA_CONFLUENT channel's table comes from the JSON Schema its first
// record's version (GSR UUID, Confluent id) names; a later version whose
// changes Iceberg can take (decoding::EvolveForJsonSchema: Avro's rules)
// evolves it through the same writer. Any other change is quarantined like
// an Avro version (SCHEMA_INCOMPATIBLE).
#include <charconv>
#include <map>
#include <mutex>
#include <set>
#include <variant>

#include "avro/schema.h"
#include "decoding/avro_schema_mapping.h"
#include "decoding/channel_schema.h"
#include "decoding/json_schema_evolution.h"
#include "decoding/partitioned_file_writer.h"
#include "decoding/protobuf_schema.h"
#include "delivery/record_format.h"
#include "registry/json_schema_mapping.h"
#include "registry/schema_registry.h"

namespace st::delivery {

namespace {

constexpr size_t kGsrHeaderBytes = 18;

using catalog::ValueConverter;

// The one mapping from the channel's valueConverter to how decoding reads a
// value (decoding sits below catalog and has its own, narrower enum).
decoding::ValueFormat ToValueFormat(ValueConverter converter) {
  switch (converter) {
    case ValueConverter::kJson:
      return decoding::ValueFormat::kJson;
    case ValueConverter::kJsonSchemaGsr:
      return decoding::ValueFormat::kJsonSchemaGsr;
    case ValueConverter::kByteArray:
      return decoding::ValueFormat::kByteArray;
    case ValueConverter::kString:
      return decoding::ValueFormat::kString;
    case ValueConverter::kAvroGsr:
      return decoding::ValueFormat::kAvroGsr;
    case ValueConverter::kAvroConfluent:
      return decoding::ValueFormat::kAvroConfluent;
    case ValueConverter::kProtobufConfluent:
      return decoding::ValueFormat::kProtobufConfluent;
    case ValueConverter::kJsonSchemaConfluent:
      return decoding::ValueFormat::kJsonSchemaConfluent;
    case ValueConverter::kProtobufGsr:
      return decoding::ValueFormat::kProtobufGsr;
  }
  return decoding::ValueFormat::kJson;
}

// The same for the keyConverter.
decoding::KeyFormat ToKeyFormat(catalog::KeyConverter converter) {
  switch (converter) {
    case catalog::KeyConverter::kString:
      return decoding::KeyFormat::kString;
    case catalog::KeyConverter::kAvroConfluent:
      return decoding::KeyFormat::kAvroConfluent;
    case catalog::KeyConverter::kProtobufConfluent:
      return decoding::KeyFormat::kProtobufConfluent;
    case catalog::KeyConverter::kJsonSchemaConfluent:
      return decoding::KeyFormat::kJsonSchemaConfluent;
    case catalog::KeyConverter::kByteArray:
      break;
  }
  return decoding::KeyFormat::kBytes;
}

// Channels whose table comes from the first record's writer schema and
// evolves with later versions (Avro, and Protobuf through the Avro rules).
bool IsAvro(ValueConverter converter) {
  return converter == ValueConverter::kAvroGsr || converter == ValueConverter::kAvroConfluent ||
         converter == ValueConverter::kProtobufConfluent ||
         converter == ValueConverter::kProtobufGsr;
}

// Channels whose records name a schema of the Confluent-compatible registry.
bool IsConfluent(ValueConverter converter) {
  return converter == ValueConverter::kAvroConfluent ||
         converter == ValueConverter::kProtobufConfluent ||
         converter == ValueConverter::kJsonSchemaConfluent;
}

// Channels whose writer schema is a JSON Schema version of a registry.
bool IsJsonSchema(ValueConverter converter) {
  return converter == ValueConverter::kJsonSchemaGsr ||
         converter == ValueConverter::kJsonSchemaConfluent;
}

// Channels whose records carry the Glue Schema Registry header (0x03,
// compression, 16-byte schema version UUID).
bool IsGsrFramed(ValueConverter converter) {
  return converter == ValueConverter::kAvroGsr || converter == ValueConverter::kJsonSchemaGsr ||
         converter == ValueConverter::kProtobufGsr;
}

// A Glue Schema Registry version's data format as the decoder's schema type.
decoding::WriterSchemaType GlueSchemaType(const std::string& data_format) {
  if (data_format == "AVRO") return decoding::WriterSchemaType::kAvro;
  if (data_format == "PROTOBUF") return decoding::WriterSchemaType::kProtobuf;
  return decoding::WriterSchemaType::kJson;
}

bool UsesSchema(ValueConverter converter) {
  return converter == ValueConverter::kJson || IsJsonSchema(converter) || IsAvro(converter);
}

constexpr size_t kConfluentHeaderBytes = 5;

// A table's value schema, or why a record cannot define it.
using SchemaOrFailure = std::variant<iceberg::Schema, RecordFailure>;

RecordFailure Failure(std::string_view code, std::string message, std::string version) {
  return RecordFailure{std::string(code), std::move(message), std::move(version)};
}

// A Glue schema version by id, only the channel account's own: another
// account's version is NotFound (records naming it are SCHEMA_NOT_FOUND).
Result<registry::SchemaVersion> AccountSchemaVersion(registry::SchemaRegistry& registry,
                                                     const std::string& account,
                                                     const std::string& schema_version_id) {
  Result<registry::SchemaVersion> version = registry.GetSchemaVersionById(schema_version_id);
  if (!version.has_value()) {
    if (version.error().code() == StatusCode::kInvalidArgument) {
      return Err(NotFound(version.error().message()));
    }
    return Err(version.error());
  }
  if (version->account_id != account) {
    return Err(NotFound("Schema version " + schema_version_id + " is not found."));
  }
  return version;
}

class RegistryLookup final : public decoding::GsrSchemaLookup {
 public:
  RegistryLookup(registry::SchemaRegistry& registry, std::string account)
      : registry_(registry), account_(std::move(account)) {}
  Result<std::string> Definition(const std::string& schema_version_id) override {
    ST_ASSIGN_OR_RETURN(registry::SchemaVersion version,
                        AccountSchemaVersion(registry_, account_, schema_version_id));
    return std::move(version.definition);
  }
  Result<decoding::WriterSchema> Version(const std::string& schema_version_id) override {
    ST_ASSIGN_OR_RETURN(registry::SchemaVersion version,
                        AccountSchemaVersion(registry_, account_, schema_version_id));
    return decoding::WriterSchema{GlueSchemaType(version.data_format),
                                  std::move(version.definition)};
  }

 private:
  registry::SchemaRegistry& registry_;
  std::string account_;
};

// The account whose registries a channel reads: its owner's (CreateChannel
// requires the service execution role to be of the caller's account).
const std::string& RegistryAccount(const ChannelConfig& config) {
  return config.service_execution_role.account_id;
}

// Owns what the decoder's writer points at.
class DecodingBatchWriter final : public BatchWriter {
 public:
  explicit DecodingBatchWriter(std::unique_ptr<RegistryLookup> lookup)
      : lookup_(std::move(lookup)) {}
  Status Open(decoding::WriterOptions options, iceberg::FileIO& io, Random& random) {
    options.gsr = lookup_.get();
    ST_ASSIGN_OR_RETURN(writer_,
                        decoding::PartitionedFileWriter::Make(std::move(options), io, random));
    return Status::OK();
  }

  Result<std::optional<RecordFailure>> Add(const ConsumedRecord& record) override {
    decoding::KafkaRecord view;
    view.topic = record.topic;
    view.partition = record.partition;
    view.offset = record.offset;
    view.timestamp_ms = record.timestamp_ms;
    if (record.key) view.key = std::string_view(*record.key);
    if (record.value) view.value = std::string_view(*record.value);
    view.headers.reserve(record.headers.size());
    for (const RecordHeader& h : record.headers) {
      decoding::KafkaHeader header{h.key, std::nullopt};
      if (h.value) header.value = std::string_view(*h.value);
      view.headers.push_back(header);
    }
    ST_ASSIGN_OR_RETURN(std::optional<decoding::RecordError> error, writer_->Add(view));
    if (!error) return std::optional<RecordFailure>();
    return std::optional<RecordFailure>(RecordFailure{
        std::move(error->code), std::move(error->message), std::move(error->schema_version_id)});
  }
  int64_t buffered_bytes() const override { return writer_->buffered_bytes(); }
  Result<std::vector<iceberg::DataFile>> Finish() override { return writer_->Finish(); }
  void Abort() override { writer_->Abort(); }
  void SetExpirationHorizon(std::optional<int64_t> horizon_micros) override {
    writer_->SetExpirationHorizon(horizon_micros);
  }

 private:
  std::unique_ptr<RegistryLookup> lookup_;
  std::unique_ptr<decoding::PartitionedFileWriter> writer_;
};

constexpr size_t kGsrUuidBytes = 16;

// The schema version bytes a framed record names (GSR, also JSON_SCHEMA_GSR: the 16 UUID
// bytes; Confluent: the 4 id bytes), read without decoding it: cheap enough
// per record. nullopt when the framing is wrong (the decoder reports it).
// PROTOBUF_GSR: the UUID bytes and the 4-byte big-endian message index (one
// message type of one version), composed in `scratch`, which the view then
// points into (the index may sit inside a zlib stream: only its bytes are
// inflated).
std::optional<std::string_view> AvroVersionKey(ValueConverter converter,
                                               const std::optional<std::string>& value,
                                               std::string& scratch) {
  // JSON, BYTE_ARRAY and STRING values carry no writer schema version.
  if (!value || !(IsAvro(converter) || IsJsonSchema(converter))) {
    return std::nullopt;
  }
  const std::string_view v = *value;
  if (converter == ValueConverter::kProtobufGsr) {
    decoding::GsrProtobufHeader header;
    decoding::RecordError error;
    if (!decoding::ReadGsrProtobufHeader(v, &header, &error)) return std::nullopt;
    scratch.assign(v.substr(2, kGsrUuidBytes));
    for (int shift = 24; shift >= 0; shift -= 8) {
      scratch.push_back(static_cast<char>((header.message_index >> shift) & 0xFF));
    }
    return std::string_view(scratch);
  }
  if (IsGsrFramed(converter)) {
    if (v.size() < kGsrHeaderBytes || v[0] != 0x03 || (v[1] != 0x00 && v[1] != 0x05)) {
      return std::nullopt;
    }
    return v.substr(2, kGsrHeaderBytes - 2);
  }
  if (converter == ValueConverter::kProtobufConfluent) {
    // The id and the message indexes: one message type of one schema.
    decoding::ConfluentProtobufHeader header;
    decoding::RecordError error;
    if (!decoding::ReadConfluentProtobufHeader(v, &header, &error)) return std::nullopt;
    return v.substr(1, header.header_bytes - 1);
  }
  if (v.size() < kConfluentHeaderBytes || v[0] != 0) return std::nullopt;
  return v.substr(1, kConfluentHeaderBytes - 1);
}

// The text form of a version key: the lower-case UUID (GSR) or the decimal
// schema id (Confluent), as RecordError::schema_version_id has it.
std::string AvroVersionText(ValueConverter converter, std::string_view key) {
  if (IsGsrFramed(converter)) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string id;
    key = key.substr(0, kGsrUuidBytes);  // PROTOBUF_GSR: the message index follows.
    for (size_t i = 0; i < key.size(); ++i) {
      if (i == 4 || i == 6 || i == 8 || i == 10) id += '-';
      const auto byte = static_cast<unsigned char>(key[i]);
      id += kHex[byte >> 4];
      id += kHex[byte & 15];
    }
    return id;
  }
  uint32_t id = 0;
  for (char c : key.substr(0, 4)) id = (id << 8) | static_cast<unsigned char>(c);
  return std::to_string(static_cast<int32_t>(id));
}

// The schema version id a GSR-framed value names, or nullopt when the
// framing is wrong (the writer reports those records itself).
std::optional<std::string> GsrVersionId(const std::optional<std::string>& value) {
  std::string scratch;
  std::optional<std::string_view> key = AvroVersionKey(ValueConverter::kAvroGsr, value, scratch);
  if (!key) return std::nullopt;
  return AvroVersionText(ValueConverter::kAvroGsr, *key);
}

struct AvroVersionRef {
  std::string_view key;
  std::string id;
};

// The schema version a framed record value names, as RecordError's
// schema_version_id has it ("" when the value has no header).
std::string WriterVersionIdOf(ValueConverter converter, const std::optional<std::string>& value) {
  if (IsGsrFramed(converter)) {
    // The header alone (a PROTOBUF_GSR payload may be what is wrong).
    std::string scratch;
    std::optional<std::string_view> key = AvroVersionKey(ValueConverter::kAvroGsr, value, scratch);
    return key ? AvroVersionText(converter, *key) : "";
  }
  if (!value || value->size() < kConfluentHeaderBytes || (*value)[0] != 0) return "";
  return AvroVersionText(ValueConverter::kAvroConfluent,
                         std::string_view(*value).substr(1, kConfluentHeaderBytes - 1));
}

// The message indexes a Protobuf version key (id bytes + indexes) names.
std::vector<int32_t> ProtobufIndexesOf(std::string_view key) {
  std::string framed(1, '\0');
  framed.append(key);
  decoding::ConfluentProtobufHeader header;
  decoding::RecordError error;
  if (!decoding::ReadConfluentProtobufHeader(framed, &header, &error)) return {};
  return header.message_indexes;
}

// The GSR message index a PROTOBUF_GSR version key (UUID bytes + index) names.
uint32_t GsrIndexOf(std::string_view key) {
  uint32_t index = 0;
  for (char c : key.substr(kGsrUuidBytes, 4)) index = (index << 8) | static_cast<unsigned char>(c);
  return index;
}

// The writer schema of a version: NotFound when the registry has none.
using AvroSchemaSource = std::function<Result<decoding::WriterSchema>(const AvroVersionRef&)>;

// The table schema a JSON Schema version alone would give the channel.
Result<iceberg::Schema> JsonVersionTableSchema(const decoding::WriterSchema& schema,
                                               const ChannelConfig& config) {
  ST_ASSIGN_OR_RETURN(iceberg::Schema mapped,
                      registry::JsonSchemaToIceberg(schema.text, schema.references));
  return decoding::ChannelTableSchema(ToValueFormat(config.value_converter), mapped,
                                      config.include_kafka_metadata, config.partition_source,
                                      ToKeyFormat(config.key_converter));
}

using SchemaMatcher = std::function<Result<bool>(const decoding::WriterSchema& schema)>;

// The writer's schema_matches for a table schema (JSON_SCHEMA_GSR,
// JSON_SCHEMA_CONFLUENT): the version's columns fit the table unchanged (it
// may lack optional ones); the batch writer has evolved the table for
// versions that add optional fields before their records get here.
SchemaMatcher JsonSchemaMatcher(const iceberg::Schema& table, const ChannelConfig& config) {
  return [table, config](const decoding::WriterSchema& schema) -> Result<bool> {
    ST_ASSIGN_OR_RETURN(iceberg::Schema expected, JsonVersionTableSchema(schema, config));
    ST_ASSIGN_OR_RETURN(decoding::JsonSchemaEvolution evolved,
                        decoding::EvolveForJsonSchema(table, expected));
    return !evolved.changed;
  };
}

// An Avro channel's writer. Each writer schema version is checked against
// the table schema the first time it is seen: unchanged → decoded as is;
// compatible change → the open files are closed, a new decoder is made for
// the evolved schema (its files carry the new field ids) and the schema is
// reported by SchemaChanges() for the commit; incompatible → its records are
// SCHEMA_INCOMPATIBLE (the message names the field and both types) while
// every other version keeps flowing. Versions the registry does not have, or
// whose definition is not Avro, go to the decoder, which reports them.
// JSON_SCHEMA_GSR and JSON_SCHEMA_CONFLUENT channels use it too, for the
// changes they evolve by (EvolveForJsonSchema: Avro's rules); any other
// change of a mapped version is quarantined (SCHEMA_INCOMPATIBLE). The
// decoder's schema_matches (rebuilt for each table schema) is the backstop
// for versions not decided here (SCHEMA_MISMATCH).
//
// Typed keys (keyConverter AVRO_CONFLUENT, PROTOBUF_CONFLUENT,
// JSON_SCHEMA_CONFLUENT), with any value converter, follow the same steps for each key schema id:
// the first one adds `_kafka.key`, later ones evolve it (decoding::EvolveKeyFor*), an incompatible
// one quarantines its records.
class AvroBatchWriter final : public BatchWriter {
 public:
  // `key_schemas`: set for typed keys, the writer schema of a key schema id.
  AvroBatchWriter(decoding::WriterOptions options, ValueConverter converter,
                  AvroSchemaSource source, std::set<int32_t> partition_sources,
                  registry::SchemaRegistry& registry, std::string account, iceberg::FileIO& io,
                  Random& random, std::optional<ChannelConfig> json_config = std::nullopt,
                  decoding::WriterSchemaLookup key_schemas = {},
                  decoding::KeyFormat key_format = decoding::KeyFormat::kBytes)
      : registry_(registry),
        account_(std::move(account)),
        options_(std::move(options)),
        converter_(converter),
        source_(std::move(source)),
        partition_sources_(std::move(partition_sources)),
        io_(io),
        random_(random),
        key_schemas_(std::move(key_schemas)),
        protobuf_keys_(key_format == decoding::KeyFormat::kProtobufConfluent),
        json_keys_(key_format == decoding::KeyFormat::kJsonSchemaConfluent),
        json_config_(std::move(json_config)) {}

  Status Open() { return Reopen(options_.schema); }

  Result<std::optional<RecordFailure>> Add(const ConsumedRecord& record) override {
    if (key_schemas_ && record.key) {
      ST_ASSIGN_OR_RETURN(std::optional<RecordFailure> refused, DecideKey(*record.key));
      if (refused) return refused;
    }
    if (std::optional<std::string_view> key =
            AvroVersionKey(converter_, record.value, version_key_scratch_)) {
      auto it = decisions_.find(*key);
      if (it == decisions_.end()) {
        const AvroVersionRef version{*key, AvroVersionText(converter_, *key)};
        ST_ASSIGN_OR_RETURN(std::optional<Decision> decided, Decide(version));
        // Not registered (yet): the decoder says SCHEMA_NOT_FOUND; nothing
        // is remembered, the version may be registered later.
        if (decided) {
          // Bounded: once full, unseen versions are decided again per record.
          if (decisions_.size() < kMaxVersions) {
            it = decisions_.emplace(std::string(*key), *std::move(decided)).first;
          } else if (decided->incompatible) {
            return std::optional<RecordFailure>(
                Failure(decoding::kSchemaIncompatible, std::move(decided->message), version.id));
          }
        }
      }
      if (it != decisions_.end() && it->second.incompatible) {
        return std::optional<RecordFailure>(
            Failure(decoding::kSchemaIncompatible, it->second.message, it->second.id));
      }
    }
    return writer_->Add(record);
  }
  int64_t buffered_bytes() const override { return writer_->buffered_bytes(); }
  Result<std::vector<iceberg::DataFile>> Finish() override {
    ST_ASSIGN_OR_RETURN(std::vector<iceberg::DataFile> files, writer_->Finish());
    std::vector<iceberg::DataFile> out = std::move(closed_);
    closed_.clear();
    for (iceberg::DataFile& f : files) out.push_back(std::move(f));
    return out;
  }
  void Abort() override {
    writer_->Abort();
    for (const iceberg::DataFile& f : closed_) (void)io_.Delete(f.file_path);
    closed_.clear();
  }
  void SetExpirationHorizon(std::optional<int64_t> horizon_micros) override {
    horizon_ = horizon_micros;
    writer_->SetExpirationHorizon(horizon_micros);
  }
  std::vector<iceberg::Schema> SchemaChanges() const override { return changes_; }
  void SchemaChangesCommitted() override { changes_.clear(); }

 private:
  static constexpr size_t kMaxVersions = 4096;

  struct Decision {
    bool incompatible = false;
    std::string message;
    std::string id;  // The version's text form, for the failures.
  };

  Result<std::optional<Decision>> Decide(const AvroVersionRef& version) {
    Result<decoding::WriterSchema> schema = source_(version);
    if (!schema.has_value()) {
      if (schema.error().code() == StatusCode::kNotFound) return std::optional<Decision>();
      return Err(schema.error());
    }
    if (IsJsonSchema(converter_)) return DecideJson(*schema, version);
    Result<decoding::AvroEvolution> evolved = Err(InvalidArgument(""));
    if (converter_ == ValueConverter::kProtobufConfluent ||
        converter_ == ValueConverter::kProtobufGsr) {
      // Not Protobuf, not parseable, no such message: the decoder says which.
      if (schema->type != decoding::WriterSchemaType::kProtobuf) return Decision{};
      std::vector<int32_t> path;
      if (converter_ == ValueConverter::kProtobufGsr) {
        Result<std::vector<int32_t>> found =
            decoding::GsrProtobufMessagePath(*schema, GsrIndexOf(version.key));
        if (!found.has_value()) return Decision{};
        path = *std::move(found);
      } else {
        path = ProtobufIndexesOf(version.key);
      }
      evolved = decoding::EvolveForProtobuf(options_.schema, *schema, path, partition_sources_);
    } else {
      if (schema->type != decoding::WriterSchemaType::kAvro) return Decision{};
      Result<avro::Schema> parsed = decoding::ParseAvroWriterSchema(*schema);
      if (!parsed.has_value()) return Decision{};  // The decoder says SCHEMA_MISMATCH.
      evolved = decoding::EvolveForAvro(options_.schema, *parsed, partition_sources_);
    }
    if (!evolved.has_value()) {
      if (evolved.error().code() != StatusCode::kFailedPrecondition) return Decision{};
      return Incompatible(version, evolved.error());
    }
    if (evolved->changed) ST_TRY(Evolve(evolved->schema));
    return Decision{};
  }

  // A typed key's schema id, decided once: adds or evolves `_kafka.key`, or
  // quarantines the id's records. Framing errors and ids the registry does
  // not have are left to the decoder, which reports them.
  Result<std::optional<RecordFailure>> DecideKey(std::string_view key) {
    if (key.size() < kConfluentHeaderBytes || key[0] != 0) {
      return std::optional<RecordFailure>();
    }
    std::string_view version_bytes = key.substr(1, 4);
    decoding::ConfluentProtobufHeader header;
    if (protobuf_keys_) {
      // The id and the message indexes: one message type of one schema.
      decoding::RecordError error;
      if (!decoding::ReadConfluentProtobufHeader(key, &header, &error)) {
        return std::optional<RecordFailure>();
      }
      version_bytes = key.substr(1, header.header_bytes - 1);
    }
    const std::string_view id_bytes = key.substr(1, 4);
    auto it = key_decisions_.find(version_bytes);
    if (it == key_decisions_.end()) {
      const std::string id = AvroVersionText(ValueConverter::kAvroConfluent, id_bytes);
      uint32_t schema_id = 0;
      for (char c : id_bytes) schema_id = (schema_id << 8) | static_cast<unsigned char>(c);
      Result<decoding::WriterSchema> schema = key_schemas_(static_cast<int32_t>(schema_id));
      if (!schema.has_value()) {
        if (schema.error().code() == StatusCode::kNotFound) return std::optional<RecordFailure>();
        return Err(schema.error());
      }
      Decision decided;
      decided.id = id;
      // An evolution's outcome: the table moves on, or the id is quarantined
      // (`any_error`: also when the schema cannot be mapped at all).
      auto apply = [&](const auto& evolved, bool any_error) -> Status {
        if (evolved.has_value()) return evolved->changed ? Evolve(evolved->schema) : Status::OK();
        if (any_error || evolved.error().code() == StatusCode::kFailedPrecondition) {
          decided.incompatible = true;
          decided.message = "The key schema version " + id +
                            " cannot evolve the table: " + evolved.error().message();
        }
        return Status::OK();
      };
      if (protobuf_keys_ && schema->type == decoding::WriterSchemaType::kProtobuf) {
        // Unparseable schemas and indexes naming no message: the decoder
        // reports them (SCHEMA_MISMATCH, MALFORMED_PROTOBUF).
        ST_TRY(
            apply(decoding::EvolveKeyForProtobuf(options_.schema, *schema, header.message_indexes),
                  false));
      } else if (json_keys_ && schema->type == decoding::WriterSchemaType::kJson) {
        // A key schema that does not map (no type, a tuple, ...) is quarantined
        // with the mapping's reason, as is one that cannot evolve the key.
        Result<registry::JsonKeyMapping> mapped =
            registry::JsonSchemaKeyToIceberg(schema->text, schema->references);
        ST_TRY(apply(
            mapped.has_value()
                ? decoding::EvolveKeyForJsonSchema(options_.schema, mapped->schema, mapped->wrapped)
                : Result<decoding::JsonSchemaEvolution>(Err(mapped.error())),
            true));
      } else if (!protobuf_keys_ && !json_keys_ &&
                 schema->type == decoding::WriterSchemaType::kAvro) {
        if (Result<avro::Schema> parsed = decoding::ParseAvroWriterSchema(*schema)) {
          ST_TRY(apply(decoding::EvolveKeyForAvro(options_.schema, *parsed), true));
        }
      }
      // Another schema type or not parseable: the decoder says SCHEMA_MISMATCH.
      if (key_decisions_.size() >= kMaxVersions) {
        if (!decided.incompatible) return std::optional<RecordFailure>();
        return std::optional<RecordFailure>(
            Failure(decoding::kSchemaIncompatible, std::move(decided.message), id));
      }
      it = key_decisions_.emplace(std::string(version_bytes), std::move(decided)).first;
    }
    if (!it->second.incompatible) return std::optional<RecordFailure>();
    return std::optional<RecordFailure>(
        Failure(decoding::kSchemaIncompatible, it->second.message, it->second.id));
  }

  // A JSON Schema version (JSON_SCHEMA_GSR or JSON_SCHEMA_CONFLUENT):
  // evolves the table when Iceberg can take its changes. Not JSON or not
  // mappable: the decoder reports SCHEMA_MISMATCH. Another change: the
  // version is quarantined (SCHEMA_INCOMPATIBLE), as for Avro and Protobuf.
  Result<std::optional<Decision>> DecideJson(const decoding::WriterSchema& schema,
                                             const AvroVersionRef& version) {
    if (schema.type != decoding::WriterSchemaType::kJson) return Decision{};
    Result<iceberg::Schema> expected = JsonVersionTableSchema(schema, *json_config_);
    if (!expected.has_value()) return Decision{};
    Result<decoding::JsonSchemaEvolution> evolved =
        decoding::EvolveForJsonSchema(options_.schema, *expected);
    if (!evolved.has_value()) {
      if (evolved.error().code() != StatusCode::kFailedPrecondition) return Decision{};
      return Incompatible(version, evolved.error());
    }
    if (evolved->changed) ST_TRY(Evolve(evolved->schema));
    return Decision{};
  }

  // The same wording for every format: DescribeChannel and the DLQ show it.
  static Decision Incompatible(const AvroVersionRef& version, const Status& why) {
    return Decision{
        true,
        "The writer schema version " + version.id + " cannot evolve the table: " + why.message(),
        version.id};
  }

  // Continues under `schema`, reported for the commit.
  Status Evolve(const iceberg::Schema& schema) {
    // The files so far hold the old schema's columns; they are committed
    // with the new one (Iceberg reads them by field id, new columns null).
    ST_ASSIGN_OR_RETURN(std::vector<iceberg::DataFile> files, writer_->Finish());
    for (iceberg::DataFile& f : files) closed_.push_back(std::move(f));
    ST_TRY(Reopen(schema));
    changes_.push_back(schema);
    return Status::OK();
  }

  Status Reopen(const iceberg::Schema& schema) {
    decoding::WriterOptions options = options_;
    options.schema = schema;
    if (json_config_) options.schema_matches = JsonSchemaMatcher(schema, *json_config_);
    auto writer = std::make_unique<DecodingBatchWriter>(
        std::make_unique<RegistryLookup>(registry_, account_));
    ST_TRY(writer->Open(std::move(options), io_, random_));
    writer->SetExpirationHorizon(horizon_);
    writer_ = std::move(writer);
    options_.schema = schema;
    return Status::OK();
  }

  registry::SchemaRegistry& registry_;
  std::string account_;
  decoding::WriterOptions options_;
  ValueConverter converter_;
  AvroSchemaSource source_;
  std::set<int32_t> partition_sources_;
  iceberg::FileIO& io_;
  Random& random_;
  std::unique_ptr<DecodingBatchWriter> writer_;
  std::vector<iceberg::DataFile> closed_;  // Closed before a schema change.
  std::vector<iceberg::Schema> changes_;
  std::optional<int64_t> horizon_;
  std::map<std::string, Decision, std::less<>> decisions_;
  std::string version_key_scratch_;  // PROTOBUF_GSR's composed version keys.
  decoding::WriterSchemaLookup key_schemas_;
  bool protobuf_keys_ = false;  // Else Avro or JSON keys (when key_schemas_ is set).
  bool json_keys_ = false;
  // By the 4 id bytes (Protobuf: and the message indexes).
  std::map<std::string, Decision, std::less<>> key_decisions_;
  // JSON_SCHEMA_GSR, JSON_SCHEMA_CONFLUENT: the channel, for each table
  // schema's matcher.
  std::optional<ChannelConfig> json_config_;
};

class DecodingRecordFormat final : public RecordFormat {
 public:
  DecodingRecordFormat(registry::SchemaRegistry& registry, ConfluentSchemaLookup confluent)
      : registry_(registry), confluent_(std::move(confluent)) {}

  Status Validate(const ChannelConfig& config) override {
    if (config.value_converter != ValueConverter::kJson) return Status::OK();
    ST_ASSIGN_OR_RETURN(iceberg::Schema value_schema, ValueSchemaOfArn(*config.gsr_arn));
    ST_ASSIGN_OR_RETURN(TableLayout layout, LayoutFor(config, value_schema));
    (void)layout;
    return Status::OK();
  }

  Result<LayoutOutcome> Layout(const ChannelConfig& config, const ConsumedRecord& first) override {
    std::optional<iceberg::Schema> value_schema;
    if (config.value_converter == ValueConverter::kJson) {
      ST_ASSIGN_OR_RETURN(value_schema, ValueSchemaOfArn(*config.gsr_arn));
    } else if (config.value_converter == ValueConverter::kJsonSchemaGsr) {
      std::optional<std::string> id = GsrVersionId(first.value);
      if (!id) {
        return LayoutOutcome{std::nullopt,
                             RecordFailure{std::string(decoding::kMissingGsrHeader),
                                           "The record value does not start with a Glue Schema "
                                           "Registry header (0x03, compression 0x00 or 0x05, "
                                           "16-byte schema version id).",
                                           ""}};
      }
      Result<registry::SchemaVersion> version =
          AccountSchemaVersion(registry_, RegistryAccount(config), *id);
      if (!version.has_value()) {
        if (version.error().code() != StatusCode::kNotFound &&
            version.error().code() != StatusCode::kInvalidArgument) {
          return Err(version.error());
        }
        return LayoutOutcome{
            std::nullopt,
            RecordFailure{std::string(decoding::kSchemaNotFound),
                          "The schema version " + *id + " is not in the schema registry.", *id}};
      }
      Result<iceberg::Schema> mapped = registry::JsonSchemaToIceberg(version->definition);
      if (!mapped.has_value()) {
        return LayoutOutcome{std::nullopt, RecordFailure{std::string(decoding::kSchemaMismatch),
                                                         "The schema version " + *id +
                                                             " cannot be mapped to Iceberg: " +
                                                             mapped.error().message(),
                                                         *id}};
      }
      value_schema = std::move(*mapped);
    } else if (IsAvro(config.value_converter) ||
               config.value_converter == ValueConverter::kJsonSchemaConfluent) {
      ST_ASSIGN_OR_RETURN(SchemaOrFailure mapped, FramedValueSchema(config, first.value));
      if (auto* failure = std::get_if<RecordFailure>(&mapped)) {
        return LayoutOutcome{std::nullopt, std::move(*failure)};
      }
      value_schema = std::get<iceberg::Schema>(std::move(mapped));
    }
    Result<TableLayout> layout = LayoutFor(config, value_schema);
    if (!layout.has_value() && layout.error().code() == StatusCode::kInvalidArgument &&
        config.value_converter != ValueConverter::kJson && value_schema.has_value()) {
      // The first record's own writer schema cannot make the channel's table
      // (e.g. it lacks the partition source column): that record goes to the
      // DLQ and a later one may define the table, as for a schema that does
      // not map. (A JSON channel's one schema is its configuration: it stalls.)
      return LayoutOutcome{std::nullopt,
                           RecordFailure{std::string(decoding::kSchemaMismatch),
                                         "The record's writer schema cannot define the table: " +
                                             layout.error().message(),
                                         WriterVersionIdOf(config.value_converter, first.value)}};
    }
    if (!layout.has_value()) return Err(layout.error());
    return LayoutOutcome{*std::move(layout), std::nullopt};
  }

  Result<std::unique_ptr<BatchWriter>> NewWriter(const ChannelConfig& config,
                                                 const iceberg::TableMetadata& metadata,
                                                 const std::string& data_location,
                                                 iceberg::FileIO& io, Random& random) override {
    const iceberg::Schema* schema = metadata.CurrentSchema();
    const iceberg::PartitionSpec* spec = metadata.DefaultSpec();
    if (schema == nullptr || spec == nullptr) {
      return Err(Corruption("The table at " + metadata.location +
                            " has no current schema or default spec."));
    }
    decoding::WriterOptions options{
        .format = ToValueFormat(config.value_converter), .schema = *schema, .spec = *spec};
    options.include_metadata = config.include_kafka_metadata;
    options.key_format = ToKeyFormat(config.key_converter);
    options.codec = std::string(catalog::IcebergCompressionCodec(config.compression));
    options.data_location = data_location;
    if (IsJsonSchema(config.value_converter)) {
      options.schema_matches = JsonSchemaMatcher(options.schema, config);
    }
    auto confluent = std::make_shared<const ConfluentSource>(ConfluentSourceOf(config));
    const bool typed_keys = decoding::KeyHasSchema(options.key_format);
    if (IsConfluent(config.value_converter) || typed_keys) {
      options.writer_schemas = [this, confluent](int32_t id) { return Confluent(*confluent, id); };
    }
    // Typed keys evolve `_kafka.key` whatever the values are: their
    // channels take this writer too (values without registry versions pass
    // straight to the decoder).
    if (IsAvro(config.value_converter) || IsJsonSchema(config.value_converter) || typed_keys) {
      const std::string account = RegistryAccount(config);
      std::set<int32_t> sources;
      for (const iceberg::PartitionField& f : spec->fields()) sources.insert(f.source_id);
      const ValueConverter converter = config.value_converter;
      std::optional<ChannelConfig> json_config;
      if (IsJsonSchema(converter)) json_config = config;
      AvroSchemaSource source = [this, converter, confluent](const AvroVersionRef& version) {
        return WriterSchemaOf(converter, *confluent, version.id);
      };
      decoding::WriterSchemaLookup key_schemas;
      if (typed_keys) key_schemas = options.writer_schemas;
      const decoding::KeyFormat key_format = options.key_format;
      auto writer = std::make_unique<AvroBatchWriter>(
          std::move(options), converter, std::move(source), std::move(sources), registry_, account,
          io, random, json_config, std::move(key_schemas), key_format);
      ST_TRY(writer->Open());
      return std::unique_ptr<BatchWriter>(std::move(writer));
    }
    auto writer = std::make_unique<DecodingBatchWriter>(
        std::make_unique<RegistryLookup>(registry_, RegistryAccount(config)));
    ST_TRY(writer->Open(std::move(options), io, random));
    return std::unique_ptr<BatchWriter>(std::move(writer));
  }

 private:
  Result<decoding::WriterSchema> Confluent(const ConfluentSource& source, int32_t id) const {
    if (!confluent_) {
      return Err(NotFound("no Confluent-compatible schema registry is connected to delivery"));
    }
    return confluent_(source, id);
  }

  // The writer schema a version id names (GSR: the UUID text; Confluent: the
  // decimal id). NotFound when the registry has none.
  Result<decoding::WriterSchema> WriterSchemaOf(ValueConverter converter,
                                                const ConfluentSource& source,
                                                const std::string& id) const {
    if (IsConfluent(converter)) {
      int32_t schema_id = 0;
      auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), schema_id);
      if (ec != std::errc() || end != id.data() + id.size()) {
        return Err(NotFound("'" + id + "' is not a Confluent schema id"));
      }
      return Confluent(source, schema_id);
    }
    ST_ASSIGN_OR_RETURN(registry::SchemaVersion version,
                        AccountSchemaVersion(registry_, source.account_id, id));
    return decoding::WriterSchema{GlueSchemaType(version.data_format),
                                  std::move(version.definition)};
  }

  // The value schema an Avro, Protobuf or JSON_SCHEMA_CONFLUENT channel's
  // table is created with: that of its first record's writer schema, or why
  // that record cannot define it.
  Result<SchemaOrFailure> FramedValueSchema(const ChannelConfig& config,
                                            const std::optional<std::string>& value) const {
    std::string scratch;
    std::optional<std::string_view> key = AvroVersionKey(config.value_converter, value, scratch);
    if (!key && config.value_converter == ValueConverter::kProtobufGsr) {
      decoding::GsrProtobufHeader header;
      decoding::RecordError error;
      (void)decoding::ReadGsrProtobufHeader(value.value_or(""), &header, &error);
      return Failure(error.code,
                     "The record value's Glue Schema Registry framing: " + error.message,
                     WriterVersionIdOf(config.value_converter, value));
    }
    if (!key && config.value_converter == ValueConverter::kProtobufConfluent) {
      decoding::ConfluentProtobufHeader header;
      decoding::RecordError error;
      (void)decoding::ReadConfluentProtobufHeader(value.value_or(""), &header, &error);
      return Failure(error.code, "The record value's Confluent header: " + error.message, "");
    }
    if (!key) {
      if (config.value_converter == ValueConverter::kAvroGsr) {
        return Failure(decoding::kMissingGsrHeader,
                       "The record value does not start with a Glue Schema Registry header "
                       "(0x03, compression 0x00 or 0x05, 16-byte schema version id).",
                       "");
      }
      if (value && !value->empty() && (*value)[0] != 0) {
        return Failure(decoding::kWrongMagicByte,
                       "The record value does not start with the Confluent magic byte 0.", "");
      }
      return Failure(decoding::kTruncatedPayload,
                     "The record value ends before its Confluent header (magic byte 0, 4-byte "
                     "schema id).",
                     "");
    }
    const AvroVersionRef ref{*key, AvroVersionText(config.value_converter, *key)};
    const AvroVersionRef* version = &ref;
    Result<decoding::WriterSchema> schema =
        WriterSchemaOf(config.value_converter, ConfluentSourceOf(config), version->id);
    if (!schema.has_value()) {
      if (schema.error().code() != StatusCode::kNotFound) return Err(schema.error());
      const std::string registry =
          config.external_registry.has_value()
              ? "the external schema registry " + config.external_registry->url
              : std::string("the schema registry");
      return Failure(decoding::kSchemaNotFound,
                     "The writer schema " + version->id + " is not in " + registry + ".",
                     version->id);
    }
    if (config.value_converter == ValueConverter::kProtobufConfluent ||
        config.value_converter == ValueConverter::kProtobufGsr) {
      if (schema->type != decoding::WriterSchemaType::kProtobuf) {
        return Failure(decoding::kSchemaMismatch,
                       "The writer schema " + version->id + " is not a Protobuf schema.",
                       version->id);
      }
      Result<std::vector<int32_t>> path =
          config.value_converter == ValueConverter::kProtobufGsr
              ? decoding::GsrProtobufMessagePath(*schema, GsrIndexOf(version->key))
              : Result<std::vector<int32_t>>(ProtobufIndexesOf(version->key));
      Result<iceberg::Schema> mapped = path.has_value()
                                           ? decoding::ProtobufToIcebergSchema(*schema, *path)
                                           : Result<iceberg::Schema>(Err(path.error()));
      if (!mapped.has_value()) {
        const bool bad_index = mapped.error().code() == StatusCode::kNotFound;
        return Failure(bad_index ? decoding::kMalformedProtobuf : decoding::kSchemaMismatch,
                       "The writer schema " + version->id +
                           " cannot be mapped to Iceberg: " + mapped.error().message(),
                       version->id);
      }
      return *std::move(mapped);
    }
    if (config.value_converter == ValueConverter::kJsonSchemaConfluent) {
      if (schema->type != decoding::WriterSchemaType::kJson) {
        return Failure(decoding::kSchemaMismatch,
                       "The writer schema " + version->id + " is not a JSON Schema.", version->id);
      }
      Result<iceberg::Schema> mapped =
          registry::JsonSchemaToIceberg(schema->text, schema->references);
      if (!mapped.has_value()) {
        return Failure(decoding::kSchemaMismatch,
                       "The writer schema " + version->id +
                           " cannot be mapped to Iceberg: " + mapped.error().message(),
                       version->id);
      }
      return *std::move(mapped);
    }
    if (schema->type != decoding::WriterSchemaType::kAvro) {
      return Failure(decoding::kSchemaMismatch,
                     "The writer schema " + version->id + " is not an Avro schema.", version->id);
    }
    Result<avro::Schema> parsed = decoding::ParseAvroWriterSchema(*schema);
    Result<iceberg::Schema> mapped = parsed.has_value()
                                         ? decoding::AvroToIcebergSchema(*parsed)
                                         : Result<iceberg::Schema>(Err(parsed.error()));
    if (!mapped.has_value()) {
      return Failure(decoding::kSchemaMismatch,
                     "The writer schema " + version->id +
                         " cannot be mapped to Iceberg: " + mapped.error().message(),
                     version->id);
    }
    return *std::move(mapped);
  }

  Result<iceberg::Schema> ValueSchemaOfArn(const std::string& gsr_arn) {
    Result<registry::SchemaVersion> version = registry_.GetLatestSchemaVersion(gsr_arn);
    if (!version.has_value()) {
      return Err(version.error().WithContext("The schema " + gsr_arn + " (recordSchema.gsrArn)"));
    }
    Result<iceberg::Schema> mapped = registry::JsonSchemaToIceberg(version->definition);
    if (!mapped.has_value()) {
      return Err(InvalidArgument("The schema " + gsr_arn +
                                 " cannot be mapped to Iceberg: " + mapped.error().message()));
    }
    return mapped;
  }

  Result<TableLayout> LayoutFor(const ChannelConfig& config,
                                const std::optional<iceberg::Schema>& value_schema) {
    const decoding::ValueFormat format = ToValueFormat(config.value_converter);
    Result<iceberg::Schema> schema = decoding::ChannelTableSchema(
        format, UsesSchema(config.value_converter) ? value_schema : std::nullopt,
        config.include_kafka_metadata, config.partition_source, ToKeyFormat(config.key_converter));
    if (!schema.has_value()) {
      return Err(
          InvalidArgument("The channel's table schema is not valid: " + schema.error().message()));
    }
    Result<iceberg::PartitionSpec> spec = decoding::ChannelPartitionSpec(
        *schema, config.partition_strategy == catalog::PartitionStrategy::kTimeDay,
        config.partition_source);
    if (!spec.has_value()) {
      return Err(
          InvalidArgument("The channel's partition spec is not valid: " + spec.error().message()));
    }
    return TableLayout{*std::move(schema), *std::move(spec)};
  }

  registry::SchemaRegistry& registry_;
  ConfluentSchemaLookup confluent_;
};

}  // namespace

ConfluentSource ConfluentSourceOf(const ChannelConfig& config) {
  return ConfluentSource{RegistryAccount(config), config.external_registry,
                         catalog::ExternalRegistrySealContextOf(config)};
}

std::unique_ptr<RecordFormat> NewDecodingRecordFormat(registry::SchemaRegistry& registry,
                                                      ConfluentSchemaLookup confluent) {
  return std::make_unique<DecodingRecordFormat>(registry, std::move(confluent));
}

}  // namespace st::delivery
