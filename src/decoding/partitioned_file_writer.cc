#include "decoding/partitioned_file_writer.h"

#include <cstdio>
#include <map>
#include <unordered_map>
#include <utility>

#include "common/utc_time.h"
#include "decoding/avro_plan_cache_internal.h"
#include "decoding/avro_shredder_internal.h"
#include "decoding/channel_schema.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/confluent_framing_internal.h"
#include "decoding/gsr_framing_internal.h"
#include "decoding/json_shredder_internal.h"
#include "decoding/kafka_metadata_internal.h"
#include "decoding/protobuf_plan_cache_internal.h"
#include "decoding/protobuf_shredder_internal.h"
#include "decoding/shred_plan_internal.h"
#include "iceberg/partitioned_data_files.h"

namespace st::decoding {
namespace {

std::string FormatMicros(int64_t micros) {
  return FormatUtcMillis(std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          std::chrono::microseconds(micros))));
}

// Whether `text` is one JSON value with only whitespace around it, judged by
// its structure (strings, brackets, and commas or colons outside them); the
// shredder checks the rest. A key wrapped as {"key":<text>} must not be able
// to close the wrapper or add fields of its own ("1,\"x\":2").
bool IsOneJsonValue(std::string_view text) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  size_t i = 0;
  const size_t n = text.size();
  while (i < n && space(text[i])) ++i;
  if (i == n) return false;
  size_t depth = 0;
  while (i < n) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < n && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
      if (i >= n) return false;  // Unterminated.
      ++i;
      if (depth == 0) break;
    } else if (c == '{' || c == '[') {
      ++depth;
      ++i;
    } else if (c == '}' || c == ']') {
      if (depth == 0) return false;
      ++i;
      if (--depth == 0) break;
    } else if (depth == 0 && (c == ',' || c == ':' || space(c))) {
      break;  // The end of a top-level number or literal.
    } else {
      ++i;
    }
  }
  if (depth != 0) return false;
  while (i < n && space(text[i])) ++i;
  return i == n;
}

RecordError MakeError(std::string_view code, std::string message) {
  return RecordError{std::string(code), std::move(message), ""};
}

// Where a partition field's source value comes from.
struct PartitionSource {
  int slot = -1;  // Index into JsonShredder::partition_values(), or -1 for _kafka.timestamp.
  iceberg::TypePtr source_type;
  iceberg::Transform transform = iceberg::Transform::Identity();
};

// Per schema version id: whether records of that version may be written.
struct GsrVersionState {
  bool matches = false;
  std::string mismatch;  // Why not.
};

// What the delivery writer keeps with each open data file: the rows decoded
// since the last hand-off to its Parquet writer, and how much it holds.
struct FileBuffers : iceberg::PartitionedDataFiles::Attachment {
  explicit FileBuffers(const parquet::Schema& schema) : buffers(schema) {}
  ColumnBuffers buffers;
  int64_t pending_bytes = 0;  // Input bytes decoded into `buffers` since the last flush.
  int64_t encoded_bytes = 0;  // The Parquet writer's buffered row group after that flush.
};

using DataFileHandle = iceberg::PartitionedDataFiles::File;

FileBuffers& BuffersOf(DataFileHandle& file) { return static_cast<FileBuffers&>(*file.attachment); }

}  // namespace

class PartitionedFileWriter::Impl {
 public:
  explicit Impl(WriterOptions options) : options_(std::move(options)) {}

