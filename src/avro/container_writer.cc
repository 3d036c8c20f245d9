#include "avro/binary_reader_internal.h"
#include "avro/container.h"
#include "avro/container_format_internal.h"
#include "avro/deflate_internal.h"

namespace st::avro {

std::string_view CodecName(Codec codec) {
  switch (codec) {
    case Codec::kNull:
      return "null";
    case Codec::kDeflate:
      return "deflate";
  }
  return "unknown";
}

ContainerWriter::ContainerWriter(Schema schema, ContainerWriterOptions options, OutputStream* out)
    : schema_(std::move(schema)), options_(std::move(options)), out_(out) {}

Result<std::unique_ptr<ContainerWriter>> ContainerWriter::Make(Schema schema,
                                                               ContainerWriterOptions options,
                                                               OutputStream* out) {
  if (out == nullptr) return Err(InvalidArgument("avro writer: output stream is null"));
  if (options.deflate_level < -1 || options.deflate_level > 9) {
    return Err(InvalidArgument("avro writer: deflate_level " +
                               std::to_string(options.deflate_level) + " not in -1..9"));
  }
  for (const auto& [key, value] : options.metadata) {
    if (key.starts_with("avro.")) {
      return Err(InvalidArgument("avro writer: metadata key '" + key +
                                 "' is reserved; the writer sets avro.* keys itself"));
    }
  }
  std::unique_ptr<ContainerWriter> writer(
      new ContainerWriter(std::move(schema), std::move(options), out));
  ST_TRY(writer->WriteHeader());
  return writer;
}

Status ContainerWriter::Fail(Status status) {
  if (error_.ok()) error_ = std::move(status);
  return error_;
}

Status ContainerWriter::WriteHeader() {
  Random* random = options_.random != nullptr ? options_.random : &DefaultRandom::Default();
  sync_.clear();
  for (size_t i = 0; i < internal::kContainerSyncSize / 8; ++i) {
    uint64_t r = random->Next64();
    for (int b = 0; b < 8; ++b) sync_.push_back(static_cast<char>((r >> (8 * b)) & 0xFF));
  }
  std::string header(internal::kContainerMagic);
  Metadata entries;
  entries.emplace_back("avro.schema", schema_.ToJson());
  entries.emplace_back("avro.codec", std::string(CodecName(options_.codec)));
  for (const auto& entry : options_.metadata) entries.push_back(entry);
  internal::AppendLong(static_cast<int64_t>(entries.size()), &header);
  for (const auto& [key, value] : entries) {
    internal::AppendLong(static_cast<int64_t>(key.size()), &header);
    header.append(key);
    internal::AppendLong(static_cast<int64_t>(value.size()), &header);
    header.append(value);
  }
  header.push_back(0);
  header.append(sync_);
  Status s = out_->Write(header);
  if (!s.ok()) return Fail(s.WithContext("avro writer: writing the header"));
  return Status::OK();
}

Status ContainerWriter::Append(const Value& record) {
  if (!error_.ok()) return error_;
  if (closed_) return Fail(FailedPrecondition("avro writer: Append after Close"));
  Status s = Encode(schema_, record, &block_);
  if (!s.ok()) {
    return Fail(s.WithContext("avro writer: record " + std::to_string(records_written_)));
  }
  ++block_records_;
  ++records_written_;
  if (block_.size() >= options_.block_target_bytes) return Flush();
  return Status::OK();
}

Status ContainerWriter::Flush() {
  if (!error_.ok()) return error_;
  if (block_records_ == 0) return Status::OK();
  std::string_view data = block_;
  if (options_.codec == Codec::kDeflate) {
    Status s = internal::DeflateRaw(block_, options_.deflate_level, &compressed_);
    if (!s.ok()) return Fail(s);
    data = compressed_;
  }
  frame_.clear();
  internal::AppendLong(block_records_, &frame_);
  internal::AppendLong(static_cast<int64_t>(data.size()), &frame_);
  Status s = out_->Write(frame_);
  if (s.ok()) s = out_->Write(data);
  if (s.ok()) s = out_->Write(sync_);
  if (!s.ok()) return Fail(s.WithContext("avro writer: writing a block"));
  block_.clear();
  block_records_ = 0;
  return Status::OK();
}

Status ContainerWriter::Close() {
  if (!error_.ok()) return error_;
  if (closed_) return Status::OK();
  ST_TRY(Flush());
  closed_ = true;
  return Status::OK();
}

}  // namespace st::avro
