#include "iceberg/data_file_writer.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

#include "common/uuid.h"
#include "iceberg/conversions.h"
#include "iceberg/parquet_schema.h"
#include "parquet/file_writer.h"

namespace st::iceberg {
namespace {

Result<int64_t> ParsePositiveProperty(const std::string& name, const std::string& text) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v <= 0) {
    return Err(
        InvalidArgument("table property " + name + "='" + text + "' must be a positive integer"));
  }
  return v;
}

Result<parquet::Codec> ParseCodec(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (text == "zstd") return parquet::Codec::kZstd;
  if (text == "snappy") return parquet::Codec::kSnappy;
  if (text == "gzip") return parquet::Codec::kGzip;
  if (text == "uncompressed" || text == "none") return parquet::Codec::kUncompressed;
  return Err(InvalidArgument("table property write.parquet.compression-codec='" + text +
                             "' is not zstd, snappy, gzip or uncompressed"));
}

// A map key that is equal exactly when two partition tuples are.
Result<std::string> PartitionKey(const Type& partition_type, const Value& partition) {
  std::string key;
  const auto& fields = partition_type.fields();
  const auto& values = partition.struct_value();
  for (size_t i = 0; i < fields.size() && i < values.size(); ++i) {
    if (values[i].is_null()) {
      key += 'N';
      continue;
    }
    ST_ASSIGN_OR_RETURN(std::string bytes, ToSingleValueBytes(*fields[i].type, values[i]));
    key += 'V' + std::to_string(bytes.size()) + ':' + bytes;
  }
  return key;
}

}  // namespace

Result<DataFileWriterOptions> DataFileWriterOptionsFromProperties(
    const std::string& location, const std::map<std::string, std::string>& properties) {
  DataFileWriterOptions options;
  options.data_location = location + "/data";
  for (const auto& [name, value] : properties) {
    if (name == "write.data.path") {
      options.data_location = value;
    } else if (name == "write.target-file-size-bytes") {
      ST_ASSIGN_OR_RETURN(options.target_file_size_bytes, ParsePositiveProperty(name, value));
    } else if (name == "write.parquet.compression-codec") {
      ST_ASSIGN_OR_RETURN(options.parquet.codec, ParseCodec(value));
    } else if (name == "write.parquet.compression-level") {
      int level = 0;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), level);
      if (ec != std::errc() || ptr != value.data() + value.size()) {
        return Err(
            InvalidArgument("table property " + name + "='" + value + "' must be an integer"));
      }
      options.parquet.compression_level = level;
    } else if (name == "write.parquet.row-group-size-bytes") {
      ST_ASSIGN_OR_RETURN(options.parquet.row_group_size_bytes, ParsePositiveProperty(name, value));
    } else if (name == "write.parquet.page-size-bytes") {
      ST_ASSIGN_OR_RETURN(options.parquet.page_size_bytes, ParsePositiveProperty(name, value));
    } else if (name == "write.parquet.dict-size-bytes") {
      ST_ASSIGN_OR_RETURN(options.parquet.dictionary_page_size_limit,
                          ParsePositiveProperty(name, value));
    } else if (name == "write.metadata.metrics.default") {
      auto mode = MetricsMode::Parse(value);
      if (!mode) return Err(mode.error().WithContext("table property " + name));
      options.metrics = *mode;
    }
  }
  while (!options.data_location.empty() && options.data_location.back() == '/') {
    options.data_location.pop_back();
  }
  return options;
}

class DataFileWriter::Impl {
 public:
  Impl(FileIO& io, Schema schema, PartitionSpec spec, TypePtr partition_type,
       parquet::Schema parquet_schema, DataFileWriterOptions options, Random& random)
      : io_(io),
        schema_(std::move(schema)),
        spec_(std::move(spec)),
        partition_type_(std::move(partition_type)),
        parquet_schema_(std::move(parquet_schema)),
        options_(std::move(options)),
        file_prefix_(Uuid::Generate(random).ToString()) {}