  Status Init(iceberg::FileIO& io, Random& random) {
    iceberg::PartitionedDataFilesOptions files_options;
    files_options.data_location = options_.data_location;
    ST_ASSIGN_OR_RETURN(files_options.parquet.codec, iceberg::ParquetCodecFromName(options_.codec));
    files_options.parquet.row_group_size_bytes = options_.row_group_bytes;
    // Delivery writes the default metrics (truncate(16)).
    ST_ASSIGN_OR_RETURN(files_,
                        iceberg::PartitionedDataFiles::Make(io, options_.schema, options_.spec,
                                                            std::move(files_options), random));
    parquet_schema_ = &files_->parquet_schema();
    ST_ASSIGN_OR_RETURN(ShredPlan plan, MakeShredPlan(options_.schema, *parquet_schema_));
    plan_ = std::make_unique<ShredPlan>(std::move(plan));
    if (plan_->has_kafka) {
      ST_ASSIGN_OR_RETURN(KafkaMetadataWriter kafka,
                          KafkaMetadataWriter::Make(plan_->kafka, options_.key_format));
      kafka_writer_ = std::make_unique<KafkaMetadataWriter>(kafka);
      const ShredNode* key = kafka_writer_->key_node();
      if (options_.key_format == KeyFormat::kJsonSchemaConfluent && key != nullptr) {
        // The JSON walk starts at its plan's root, an object's fields. A
        // copy of a struct key node (same columns and levels) makes the key
        // object that root; any other key (a string, number, list, ...) is
        // the one field of a copy of `_kafka` holding only it, and DecodeKey
        // walks the payload wrapped as {"key": <payload>}.
        json_key_plan_ = std::make_unique<ShredPlan>();
        json_key_wrapped_ = key->kind != ShredNode::Kind::kStruct;
        if (!json_key_wrapped_) {
          json_key_plan_->root = *key;
        } else {
          ShredNode& root = json_key_plan_->root;
          root = plan_->kafka;
          root.children = {*key};
          root.child_by_name.clear();
          root.child_by_name.emplace(key->name, 0);
          root.seen.assign(1, 0);
          root.next_hint = 0;
          root.first_column = key->first_column;
          root.end_column = key->end_column;
        }
        json_key_shredder_ = std::make_unique<JsonShredder>(*json_key_plan_, 0);
      }
    }
    const bool raw =
        options_.format == ValueFormat::kByteArray || options_.format == ValueFormat::kString;
    if (raw) {
      const auto want = options_.format == ValueFormat::kString ? iceberg::TypeId::kString
                                                                : iceberg::TypeId::kBinary;
      if (plan_->root.children.size() != 1 || plan_->root.children[0].type_id != want) {
        return InvalidArgument(
            "a BYTE_ARRAY/STRING channel's table must have one value column "
            "of binary/string type (ChannelTableSchema)");
      }
    }
    if ((options_.format == ValueFormat::kJsonSchemaGsr ||
         options_.format == ValueFormat::kAvroGsr ||
         options_.format == ValueFormat::kProtobufGsr) &&
        options_.gsr == nullptr) {
      return InvalidArgument("a GSR-framed writer needs a GsrSchemaLookup");
    }
    if ((options_.format == ValueFormat::kAvroConfluent ||
         options_.format == ValueFormat::kProtobufConfluent ||
         options_.format == ValueFormat::kJsonSchemaConfluent) &&
        !options_.writer_schemas) {
      return InvalidArgument("a Confluent-framed writer needs a WriterSchemaLookup");
    }
    if (KeyHasSchema(options_.key_format) && !options_.writer_schemas) {
      return InvalidArgument("Avro and Protobuf keys need a WriterSchemaLookup");
    }
    int slots = 0;
    for (const auto& field : options_.spec.fields()) {
      PartitionSource source;
      source.transform = field.transform;
      source.source_type = options_.schema.FindField(field.source_id)->type;
      const int32_t kafka_ts =
          plan_->has_kafka
              ? options_.schema.FindFieldByName(std::string(kKafkaMetadataColumn) + ".timestamp")
                    ->id
              : -1;
      if (field.source_id == kafka_ts) {
        if (!options_.include_metadata) {
          return InvalidArgument("partition field " + field.name +
                                 " is sourced from _kafka.timestamp, which include_metadata=false "
                                 "leaves null; enable Kafka metadata or partition on a value "
                                 "column");
        }
        source.slot = -1;
      } else {
        ShredNode* node = nullptr;
        for (auto& child : plan_->root.children) {
          const auto* top = options_.schema.FindFieldByName(child.name);
          if (top != nullptr && top->id == field.source_id) node = &child;
        }
        if (node == nullptr || node->kind != ShredNode::Kind::kPrimitive) {
          return InvalidArgument("partition field " + field.name +
                                 " must be sourced from a top-level value column or "
                                 "_kafka.timestamp");
        }
        if (raw) {
          return InvalidArgument(
              "a BYTE_ARRAY/STRING channel can only partition on "
              "_kafka.timestamp");
        }
        if (node->partition_slot < 0) node->partition_slot = slots++;
        source.slot = node->partition_slot;
      }
      sources_.push_back(std::move(source));
    }
    shredder_ = std::make_unique<JsonShredder>(*plan_, slots);
    avro_shredder_ = std::make_unique<AvroShredder>(*plan_, slots);
    proto_shredder_ = std::make_unique<ProtobufShredder>(*plan_, slots);
    scratch_ = std::make_unique<ColumnBuffers>(*parquet_schema_);
    return Status::OK();
  }

