// RecordFormat over decoding::PartitionedFileWriter and the built-in schema
// registry. A JSON channel's table follows the latest version of its gsrArn
// schema; a JSON_SCHEMA_GSR channel's table follows the schema version its
// first record names, and later records must name versions that map to the
// same columns (else SCHEMA_MISMATCH, decided by the writer).
#include <mutex>

#include "decoding/channel_schema.h"
#include "decoding/partitioned_file_writer.h"
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
  }
  return decoding::ValueFormat::kJson;
}

bool UsesSchema(ValueConverter converter) {
  return converter == ValueConverter::kJson || converter == ValueConverter::kJsonSchemaGsr;
}

// The schema version id a GSR-framed value names, or nullopt when the
// framing is wrong (the writer reports those records itself).
std::optional<std::string> GsrVersionId(const std::optional<std::string>& value) {
  if (!value || value->size() < kGsrHeaderBytes || (*value)[0] != 0x03 ||
      ((*value)[1] != 0x00 && (*value)[1] != 0x05)) {
    return std::nullopt;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (size_t i = 2; i < kGsrHeaderBytes; ++i) {
    if (i == 6 || i == 8 || i == 10 || i == 12) id += '-';
    const auto byte = static_cast<unsigned char>((*value)[i]);
    id += kHex[byte >> 4];
    id += kHex[byte & 15];
  }
  return id;
}

class RegistryLookup final : public decoding::GsrSchemaLookup {
 public:
  explicit RegistryLookup(registry::SchemaRegistry& registry) : registry_(registry) {}
  Result<std::string> Definition(const std::string& schema_version_id) override {
    Result<registry::SchemaVersion> version = registry_.GetSchemaVersionById(schema_version_id);
    if (!version.has_value()) {
      if (version.error().code() == StatusCode::kInvalidArgument) {
        return Err(NotFound(version.error().message()));
      }
      return Err(version.error());
    }
    return version->definition;
  }

 private:
  registry::SchemaRegistry& registry_;
};

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

class DecodingRecordFormat final : public RecordFormat {
 public:
  explicit DecodingRecordFormat(registry::SchemaRegistry& registry) : registry_(registry) {}

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
      Result<registry::SchemaVersion> version = registry_.GetSchemaVersionById(*id);
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
    }
    ST_ASSIGN_OR_RETURN(TableLayout layout, LayoutFor(config, value_schema));
    return LayoutOutcome{std::move(layout), std::nullopt};
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
    options.codec = std::string(catalog::IcebergCompressionCodec(config.compression));
    options.data_location = data_location;
    if (config.value_converter == ValueConverter::kJsonSchemaGsr) {
      iceberg::Schema table_schema = options.schema;
      ChannelConfig copy = config;
      options.schema_matches = [table_schema, copy](const std::string& definition) -> Result<bool> {
        ST_ASSIGN_OR_RETURN(iceberg::Schema mapped, registry::JsonSchemaToIceberg(definition));
        ST_ASSIGN_OR_RETURN(
            iceberg::Schema expected,
            decoding::ChannelTableSchema(decoding::ValueFormat::kJsonSchemaGsr, mapped,
                                         copy.include_kafka_metadata, copy.partition_source));
        return expected.fields() == table_schema.fields();
      };
    }
    auto writer =
        std::make_unique<DecodingBatchWriter>(std::make_unique<RegistryLookup>(registry_));
    ST_TRY(writer->Open(std::move(options), io, random));
    return std::unique_ptr<BatchWriter>(std::move(writer));
  }

 private:
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
        config.include_kafka_metadata, config.partition_source);
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
};

}  // namespace

std::unique_ptr<RecordFormat> NewDecodingRecordFormat(registry::SchemaRegistry& registry) {
  return std::make_unique<DecodingRecordFormat>(registry);
}

}  // namespace st::delivery
