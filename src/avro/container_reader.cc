#include "avro/binary_reader_internal.h"
#include "avro/container.h"
#include "avro/container_format_internal.h"
#include "avro/deflate_internal.h"

namespace st::avro {

Result<std::unique_ptr<ContainerReader>> ContainerReader::Open(std::string_view file,
                                                               ContainerReaderOptions options) {
  std::unique_ptr<ContainerReader> reader(new ContainerReader(file, options));
  ST_TRY(reader->ReadHeader());
  return reader;
}

Status ContainerReader::Fail(Status status) {
  if (error_.ok()) error_ = std::move(status);
  return error_;
}

std::optional<std::string_view> ContainerReader::FindMetadata(std::string_view key) const {
  for (const auto& [k, v] : metadata_) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

Status ContainerReader::ReadHeader() {
  if (file_.size() < internal::kContainerMagic.size() ||
      file_.substr(0, internal::kContainerMagic.size()) != internal::kContainerMagic) {
    return Corruption(
        "avro file: bad magic; an Avro object container file starts with 'Obj\\x01' (" +
        std::to_string(file_.size()) + " bytes given)");
  }
  internal::BinaryReader reader(file_.substr(internal::kContainerMagic.size()),
                                internal::kContainerMagic.size());
  while (true) {
    ST_ASSIGN_OR_RETURN(int64_t count, reader.ReadLong("header metadata block count"));
    if (count == 0) break;
    if (count < 0) {
      if (count == INT64_MIN) return reader.Corrupt("invalid header metadata block count");
      count = -count;
      ST_ASSIGN_OR_RETURN(int64_t size, reader.ReadLong("header metadata block size"));
      (void)size;
    }
    // Each entry takes at least two bytes (two empty-string lengths).
    if (count > static_cast<int64_t>(reader.remaining() / 2)) {
      return reader.Corrupt("header metadata count " + std::to_string(count) +
                            " exceeds the bytes left");
    }
    for (int64_t i = 0; i < count; ++i) {
      ST_ASSIGN_OR_RETURN(std::string_view key, reader.ReadBytes("header metadata key"));
      ST_ASSIGN_OR_RETURN(std::string_view value, reader.ReadBytes("header metadata value"));
      metadata_.emplace_back(std::string(key), std::string(value));
    }
  }
  ST_ASSIGN_OR_RETURN(std::string_view sync,
                      reader.ReadFixed(internal::kContainerSyncSize, "header sync marker"));
  sync_ = std::string(sync);
  pos_ = internal::kContainerMagic.size() + reader.position();

  std::optional<std::string_view> schema_json = FindMetadata("avro.schema");
  if (!schema_json.has_value()) {
    return Corruption("avro file: header has no avro.schema entry");
  }
  auto schema = Schema::Parse(*schema_json);
  if (!schema) {
    return Corruption("avro file: header avro.schema is invalid: " + schema.error().message());
  }
  schema_ = std::move(*schema);

  std::string_view codec = FindMetadata("avro.codec").value_or("null");
  if (codec == "null") {
    codec_ = Codec::kNull;
  } else if (codec == "deflate") {
    codec_ = Codec::kDeflate;
  } else if (codec == "snappy" || codec == "zstandard" || codec == "bzip2" || codec == "xz") {
    return Unsupported("avro file: codec '" + std::string(codec) +
                       "' is not supported; only null and deflate are");
  } else {
    return Corruption("avro file: unknown codec '" + std::string(codec).substr(0, 64) + "'");
  }
  return Status::OK();
}

Result<bool> ContainerReader::LoadBlock() {
  while (pos_ < file_.size()) {
    internal::BinaryReader reader(file_.substr(pos_), static_cast<int64_t>(pos_));
    ST_ASSIGN_OR_RETURN(int64_t count, reader.ReadLong("block record count"));
    ST_ASSIGN_OR_RETURN(int64_t size, reader.ReadLong("block byte size"));
    if (count < 0)
      return Err(reader.Corrupt("negative block record count " + std::to_string(count)));
    if (size < 0 || static_cast<uint64_t>(size) > reader.remaining()) {
      return Err(reader.Corrupt("truncated block: byte size " + std::to_string(size) + " but " +
                                std::to_string(reader.remaining()) + " bytes left"));
    }
    int64_t data_offset = reader.file_offset();
    ST_ASSIGN_OR_RETURN(std::string_view data,
                        reader.ReadFixed(static_cast<size_t>(size), "block"));
    ST_ASSIGN_OR_RETURN(std::string_view sync,
                        reader.ReadFixed(internal::kContainerSyncSize, "block sync marker"));
    if (sync != sync_) {
      return Err(Corruption("avro file: sync marker mismatch after the block at byte offset " +
                            std::to_string(data_offset) + "; the file is corrupt or truncated"));
    }
    pos_ += reader.position();
    if (codec_ == Codec::kDeflate) {
      Status s = internal::InflateRaw(data, options_.max_block_bytes, &inflated_);
      if (!s.ok())
        return Err(s.WithContext("avro block at byte offset " + std::to_string(data_offset)));
      data = inflated_;
    }
    int64_t min_bytes = schema_.root().Resolve().min_encoded_bytes;
    int64_t max_count = min_bytes > 0 ? static_cast<int64_t>(data.size()) / min_bytes
                                      : options_.decode_limits.max_zero_width_items;
    if (count > max_count) {
      return Err(Corruption("avro file: block at byte offset " + std::to_string(data_offset) +
                            " claims " + std::to_string(count) + " records in " +
                            std::to_string(data.size()) + " bytes"));
    }
    if (count == 0) {
      if (!data.empty()) {
        return Err(Corruption("avro file: empty block at byte offset " +
                              std::to_string(data_offset) + " has data"));
      }
      continue;
    }
    block_ = data;
    block_pos_ = 0;
    block_file_offset_ = data_offset;
    block_records_left_ = count;
    return true;
  }
  return false;
}

Result<bool> ContainerReader::Next(Value* record) {
  if (!error_.ok()) return Err(error_);
  if (block_records_left_ == 0) {
    auto loaded = LoadBlock();
    if (!loaded) return Err(Fail(loaded.error()));
    if (!*loaded) return false;
  }
  // Raw blocks can quote file offsets; inflated ones only offsets inside the block.
  bool raw = codec_ == Codec::kNull;
  int64_t base = static_cast<int64_t>(block_pos_) + (raw ? block_file_offset_ : 0);
  internal::BinaryReader reader(block_.substr(block_pos_), base, options_.decode_limits);
  auto value = reader.ReadValue(schema_.root());
  if (!value) {
    return Err(Fail(value.error().WithContext(
        raw ? "avro file: record in the block at byte offset " + std::to_string(block_file_offset_)
            : "avro file: record in the deflated block at byte offset " +
                  std::to_string(block_file_offset_) + " (offsets within the inflated block)")));
  }
  block_pos_ += reader.position();
  *record = std::move(*value);
  if (--block_records_left_ == 0 && block_pos_ != block_.size()) {
    return Err(Fail(Corruption(
        "avro file: block at byte offset " + std::to_string(block_file_offset_) + " has " +
        std::to_string(block_.size() - block_pos_) + " bytes after its last record")));
  }
  return true;
}

Result<std::vector<Value>> ContainerReader::ReadAll() {
  std::vector<Value> records;
  Value record;
  while (true) {
    ST_ASSIGN_OR_RETURN(bool more, Next(&record));
    if (!more) break;
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace st::avro