  Result<std::optional<RecordError>> Add(const KafkaRecord& record) {
    if (!broken_.ok()) return Err(broken_);
    if (!record.value) {
      return MakeError(kNullValue, "record value is null (a tombstone); a row needs a value");
    }
    std::string_view value = *record.value;
    if (static_cast<int64_t>(value.size()) > options_.max_record_bytes) {
      return MakeError(kRecordTooLarge, "record value has " + std::to_string(value.size()) +
                                            " bytes, more than the maximum of " +
                                            std::to_string(options_.max_record_bytes));
    }
    // Records mostly share the partition of the one before: decode straight
    // into that file's buffers and move the row only when it differs.
    DataFileHandle* guess = last_file_;
    ColumnBuffers& target = guess != nullptr ? BuffersOf(*guess).buffers : *scratch_;
    if (guess == nullptr) scratch_->Clear();
    target.Mark(&marks_);
    Result<std::optional<RecordError>> decoded = Decode(record, value, target);
    if (!decoded.has_value() || decoded->has_value()) {
      target.Truncate(marks_);
      return decoded;
    }
    if (std::optional<RecordError> rejected = PartitionOf(record)) {
      target.Truncate(marks_);
      return rejected;
    }
    auto file_result = files_->FileFor(partition_values_);
    if (!file_result) {
      target.Truncate(marks_);
      // A partition value of the wrong kind is the record's; anything else
      // (opening the file) is storage's, and breaks the writer.
      if (file_result.error().code() == StatusCode::kInvalidArgument) {
        return Err(file_result.error());
      }
      return Err(Fail(file_result.error()));
    }
    DataFileHandle* file = *file_result;
    if (file->attachment == nullptr)
      file->attachment = std::make_unique<FileBuffers>(*parquet_schema_);
    FileBuffers& buffers = BuffersOf(*file);
    if (file == guess) {
      buffers.buffers.AddRow();
    } else {
      buffers.buffers.AppendRecord(target, marks_);
      target.Truncate(marks_);
    }
    last_file_ = file;
    buffers.pending_bytes += static_cast<int64_t>(value.size());
    held_bytes_ += static_cast<int64_t>(value.size());
    if (buffers.pending_bytes >= options_.batch_flush_bytes) {
      Status flushed = FlushFile(*file);
      if (!flushed.ok()) return Err(Fail(flushed));
      if (file->writer->EstimatedFileSizeBytes() >= options_.target_file_bytes) {
        ST_TRY(CloseAndForget(file));
      }
      if (BufferedBytes() > options_.max_buffered_bytes) ST_TRY(CloseLargest());
    }
    return std::optional<RecordError>();
  }

