#include "decoding/partitioned_file_writer.h"

#include <cstdio>
#include <map>
#include <unordered_map>
#include <utility>

#include "common/utc_time.h"
#include "common/uuid.h"
#include "decoding/channel_schema.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/gsr_framing_internal.h"
#include "decoding/json_shredder_internal.h"
#include "decoding/kafka_metadata_internal.h"
#include "decoding/shred_plan_internal.h"
#include "iceberg/conversions.h"
#include "iceberg/data_file_metrics.h"
#include "iceberg/parquet_schema.h"
#include "parquet/file_writer.h"

namespace st::decoding {
namespace {

Result<parquet::Codec> ParseCodec(const std::string& text) {
  if (text == "zstd" || text == "ZSTD") return parquet::Codec::kZstd;
  if (text == "snappy" || text == "SNAPPY") return parquet::Codec::kSnappy;
  if (text == "gzip" || text == "GZIP") return parquet::Codec::kGzip;
  if (text == "uncompressed" || text == "UNCOMPRESSED" || text == "none") {
    return parquet::Codec::kUncompressed;
  }
  return Err(InvalidArgument("codec '" + text + "' is not zstd, snappy, gzip or uncompressed"));
}

std::string FormatMicros(int64_t micros) {
  return FormatUtcMillis(std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          std::chrono::microseconds(micros))));
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

}  // namespace

class PartitionedFileWriter::Impl {
 public:
  Impl(WriterOptions options, iceberg::FileIO& io, Random& random)
      : options_(std::move(options)), io_(io), file_prefix_(Uuid::Generate(random).ToString()) {}