  Status Write(const Value& row) {
    if (!failed_.ok()) return failed_;
    if (closed_) return FailedPrecondition("data file writer is closed; make a new one");
    if (row.kind() != Value::Kind::kStruct) {
      return InvalidArgument("row is not a struct value; rows are Structs in schema field order");
    }
    ST_ASSIGN_OR_RETURN(Value partition, spec_.PartitionOf(schema_, row));
    ST_ASSIGN_OR_RETURN(std::string key, PartitionKey(*partition_type_, partition));
    auto it = open_.find(key);
    if (it == open_.end()) {
      auto opened = OpenFile(partition);
      if (!opened) return Fail(opened.error());
      it = open_.emplace(key, std::move(*opened)).first;
    }
    Status status = it->second.writer->WriteRow(row);
    if (!status.ok()) {
      if (status.code() == StatusCode::kInvalidArgument) return status;  // Row rejected whole.
      return Fail(status);
    }
    if (it->second.writer->EstimatedFileSizeBytes() >= options_.target_file_size_bytes) {
      Status closed = CloseFile(it->second);
      open_.erase(it);
      if (!closed.ok()) return Fail(closed);
    }
    return Status::OK();
  }

  Result<std::vector<DataFile>> Close() {
    if (!failed_.ok()) return Err(failed_);
    if (closed_) return Err(FailedPrecondition("data file writer is already closed"));
    closed_ = true;
    for (auto& [key, file] : open_) {
      Status status = CloseFile(file);
      if (!status.ok()) {
        open_.clear();
        return Err(Fail(status));
      }
    }
    open_.clear();
    return std::move(done_);
  }

 private:
  struct OpenedFile {
    std::string uri;
    Value partition;
    std::unique_ptr<storage::ObjectWriter> sink;
    std::unique_ptr<parquet::FileWriter> writer;
  };

  Status Fail(Status status) {
    failed_ = std::move(status);
    return failed_;
  }

  Result<OpenedFile> OpenFile(const Value& partition) {
    OpenedFile file;
    file.partition = partition;
    ST_ASSIGN_OR_RETURN(std::string path, spec_.PartitionPath(schema_, partition));
    char name[32];
    std::snprintf(name, sizeof(name), "-%05d.parquet", ++file_count_);
    file.uri =
        options_.data_location + "/" + (path.empty() ? "" : path + "/") + file_prefix_ + name;
    ST_ASSIGN_OR_RETURN(file.sink, io_.NewWriter(file.uri));
    ST_ASSIGN_OR_RETURN(
        file.writer, parquet::FileWriter::Make(parquet_schema_, options_.parquet, file.sink.get()));
    return file;
  }

  // A file that received no row (its only row was rejected) is discarded.
  Status CloseFile(OpenedFile& file) {
    const bool empty = file.writer->rows_written() == 0;
    ST_ASSIGN_OR_RETURN(parquet::FileSummary summary, file.writer->Close());
    if (empty) return Status::OK();
    ST_TRY(file.sink->Commit());
    DataFile data_file;
    data_file.file_path = file.uri;
    data_file.file_format = FileFormat::kParquet;
    data_file.spec_id = spec_.spec_id();
    data_file.partition = file.partition;
    ST_TRY(ApplyParquetMetrics(schema_, summary, options_.metrics, &data_file));
    done_.push_back(std::move(data_file));
    return Status::OK();
  }

  FileIO& io_;
  Schema schema_;
  PartitionSpec spec_;
  TypePtr partition_type_;
  parquet::Schema parquet_schema_;
  DataFileWriterOptions options_;
  std::string file_prefix_;
  int file_count_ = 0;
  std::map<std::string, OpenedFile> open_;
  std::vector<DataFile> done_;
  Status failed_;
  bool closed_ = false;
};

Result<std::unique_ptr<DataFileWriter>> DataFileWriter::Make(FileIO& io, const Schema& schema,
                                                             const PartitionSpec& spec,
                                                             DataFileWriterOptions options,
                                                             Random& random) {
  if (options.target_file_size_bytes <= 0) {
    return Err(InvalidArgument("target_file_size_bytes must be positive"));
  }
  if (options.data_location.empty()) return Err(InvalidArgument("data_location is empty"));
  // Re-validate: a spec from storage may be unchecked.
  ST_TRY(PartitionSpec::Make(schema, spec.spec_id(), spec.fields()));
  ST_ASSIGN_OR_RETURN(TypePtr partition_type, spec.PartitionType(schema));
  ST_ASSIGN_OR_RETURN(parquet::Schema parquet_schema, ToParquetSchema(schema));
  return std::unique_ptr<DataFileWriter>(new DataFileWriter(
      std::make_unique<Impl>(io, schema, spec, std::move(partition_type), std::move(parquet_schema),
                             std::move(options), random)));
}

DataFileWriter::DataFileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DataFileWriter::~DataFileWriter() = default;

Status DataFileWriter::Write(const Value& row) { return impl_->Write(row); }

Result<std::vector<DataFile>> DataFileWriter::Close() { return impl_->Close(); }

}  // namespace st::iceberg