  // The record's value columns and _kafka into `out`. nullopt: decoded. A
  // RecordError: the record cannot become a row. An error: the GSR lookup
  // failed, which is not the record's fault (the caller retries it).
  Result<std::optional<RecordError>> Decode(const KafkaRecord& record, std::string_view value,
                                            ColumnBuffers& out) {
    RecordError error;
    switch (options_.format) {
      case ValueFormat::kJson:
        if (!shredder_->Shred(value, out, &error)) return error;
        break;
      case ValueFormat::kJsonSchemaGsr: {
        GsrFrame frame;
        if (!ParseGsrFrame(value, &frame, &error)) return error;
        error.schema_version_id = frame.schema_version_id;
        ST_ASSIGN_OR_RETURN(const GsrVersionState* state, VersionState(frame.schema_version_id));
        if (state == nullptr) {
          error.code = std::string(kSchemaNotFound);
          error.message =
              "schema version " + frame.schema_version_id + " is not in the schema registry";
          return error;
        }
        if (!state->matches) {
          error.code = std::string(kSchemaMismatch);
          error.message = state->mismatch;
          return error;
        }
        std::string_view payload = frame.payload;
        if (frame.zlib) {
          if (!InflateGsrPayload(payload, options_.max_record_bytes, &inflated_, &error)) {
            return error;
          }
          payload = inflated_;
        }
        if (!shredder_->Shred(payload, out, &error)) return error;
        break;
      }
      case ValueFormat::kJsonSchemaConfluent: {
        ConfluentFrame frame;
        if (!ParseConfluentFrame(value, false, &frame, &error)) return error;
        error.schema_version_id = std::to_string(frame.schema_id);
        ST_ASSIGN_OR_RETURN(const GsrVersionState* state, ConfluentJsonState(frame.schema_id));
        if (state == nullptr) {
          error.code = std::string(kSchemaNotFound);
          error.message =
              "writer schema " + error.schema_version_id + " is not in the schema registry";
          return error;
        }
        if (!state->matches) {
          error.code = std::string(kSchemaMismatch);
          error.message = state->mismatch;
          return error;
        }
        if (!shredder_->Shred(frame.payload, out, &error)) return error;
        break;
      }
      case ValueFormat::kAvroConfluent:
      case ValueFormat::kAvroGsr: {
        ST_ASSIGN_OR_RETURN(std::optional<RecordError> rejected, DecodeAvro(value, out));
        if (rejected) return rejected;
        break;
      }
      case ValueFormat::kProtobufConfluent: {
        ST_ASSIGN_OR_RETURN(std::optional<RecordError> rejected, DecodeProtobuf(value, out));
        if (rejected) return rejected;
        break;
      }
      case ValueFormat::kProtobufGsr: {
        ST_ASSIGN_OR_RETURN(std::optional<RecordError> rejected, DecodeProtobufGsr(value, out));
        if (rejected) return rejected;
        break;
      }
      case ValueFormat::kByteArray:
      case ValueFormat::kString:
        if (!WriteRawValue(plan_->root.children[0], value, options_.format == ValueFormat::kString,
                           out, &error)) {
          return error;
        }
        break;
    }
    if (kafka_writer_ != nullptr &&
        !kafka_writer_->Write(record, options_.include_metadata, out, &error)) {
      return error;
    }
    if (kafka_writer_ != nullptr && options_.include_metadata &&
        KeyHasSchema(options_.key_format)) {
      return DecodeKey(record, out);
    }
    return std::optional<RecordError>();
  }

  // A Confluent-framed Avro or Protobuf key into the table's `_kafka.key`.
  Result<std::optional<RecordError>> DecodeKey(const KafkaRecord& record, ColumnBuffers& out) {
    const ShredNode* node = kafka_writer_->key_node();
    if (!record.key) {
      if (node != nullptr) EmitNulls(*node, static_cast<int16_t>(node->def_level - 1), 0, out);
      return std::optional<RecordError>();
    }
    const bool protobuf = options_.key_format == KeyFormat::kProtobufConfluent;
    RecordError error;
    ConfluentFrame frame;
    if (!ParseConfluentFrame(*record.key, protobuf, &frame, &error)) return KeyError(error);
    if (options_.key_format == KeyFormat::kJsonSchemaConfluent && node != nullptr) {
      error.schema_version_id = std::to_string(frame.schema_id);
      ST_ASSIGN_OR_RETURN(const GsrVersionState* state, JsonKeyState(frame.schema_id));
      if (state == nullptr) {
        error.code = std::string(kSchemaNotFound);
        error.message =
            "writer schema " + error.schema_version_id + " is not in the schema registry";
        return KeyError(error);
      }
      if (!state->matches) {
        error.code = std::string(kSchemaMismatch);
        error.message = state->mismatch;
        return KeyError(error);
      }
      std::string_view payload = frame.payload;
      if (json_key_wrapped_) {
        if (!IsOneJsonValue(payload)) {
          error.code = std::string(kMalformedJson);
          error.message = "record key is not one JSON value";
          return KeyError(error);
        }
        wrapped_key_.assign(R"({"key":)");
        wrapped_key_.append(payload);
        wrapped_key_.push_back('}');
        payload = wrapped_key_;
      }
      if (!json_key_shredder_->Shred(payload, out, &error)) return KeyError(error);
      return std::optional<RecordError>();
    }
    error.schema_version_id = std::to_string(frame.schema_id);
    const int32_t id = frame.schema_id;
    AvroPlanCache::Fetch fetch = [this, id] { return options_.writer_schemas(id); };
    if (node == nullptr) {
      // The channel adds `_kafka.key` for a key version before its records
      // get here; one it could not add is refused whole.
      Result<WriterSchema> fetched = fetch();
      if (!fetched && fetched.error().code() != StatusCode::kNotFound) return Err(fetched.error());
      error.code = std::string(fetched ? kSchemaIncompatible : kSchemaNotFound);
      error.message =
          fetched ? "key schema " + error.schema_version_id +
                        " was not applied: the table has no _kafka.key column"
                  : "writer schema " + error.schema_version_id + " is not in the schema registry";
      return KeyError(error);
    }
    if (protobuf) {
      ST_ASSIGN_OR_RETURN(const ProtoWriterVersion* version,
                          proto_key_plans_.Get(error.schema_version_id, frame.message_indexes,
                                               options_.schema.schema_id(), *plan_, fetch, node));
      if (UnusableVersion(version, &error)) return KeyError(error);
      if (!proto_shredder_->ShredInto(*version->plan, *node, frame.payload, out, &error)) {
        return KeyError(error);
      }
      return std::optional<RecordError>();
    }
    ST_ASSIGN_OR_RETURN(
        const AvroWriterVersion* version,
        key_plans_.Get(error.schema_version_id, options_.schema.schema_id(), *plan_, fetch, node));
    if (UnusableVersion(version, &error)) return KeyError(error);
    if (!avro_shredder_->ShredInto(*version->plan, *node, frame.payload, out, &error)) {
      return KeyError(error);
    }
    return std::optional<RecordError>();
  }