  Status Init() {
    ST_ASSIGN_OR_RETURN(parquet_options_.codec, ParseCodec(options_.codec));
    parquet_options_.row_group_size_bytes = options_.row_group_bytes;
    ST_ASSIGN_OR_RETURN(parquet::Schema parquet_schema, iceberg::ToParquetSchema(options_.schema));
    parquet_schema_ = std::make_unique<parquet::Schema>(std::move(parquet_schema));
    ST_ASSIGN_OR_RETURN(ShredPlan plan, MakeShredPlan(options_.schema, *parquet_schema_));
    plan_ = std::make_unique<ShredPlan>(std::move(plan));
    ST_TRY(iceberg::PartitionSpec::Make(options_.schema, options_.spec.spec_id(),
                                        options_.spec.fields()));
    ST_ASSIGN_OR_RETURN(partition_type_, options_.spec.PartitionType(options_.schema));
    if (plan_->has_kafka) {
      ST_ASSIGN_OR_RETURN(KafkaMetadataWriter kafka, KafkaMetadataWriter::Make(plan_->kafka));
      kafka_writer_ = std::make_unique<KafkaMetadataWriter>(kafka);
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
    if (options_.format == ValueFormat::kJsonSchemaGsr && options_.gsr == nullptr) {
      return InvalidArgument("a JSON_SCHEMA_GSR writer needs a GsrSchemaLookup");
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
    OpenFile* guess = last_file_;
    ColumnBuffers& target = guess != nullptr ? guess->buffers : *scratch_;
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
    auto file_result = FileFor(partition_values_);
    if (!file_result) {
      target.Truncate(marks_);
      return Err(file_result.error());
    }
    OpenFile* file = *file_result;
    if (file == guess) {
      file->buffers.AddRow();
    } else {
      file->buffers.AppendRecord(target, marks_);
      target.Truncate(marks_);
    }
    file->pending_bytes += static_cast<int64_t>(value.size());
    held_bytes_ += static_cast<int64_t>(value.size());
    if (file->pending_bytes >= options_.batch_flush_bytes) {
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
    return std::optional<RecordError>();
  }

  // The partition tuple of the record just decoded, into partition_values_;
  // a RecordError when it has none.
  std::optional<RecordError> PartitionOf(const KafkaRecord& record) {
    partition_values_.clear();
    for (const auto& source : sources_) {
      Value v;
      if (source.slot >= 0) {
        v = shredder_->partition_values()[source.slot];
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

  void SetExpirationHorizon(std::optional<int64_t> horizon_micros) {
    horizon_micros_ = horizon_micros;
  }

  Result<std::vector<iceberg::DataFile>> Finish() {
    if (!broken_.ok()) return Err(broken_);
    for (auto& [key, file] : open_) {
      Status status = CloseFile(*file);
      if (!status.ok()) {
        open_.clear();
        last_file_ = nullptr;
        held_bytes_ = 0;
        return Err(Fail(status));
      }
    }
    open_.clear();
    last_file_ = nullptr;
    held_bytes_ = 0;
    return std::move(done_);
  }

  void Abort() {
    open_.clear();
    last_file_ = nullptr;
    held_bytes_ = 0;
    for (const auto& file : done_) (void)io_.Delete(file.file_path);
    done_.clear();
  }

 private:
  struct OpenFile {
    explicit OpenFile(const parquet::Schema& schema) : buffers(schema) {}
    std::string uri;
    Value partition;
    std::unique_ptr<storage::ObjectWriter> sink;
    std::unique_ptr<parquet::FileWriter> writer;
    ColumnBuffers buffers;
    int64_t pending_bytes = 0;  // Input bytes decoded into `buffers` since the last flush.
    int64_t encoded_bytes = 0;  // The Parquet writer's buffered row group after that flush.
  };

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
      auto matches = options_.schema_matches(*definition);
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

  Result<OpenFile*> FileFor(const std::vector<Value>& values) {
    if (last_file_ != nullptr && last_file_->partition.struct_value() == values) return last_file_;
    std::string key;
    const auto& fields = partition_type_->fields();
    for (size_t i = 0; i < values.size(); ++i) {
      ST_ASSIGN_OR_RETURN(std::string bytes,
                          iceberg::ToSingleValueBytes(*fields[i].type, values[i]));
      key += std::to_string(bytes.size()) + ':' + bytes;
    }
    auto it = open_.find(key);
    if (it == open_.end()) {
      auto opened = Open(Value::MakeStruct(values));
      if (!opened) return Err(Fail(opened.error()));
      it = open_.emplace(key, std::move(*opened)).first;
    }
    last_file_ = it->second.get();
    return last_file_;
  }

  Result<std::unique_ptr<OpenFile>> Open(const Value& partition) {
    auto file = std::make_unique<OpenFile>(*parquet_schema_);
    file->partition = partition;
    ST_ASSIGN_OR_RETURN(std::string path, options_.spec.PartitionPath(options_.schema, partition));
    char name[32];
    std::snprintf(name, sizeof(name), "-%05d.parquet", ++file_count_);
    file->uri =
        options_.data_location + "/" + (path.empty() ? "" : path + "/") + file_prefix_ + name;
    ST_ASSIGN_OR_RETURN(file->sink, io_.NewWriter(file->uri));
    ST_ASSIGN_OR_RETURN(file->writer, parquet::FileWriter::Make(*parquet_schema_, parquet_options_,
                                                                file->sink.get()));
    return file;
  }

  Status FlushFile(OpenFile& file) {
    Status status = file.buffers.FlushTo(*file.writer);
    held_bytes_ -= file.pending_bytes + file.encoded_bytes;
    file.pending_bytes = 0;
    file.encoded_bytes = file.writer->EstimatedFileSizeBytes() - file.sink->Position();
    held_bytes_ += file.encoded_bytes;
    return status;
  }

  Status CloseFile(OpenFile& file) {
    ST_TRY(FlushFile(file));
    held_bytes_ -= file.encoded_bytes;
    file.encoded_bytes = 0;
    const bool empty = file.writer->rows_written() == 0;
    ST_ASSIGN_OR_RETURN(parquet::FileSummary summary, file.writer->Close());
    if (empty) return Status::OK();
    ST_TRY(file.sink->Commit());
    iceberg::DataFile data_file;
    data_file.file_path = file.uri;
    data_file.file_format = iceberg::FileFormat::kParquet;
    data_file.spec_id = options_.spec.spec_id();
    data_file.partition = file.partition;
    ST_TRY(
        iceberg::ApplyParquetMetrics(options_.schema, summary, iceberg::MetricsMode{}, &data_file));
    done_.push_back(std::move(data_file));
    return Status::OK();
  }

  Status CloseAndForget(OpenFile* file) {
    for (auto it = open_.begin(); it != open_.end(); ++it) {
      if (it->second.get() != file) continue;
      Status status = CloseFile(*file);
      if (last_file_ == file) last_file_ = nullptr;
      open_.erase(it);
      if (!status.ok()) return Fail(status);
      return Status::OK();
    }
    return Status::OK();
  }

  Status CloseLargest() {
    OpenFile* largest = nullptr;
    int64_t largest_bytes = -1;
    for (const auto& [key, file] : open_) {
      const int64_t bytes = file->pending_bytes + file->encoded_bytes;
      if (bytes > largest_bytes) {
        largest = file.get();
        largest_bytes = bytes;
      }
    }
    return largest == nullptr ? Status::OK() : CloseAndForget(largest);
  }

  WriterOptions options_;
  iceberg::FileIO& io_;
  std::string file_prefix_;
  parquet::WriterOptions parquet_options_;
  std::unique_ptr<parquet::Schema> parquet_schema_;
  std::unique_ptr<ShredPlan> plan_;
  iceberg::TypePtr partition_type_;
  std::unique_ptr<KafkaMetadataWriter> kafka_writer_;
  std::vector<PartitionSource> sources_;
  std::unique_ptr<JsonShredder> shredder_;
  std::unique_ptr<ColumnBuffers> scratch_;
  std::vector<Value> partition_values_;
  std::vector<ColumnMark> marks_;
  // Sum of pending_bytes + encoded_bytes over open files: buffered_bytes()
  // is on the caller's per-record path, so it must not walk the columns.
  int64_t held_bytes_ = 0;
  std::optional<int64_t> horizon_micros_;
  std::string inflated_;
  std::unordered_map<std::string, GsrVersionState> versions_;
  std::map<std::string, std::unique_ptr<OpenFile>> open_;
  OpenFile* last_file_ = nullptr;
  std::vector<iceberg::DataFile> done_;
  int file_count_ = 0;
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
  while (options.data_location.size() > 1 && options.data_location.back() == '/') {
    options.data_location.pop_back();
  }
  auto impl = std::make_unique<Impl>(std::move(options), io, random);
  ST_TRY(impl->Init());
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
