#include "iceberg/partitioned_data_files.h"

#include <cstdio>
#include <utility>

#include "common/ascii.h"
#include "common/uuid.h"
#include "iceberg/conversions.h"
#include "iceberg/parquet_schema.h"

namespace st::iceberg {

Result<parquet::Codec> ParquetCodecFromName(std::string_view name) {
  std::string lower = AsciiLower(name);
  if (lower == "zstd") return parquet::Codec::kZstd;
  if (lower == "snappy") return parquet::Codec::kSnappy;
  if (lower == "gzip") return parquet::Codec::kGzip;
  if (lower == "uncompressed" || lower == "none") return parquet::Codec::kUncompressed;
  return Err(InvalidArgument("codec '" + std::string(name) +
                             "' is not zstd, snappy, gzip or uncompressed"));
}

Result<std::unique_ptr<PartitionedDataFiles>> PartitionedDataFiles::Make(
    FileIO& io, Schema schema, PartitionSpec spec, PartitionedDataFilesOptions options,
    Random& random) {
  while (options.data_location.size() > 1 && options.data_location.back() == '/') {
    options.data_location.pop_back();
  }
  if (options.data_location.empty()) return Err(InvalidArgument("data_location is empty"));
  ST_TRY(PartitionSpec::Make(schema, spec.spec_id(), spec.fields()));
  ST_ASSIGN_OR_RETURN(TypePtr partition_type, spec.PartitionType(schema));
  ST_ASSIGN_OR_RETURN(parquet::Schema parquet_schema, ToParquetSchema(schema));
  return std::unique_ptr<PartitionedDataFiles>(new PartitionedDataFiles(
      io, std::move(schema), std::move(spec), std::move(partition_type), std::move(parquet_schema),
      std::move(options), Uuid::Generate(random).ToString()));
}

PartitionedDataFiles::PartitionedDataFiles(FileIO& io, Schema schema, PartitionSpec spec,
                                           TypePtr partition_type, parquet::Schema parquet_schema,
                                           PartitionedDataFilesOptions options,
                                           std::string file_prefix)
    : io_(io),
      schema_(std::move(schema)),
      spec_(std::move(spec)),
      partition_type_(std::move(partition_type)),
      parquet_schema_(std::move(parquet_schema)),
      options_(std::move(options)),
      file_prefix_(std::move(file_prefix)) {}

Result<PartitionedDataFiles::File*> PartitionedDataFiles::FileFor(
    const std::vector<Value>& partition_values) {
  if (last_ != nullptr && last_->partition.struct_value() == partition_values) return last_;
  const auto& fields = partition_type_->fields();
  if (partition_values.size() != fields.size()) {
    return Err(InvalidArgument("partition tuple has " + std::to_string(partition_values.size()) +
                               " values; the spec has " + std::to_string(fields.size()) +
                               " fields"));
  }
  std::string key;
  for (size_t i = 0; i < partition_values.size(); ++i) {
    if (partition_values[i].is_null()) {
      key += 'N';
      continue;
    }
    ST_ASSIGN_OR_RETURN(std::string bytes,
                        ToSingleValueBytes(*fields[i].type, partition_values[i]));
    key += 'V' + std::to_string(bytes.size()) + ':' + bytes;
  }
  auto it = open_.find(key);
  if (it == open_.end()) {
    ST_ASSIGN_OR_RETURN(std::unique_ptr<File> file, Open(Value::MakeStruct(partition_values)));
    it = open_.emplace(std::move(key), std::move(file)).first;
  }
  last_ = it->second.get();
  return last_;
}

Result<std::unique_ptr<PartitionedDataFiles::File>> PartitionedDataFiles::Open(Value partition) {
  auto file = std::make_unique<File>();
  ST_ASSIGN_OR_RETURN(std::string path, spec_.PartitionPath(schema_, partition));
  file->partition = std::move(partition);
  char name[32];
  std::snprintf(name, sizeof(name), "-%05d.parquet", ++file_count_);
  file->uri = options_.data_location + "/" + (path.empty() ? "" : path + "/") + file_prefix_ + name;
  ST_ASSIGN_OR_RETURN(file->sink, io_.NewWriter(file->uri));
  ST_ASSIGN_OR_RETURN(
      file->writer, parquet::FileWriter::Make(parquet_schema_, options_.parquet, file->sink.get()));
  return file;
}

Status PartitionedDataFiles::Close(File* file) {
  if (file == last_) last_ = nullptr;
  std::unique_ptr<File> owned;
  for (auto it = open_.begin(); it != open_.end(); ++it) {
    if (it->second.get() == file) {
      owned = std::move(it->second);
      open_.erase(it);
      break;
    }
  }
  if (owned == nullptr) return FailedPrecondition("data file is not open here");
  const bool empty = owned->writer->rows_written() == 0;
  ST_ASSIGN_OR_RETURN(parquet::FileSummary summary, owned->writer->Close());
  // An uncommitted sink is discarded when `owned` goes.
  if (empty) return Status::OK();
  ST_TRY(owned->sink->Commit());
  DataFile data_file;
  data_file.file_path = owned->uri;
  data_file.file_format = FileFormat::kParquet;
  data_file.spec_id = spec_.spec_id();
  data_file.partition = owned->partition;
  ST_TRY(ApplyParquetMetrics(schema_, summary, options_.metrics, &data_file));
  closed_.push_back(std::move(data_file));
  return Status::OK();
}

Status PartitionedDataFiles::CloseAll() {
  while (!open_.empty()) {
    Status status = Close(open_.begin()->second.get());
    if (!status.ok()) {
      open_.clear();
      last_ = nullptr;
      return status;
    }
  }
  return Status::OK();
}

std::vector<PartitionedDataFiles::File*> PartitionedDataFiles::OpenFiles() const {
  std::vector<File*> files;
  files.reserve(open_.size());
  for (const auto& [key, file] : open_) files.push_back(file.get());
  return files;
}

std::vector<DataFile> PartitionedDataFiles::TakeClosed() { return std::exchange(closed_, {}); }

void PartitionedDataFiles::DiscardAll() {
  open_.clear();
  last_ = nullptr;
  for (const auto& file : closed_) (void)io_.Delete(file.file_path);
  closed_.clear();
}

}  // namespace st::iceberg