  // Says that the error is the key's, not the value's.
  static std::optional<RecordError> KeyError(RecordError error) {
    constexpr std::string_view kValue = "record value";
    if (error.message.compare(0, kValue.size(), kValue) == 0) {
      error.message.replace(0, kValue.size(), "record key");
    } else {
      error.message = "record key: " + error.message;
    }
    return error;
  }

  // Whether a cached writer version cannot decode records (not registered,
  // or its plan failed), with `error` saying why.
  template <typename Version>
  static bool UnusableVersion(const Version* version, RecordError* error) {
    if (version == nullptr) {
      error->code = std::string(kSchemaNotFound);
      error->message =
          "writer schema " + error->schema_version_id + " is not in the schema registry";
      return true;
    }
    if (version->plan != nullptr) return false;
    error->code = version->code;
    error->message = version->message;
    return true;
  }

  // An Avro value's framing, writer schema and payload into `out`.
  Result<std::optional<RecordError>> DecodeAvro(std::string_view value, ColumnBuffers& out) {
    RecordError error;
    std::string_view payload;
    AvroPlanCache::Fetch fetch;
    if (options_.format == ValueFormat::kAvroConfluent) {
      ConfluentFrame frame;
      if (!ParseConfluentFrame(value, false, &frame, &error)) return error;
      error.schema_version_id = std::to_string(frame.schema_id);
      payload = frame.payload;
      const int32_t id = frame.schema_id;
      fetch = [this, id] { return options_.writer_schemas(id); };
    } else {
      GsrFrame frame;
      if (!ParseGsrFrame(value, &frame, &error)) return error;
      error.schema_version_id = frame.schema_version_id;
      payload = frame.payload;
      if (frame.zlib) {
        if (!InflateGsrPayload(payload, options_.max_record_bytes, &inflated_, &error)) {
          if (error.code == kMalformedJson) error.code = std::string(kMalformedAvro);
          return error;
        }
        payload = inflated_;
      }
      fetch = [this, &error]() -> Result<WriterSchema> {
        ST_ASSIGN_OR_RETURN(std::string definition,
                            options_.gsr->Definition(error.schema_version_id));
        return WriterSchema{WriterSchemaType::kAvro, std::move(definition)};
      };
    }
    ST_ASSIGN_OR_RETURN(
        const AvroWriterVersion* version,
        avro_plans_.Get(error.schema_version_id, options_.schema.schema_id(), *plan_, fetch));
    if (UnusableVersion(version, &error)) return error;
    if (!avro_shredder_->Shred(*version->plan, payload, out, &error)) return error;
    return std::optional<RecordError>();
  }

  // A Confluent-framed Protobuf value's framing, writer schema and payload into `out`.
  Result<std::optional<RecordError>> DecodeProtobuf(std::string_view value, ColumnBuffers& out) {
    RecordError error;
    ConfluentFrame frame;
    if (!ParseConfluentFrame(value, true, &frame, &error)) return error;
    error.schema_version_id = std::to_string(frame.schema_id);
    const int32_t id = frame.schema_id;
    ST_ASSIGN_OR_RETURN(const ProtoWriterVersion* version,
                        proto_plans_.Get(error.schema_version_id, frame.message_indexes,
                                         options_.schema.schema_id(), *plan_,
                                         [this, id] { return options_.writer_schemas(id); }));
    if (UnusableVersion(version, &error)) return error;
    if (!proto_shredder_->Shred(*version->plan, frame.payload, out, &error)) return error;
    return std::optional<RecordError>();
  }

