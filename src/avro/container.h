// Avro object container files (OCF): what Iceberg manifests and manifest
// lists are. Writer to an OutputStream, reader over an in-memory file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "avro/encoding.h"
#include "avro/schema.h"
#include "common/output_stream.h"
#include "common/random.h"
#include "common/status.h"
#include "common/value.h"

namespace st::avro {

enum class Codec { kNull, kDeflate };

// "null" / "deflate".
std::string_view CodecName(Codec codec);

// Header metadata, in file order. Keys are strings, values raw bytes.
using Metadata = std::vector<std::pair<std::string, std::string>>;

struct ContainerWriterOptions {
  // Iceberg readers must handle both; Java and pyiceberg write deflate.
  Codec codec = Codec::kDeflate;
  // zlib level 0-9, or -1 for zlib's default (6).
  int deflate_level = -1;
  // A block is written once the uncompressed records reach this size; small
  // enough to bound memory, large enough to compress well.
  size_t block_target_bytes = 64 * 1024;
  // User metadata written in the header after avro.schema and avro.codec
  // (Iceberg: "schema", "partition-spec", "format-version", "snapshot-id", ...).
  // Keys starting with "avro." are reserved and rejected.
  Metadata metadata;
  // Source of the 16-byte sync marker; nullptr means DefaultRandom::Default().
  // Not owned; must outlive Make().
  Random* random = nullptr;
};

// Writes one OCF. Not thread-safe. The header is written by Make(); records
// are buffered and written in blocks. Any error is sticky: every later call
// returns it. Close() does not close `out`.
class ContainerWriter {
 public:
  // Errors: InvalidArgument for bad options (reserved metadata keys, level out
  // of range), whatever `out` returns when the header write fails.
  // `out` is not owned and must outlive the writer.
  static Result<std::unique_ptr<ContainerWriter>> Make(Schema schema,
                                                       ContainerWriterOptions options,
                                                       OutputStream* out);

  // Encodes `record` (a Value of the schema's root type, see encoding.h).
  // Errors: InvalidArgument if it does not fit the schema; stream errors.
  Status Append(const Value& record);
  // Writes buffered records as a block (no-op when empty).
  Status Flush();
  // Flushes; afterwards only Close() may be called again (returns OK).
  Status Close();

  const Schema& schema() const { return schema_; }
  int64_t records_written() const { return records_written_; }
  const std::string& sync_marker() const { return sync_; }

 private:
  ContainerWriter(Schema schema, ContainerWriterOptions options, OutputStream* out);
  Status WriteHeader();
  Status Fail(Status status);

  Schema schema_;
  ContainerWriterOptions options_;
  OutputStream* out_;
  std::string sync_;
  std::string block_;  // Encoded records not yet written.
  int64_t block_records_ = 0;
  std::string compressed_;  // Scratch for deflate.
  std::string frame_;       // Scratch for block framing.
  int64_t records_written_ = 0;
  bool closed_ = false;
  Status error_;
};

struct ContainerReaderOptions {
  // Largest decompressed block accepted: bounds memory on hostile input
  // (deflate expands up to ~1000x). Iceberg writers use blocks well below 1 MiB.
  size_t max_block_bytes = size_t{64} << 20;
  DecodeLimits decode_limits;
};

// Reads one OCF held in memory. Not thread-safe. Errors are Corruption with
// the byte offset unless noted, and are sticky.
class ContainerReader {
 public:
  // Parses the header. `file` must outlive the reader. Errors: Corruption for
  // bad magic, truncated header, malformed metadata, missing or invalid
  // avro.schema (the schema's own error is quoted); Unsupported for the valid
  // Avro codecs not implemented here (snappy, zstandard, bzip2, xz);
  // Corruption for unknown codec names.
  static Result<std::unique_ptr<ContainerReader>> Open(std::string_view file,
                                                       ContainerReaderOptions options = {});

  const Schema& schema() const { return schema_; }
  Codec codec() const { return codec_; }
  const Metadata& metadata() const { return metadata_; }
  // The value of header key `key`, if present.
  std::optional<std::string_view> FindMetadata(std::string_view key) const;

  // Decodes the next record into `*record`; returns false at the end of the
  // file. Errors: Corruption (truncated block, sync marker mismatch, counts or
  // sizes beyond the file, deflate failure, trailing bytes in a block, ...).
  Result<bool> Next(Value* record);
  // Every remaining record.
  Result<std::vector<Value>> ReadAll();

 private:
  ContainerReader(std::string_view file, ContainerReaderOptions options)
      : file_(file), options_(options) {}
  Status ReadHeader();
  // Loads the next non-empty block; false at the end of the file.
  Result<bool> LoadBlock();
  Status Fail(Status status);

  std::string_view file_;
  ContainerReaderOptions options_;
  Schema schema_;
  Codec codec_ = Codec::kNull;
  Metadata metadata_;
  std::string sync_;
  size_t pos_ = 0;          // Next unread byte of file_.
  std::string inflated_;    // Current block when deflated.
  std::string_view block_;  // Current block's record bytes.
  size_t block_pos_ = 0;
  int64_t block_file_offset_ = 0;
  int64_t block_records_left_ = 0;
  Status error_;
};

}  // namespace st::avro
