#include "iceberg/data_file_writer.h"

#include <charconv>

#include "iceberg/partitioned_data_files.h"

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
      auto codec = ParquetCodecFromName(value);
      if (!codec) return Err(codec.error().WithContext("table property " + name));
      options.parquet.codec = *codec;
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
  Impl(std::unique_ptr<PartitionedDataFiles> files, int64_t target_file_size_bytes)
      : files_(std::move(files)), target_file_size_bytes_(target_file_size_bytes) {}

  Status Write(const Value& row) {
    if (!failed_.ok()) return failed_;
    if (closed_) return FailedPrecondition("data file writer is closed; make a new one");
    if (row.kind() != Value::Kind::kStruct) {
      return InvalidArgument("row is not a struct value; rows are Structs in schema field order");
    }
    ST_ASSIGN_OR_RETURN(Value partition, files_->spec().PartitionOf(files_->schema(), row));
    auto file = files_->FileFor(partition.struct_value());
    if (!file) {
      if (file.error().code() == StatusCode::kInvalidArgument) return file.error();
      return Fail(file.error());
    }
    Status status = (*file)->writer->WriteRow(row);
    if (!status.ok()) {
      if (status.code() == StatusCode::kInvalidArgument) return status;  // Row rejected whole.
      return Fail(status);
    }
    if ((*file)->writer->EstimatedFileSizeBytes() >= target_file_size_bytes_) {
      Status closed = files_->Close(*file);
      if (!closed.ok()) return Fail(closed);
    }
    return Status::OK();
  }

  Result<std::vector<DataFile>> Close() {
    if (!failed_.ok()) return Err(failed_);
    if (closed_) return Err(FailedPrecondition("data file writer is already closed"));
    closed_ = true;
    Status status = files_->CloseAll();
    if (!status.ok()) return Err(Fail(status));
    return files_->TakeClosed();
  }

 private:
  Status Fail(Status status) {
    failed_ = std::move(status);
    return failed_;
  }

  std::unique_ptr<PartitionedDataFiles> files_;
  int64_t target_file_size_bytes_;
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
  PartitionedDataFilesOptions files_options;
  files_options.data_location = std::move(options.data_location);
  files_options.parquet = options.parquet;
  files_options.metrics = options.metrics;
  ST_ASSIGN_OR_RETURN(
      std::unique_ptr<PartitionedDataFiles> files,
      PartitionedDataFiles::Make(io, schema, spec, std::move(files_options), random));
  return std::unique_ptr<DataFileWriter>(
      new DataFileWriter(std::make_unique<Impl>(std::move(files), options.target_file_size_bytes)));
}

DataFileWriter::DataFileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DataFileWriter::~DataFileWriter() = default;

Status DataFileWriter::Write(const Value& row) { return impl_->Write(row); }

Result<std::vector<DataFile>> DataFileWriter::Close() { return impl_->Close(); }

}  // namespace st::iceberg