  // A GSR-framed Protobuf value (its message index, then the message) into `out`.
  Result<std::optional<RecordError>> DecodeProtobufGsr(std::string_view value, ColumnBuffers& out) {
    RecordError error;
    GsrFrame frame;
    if (!ParseGsrFrame(value, &frame, &error)) return error;
    error.schema_version_id = frame.schema_version_id;
    std::string_view payload = frame.payload;
    if (frame.zlib) {
      if (!InflateGsrPayload(payload, options_.max_record_bytes, &inflated_, &error)) {
        if (error.code == kMalformedJson) error.code = std::string(kMalformedProtobuf);
        return error;
      }
      payload = inflated_;
    }
    uint32_t index = 0;
    size_t index_bytes = 0;
    if (!ReadGsrMessageIndex(payload, &index, &index_bytes, &error)) return error;
    payload.remove_prefix(index_bytes);
    gsr_index_.assign(1, static_cast<int32_t>(index));  // Bit for bit; the cache casts back.
    ST_ASSIGN_OR_RETURN(
        const ProtoWriterVersion* version,
        proto_plans_.Get(
            error.schema_version_id, gsr_index_, options_.schema.schema_id(), *plan_,
            [this, &error] { return options_.gsr->Version(error.schema_version_id); }, nullptr,
            ProtoMessageSelection::kGsrIndex));
    if (UnusableVersion(version, &error)) return error;
    if (!proto_shredder_->Shred(*version->plan, payload, out, &error)) return error;
    return std::optional<RecordError>();
  }

  // The partition tuple of the record just decoded, into partition_values_;
  // a RecordError when it has none.
  std::optional<RecordError> PartitionOf(const KafkaRecord& record) {
    partition_values_.clear();
    for (const auto& source : sources_) {
      Value v;
      if (source.slot >= 0) {
        v = IsAvro() ? avro_shredder_->partition_values()[source.slot]
            : options_.format == ValueFormat::kProtobufConfluent ||
                    options_.format == ValueFormat::kProtobufGsr
                ? proto_shredder_->partition_values()[source.slot]
                : shredder_->partition_values()[source.slot];
      } else if (options_.include_metadata && record.timestamp_ms >= 0) {
        v = Value::Int64(record.timestamp_ms * 1000);
      }
      if (v.is_null()) {
        return MakeError(kMissingPartitionValue,
                         source.slot >= 0 ? "partition source value is missing or null"
                                          : "record has no Kafka timestamp to partition on");
      }
      if (horizon_micros_.has_value() && v.kind() == Value::Kind::kInt64 &&
          source.source_type->id() == iceberg::TypeId::kTimestampTz &&
          v.int64_value() < *horizon_micros_) {
        return MakeError(kRecordExpired, "timestamp " + FormatMicros(v.int64_value()) +
                                             " is older than the table's record expiration "
                                             "horizon " +
                                             FormatMicros(*horizon_micros_) +
                                             " (now minus its days)");
      }
      auto transformed = source.transform.Apply(*source.source_type, v);
      if (!transformed) {
        return MakeError(kTypeMismatch, "partition value: " + transformed.error().message());
      }
      partition_values_.push_back(std::move(*transformed));
    }
    return std::nullopt;
  }

  int64_t BufferedBytes() const { return held_bytes_; }

  bool IsAvro() const {
    return options_.format == ValueFormat::kAvroConfluent ||
           options_.format == ValueFormat::kAvroGsr;
  }

  void SetExpirationHorizon(std::optional<int64_t> horizon_micros) {
    horizon_micros_ = horizon_micros;
  }

  Result<std::vector<iceberg::DataFile>> Finish() {
    if (!broken_.ok()) return Err(broken_);
    Status status;
    for (DataFileHandle* file : files_->OpenFiles()) {
      status = FlushFile(*file);
      if (!status.ok()) break;
    }
    if (status.ok()) status = files_->CloseAll();
    last_file_ = nullptr;
    held_bytes_ = 0;
    if (!status.ok()) return Err(Fail(status));
    return files_->TakeClosed();
  }

  void Abort() {
    files_->DiscardAll();
    last_file_ = nullptr;
    held_bytes_ = 0;
  }

 private:
  Status Fail(Status status) {
    broken_ = std::move(status);
    return broken_;
  }

  // nullptr: the version is not in the registry (not cached: it may appear).
  Result<const GsrVersionState*> VersionState(const std::string& id) {
    auto it = versions_.find(id);
    if (it != versions_.end()) return &it->second;
    auto definition = options_.gsr->Definition(id);
    if (!definition) {
      if (definition.error().code() == StatusCode::kNotFound) {
        return static_cast<const GsrVersionState*>(nullptr);
      }
      return Err(definition.error().WithContext("looking up GSR schema version " + id));
    }
    GsrVersionState state{true, ""};
    if (options_.schema_matches) {
      auto matches =
          options_.schema_matches(WriterSchema{WriterSchemaType::kJson, *definition, {}});
      if (!matches) {
        state = {false, "schema version " + id +
                            " cannot be mapped to the table: " + matches.error().message()};
      } else if (!*matches) {
        state = {false, "schema version " + id +
                            " does not map to the table's columns; produce with the schema the "
                            "channel's table was created from"};
      }
    }
    return &versions_.emplace(id, std::move(state)).first->second;
  }

  // As VersionState, for a Confluent schema id: besides mapping to the
  // table, the schema must be a JSON Schema (an Avro or Protobuf id on this
  // channel is a producer using the wrong serializer).
  Result<const GsrVersionState*> ConfluentJsonState(int32_t id) {
    auto it = confluent_versions_.find(id);
    if (it != confluent_versions_.end()) return &it->second;
    const std::string name = std::to_string(id);
    Result<WriterSchema> schema = options_.writer_schemas(id);
    if (!schema) {
      if (schema.error().code() == StatusCode::kNotFound) {
        return static_cast<const GsrVersionState*>(nullptr);
      }
      return Err(schema.error().WithContext("looking up writer schema " + name));
    }
    GsrVersionState state{true, ""};
    if (schema->type != WriterSchemaType::kJson) {
      state = {false, "writer schema " + name + " is a" +
                          (schema->type == WriterSchemaType::kProtobuf ? " PROTOBUF" : "n AVRO") +
                          " schema; this channel decodes JSON Schema"};
    } else if (options_.schema_matches) {
      auto matches = options_.schema_matches(*schema);
      if (!matches) {
        state = {false, "writer schema " + name +
                            " cannot be mapped to the table: " + matches.error().message()};
      } else if (!*matches) {
        state = {false, "writer schema " + name +
                            " does not map to the table's columns; produce with the schema the "
                            "channel's table was created from"};
      }
    }
    return &confluent_versions_.emplace(id, std::move(state)).first->second;
  }

  // Whether a JSON key's schema id is a JSON Schema (nullptr: not
  // registered). The table's `_kafka.key` was evolved for it by the channel.
  Result<const GsrVersionState*> JsonKeyState(int32_t id) {
    auto it = json_key_versions_.find(id);
    if (it != json_key_versions_.end()) return &it->second;
    Result<WriterSchema> schema = options_.writer_schemas(id);
    if (!schema) {
      if (schema.error().code() == StatusCode::kNotFound) {
        return static_cast<const GsrVersionState*>(nullptr);
      }
      return Err(schema.error().WithContext("looking up key schema " + std::to_string(id)));
    }
    GsrVersionState state{true, ""};
    if (schema->type != WriterSchemaType::kJson) {
      state = {false, "writer schema " + std::to_string(id) + " is not a JSON Schema; " +
                          "keyConverter JSON_SCHEMA_CONFLUENT decodes JSON keys"};
    }
    if (json_key_versions_.size() >= 4096) json_key_versions_.clear();  // Bounded.
    return &json_key_versions_.emplace(id, std::move(state)).first->second;
  }

  Status FlushFile(DataFileHandle& file) {
    FileBuffers& buffers = BuffersOf(file);
    Status status = buffers.buffers.FlushTo(*file.writer);
    held_bytes_ -= buffers.pending_bytes + buffers.encoded_bytes;
    buffers.pending_bytes = 0;
    buffers.encoded_bytes = file.writer->EstimatedFileSizeBytes() - file.sink->Position();
    held_bytes_ += buffers.encoded_bytes;
    return status;
  }

  // Flushes and closes `file`; it is gone afterwards. A failure breaks the writer.
  Status CloseAndForget(DataFileHandle* file) {
    if (last_file_ == file) last_file_ = nullptr;
    Status status = FlushFile(*file);
    held_bytes_ -= BuffersOf(*file).encoded_bytes;
    Status closed = files_->Close(file);
    if (status.ok()) status = closed;
    if (!status.ok()) return Fail(status);
    return Status::OK();
  }

  Status CloseLargest() {
    DataFileHandle* largest = nullptr;
    int64_t largest_bytes = -1;
    for (DataFileHandle* file : files_->OpenFiles()) {
      const FileBuffers& buffers = BuffersOf(*file);
      const int64_t bytes = buffers.pending_bytes + buffers.encoded_bytes;
      if (bytes > largest_bytes) {
        largest = file;
        largest_bytes = bytes;
      }
    }
    return largest == nullptr ? Status::OK() : CloseAndForget(largest);
  }

  WriterOptions options_;
  std::unique_ptr<iceberg::PartitionedDataFiles> files_;
  const parquet::Schema* parquet_schema_ = nullptr;  // files_'s.
  std::unique_ptr<ShredPlan> plan_;
  std::unique_ptr<KafkaMetadataWriter> kafka_writer_;
  std::vector<PartitionSource> sources_;
  std::unique_ptr<JsonShredder> shredder_;
  std::unique_ptr<AvroShredder> avro_shredder_;
  AvroPlanCache avro_plans_;
  AvroPlanCache key_plans_;         // Avro keys, resolved onto `_kafka.key`.
  ProtoPlanCache proto_key_plans_;  // Protobuf keys, likewise.
  std::unique_ptr<ProtobufShredder> proto_shredder_;
  ProtoPlanCache proto_plans_;
  std::unique_ptr<ColumnBuffers> scratch_;
  std::vector<Value> partition_values_;
  std::vector<ColumnMark> marks_;
  // Sum of pending_bytes + encoded_bytes over open files: buffered_bytes()
  // is on the caller's per-record path, so it must not walk the columns.
  int64_t held_bytes_ = 0;
  std::optional<int64_t> horizon_micros_;
  std::string inflated_;
  std::vector<int32_t> gsr_index_;  // Scratch: the GSR message index as a cache key.
  std::unordered_map<std::string, GsrVersionState> versions_;
  // kJsonSchemaConfluent's versions_, by schema id. Bounded by the ids
  // registered: unknown ids are not cached.
  std::unordered_map<int32_t, GsrVersionState> confluent_versions_;
  // JSON keys: the key node as a plan root, its walker, and the ids seen.
  std::unique_ptr<ShredPlan> json_key_plan_;
  std::unique_ptr<JsonShredder> json_key_shredder_;
  bool json_key_wrapped_ = false;  // `_kafka.key` is not a struct: see Open.
  std::string wrapped_key_;        // Scratch: {"key": <payload>}.
  std::unordered_map<int32_t, GsrVersionState> json_key_versions_;
  // The file the previous record went to: the next one is decoded straight
  // into its buffers (files_ owns it).
  DataFileHandle* last_file_ = nullptr;
  Status broken_;
};

Result<std::unique_ptr<PartitionedFileWriter>> PartitionedFileWriter::Make(WriterOptions options,
                                                                           iceberg::FileIO& io,
                                                                           Random& random) {
  if (options.data_location.empty()) return Err(InvalidArgument("data_location is empty"));
  if (options.target_file_bytes <= 0 || options.max_record_bytes <= 0 ||
      options.batch_flush_bytes <= 0 || options.row_group_bytes <= 0) {
    return Err(
        InvalidArgument("writer sizes (target_file_bytes, max_record_bytes, "
                        "batch_flush_bytes, row_group_bytes) must be positive"));
  }
  auto impl = std::make_unique<Impl>(std::move(options));
  ST_TRY(impl->Init(io, random));
  return std::unique_ptr<PartitionedFileWriter>(new PartitionedFileWriter(std::move(impl)));
}

PartitionedFileWriter::PartitionedFileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PartitionedFileWriter::~PartitionedFileWriter() = default;

Result<std::optional<RecordError>> PartitionedFileWriter::Add(const KafkaRecord& record) {
  return impl_->Add(record);
}
int64_t PartitionedFileWriter::buffered_bytes() const { return impl_->BufferedBytes(); }
Result<std::vector<iceberg::DataFile>> PartitionedFileWriter::Finish() { return impl_->Finish(); }
void PartitionedFileWriter::Abort() { impl_->Abort(); }
void PartitionedFileWriter::SetExpirationHorizon(std::optional<int64_t> horizon_micros) {
  impl_->SetExpirationHorizon(horizon_micros);
}

}  // namespace st::decoding
