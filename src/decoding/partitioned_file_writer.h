// PartitionedFileWriter: the delivery hot path. Decodes Kafka records
// (JSON, GSR- or Confluent-framed JSON, Avro, Protobuf, raw bytes or text)
// straight into per-column buffers and writes them through the Parquet batch API into one open data
// file per partition value (an iceberg::PartitionedDataFiles, which names,
// closes and measures the files), rolling files at target_file_bytes.
//
// Records that cannot become a row come back as a RecordError (nothing of
// them is buffered); see record.h for the codes. JSON handling follows
// docs/msk-channel-api-notes.md §11: fields not in the schema are dropped, a missing or
// null optional field is null, a missing or null required field is
// MISSING_REQUIRED_FIELD, a missing or null partition source is
// MISSING_PARTITION_VALUE, a key given twice in one object (struct or map)
// is MALFORMED_JSON, more than 16 nested levels (the top-level object is
// level 1) is NESTING_TOO_DEEP, and an object or array where the schema has
// a primitive is TYPE_MISMATCH; with an expiration horizon set, a
// timestamptz partition source value before it is RECORD_EXPIRED. Decimals
// are read exactly from the number text (more non-zero fractional digits
// than the scale, or too many digits for the precision, is TYPE_MISMATCH);
// timestamptz takes RFC 3339 date-times with `Z` or an offset; binary takes
// base64 text; uuid the canonical text form.
//
// Avro (kAvroConfluent, kAvroGsr): the framing is checked (WRONG_MAGIC_BYTE,
// TRUNCATED_PAYLOAD; MISSING_GSR_HEADER), the writer schema looked up by its
// id (SCHEMA_NOT_FOUND; SCHEMA_MISMATCH when it is not an Avro schema) and
// resolved onto the table schema by Avro's rules (SCHEMA_INCOMPATIBLE when
// it cannot be: the message names the field and both types), then the
// payload is decoded straight into the column buffers (MALFORMED_AVRO,
// TRUNCATED_PAYLOAD, NESTING_TOO_DEEP beyond 64 levels, and the JSON codes
// for required, partition and range problems). Parsed schemas and resolution
// plans are cached per (writer schema id, table schema id).
//
// Protobuf GSR (kProtobufGsr): the GSR framing (MISSING_GSR_HEADER), the
// payload inflated when zlib (MALFORMED_PROTOBUF when corrupt), the message
// index varint (TRUNCATED_PAYLOAD, MALFORMED_PROTOBUF), the version's
// definition (SCHEMA_NOT_FOUND; SCHEMA_MISMATCH when its data format is not
// PROTOBUF or it does not parse; MALFORMED_PROTOBUF when the index names no
// message type: GsrProtobufMessagePath), then as below. Plans are cached per
// (version UUID, index, table schema id).
//
// Protobuf (kProtobufConfluent): the Confluent framing with message indexes
// (WRONG_MAGIC_BYTE, TRUNCATED_PAYLOAD, MALFORMED_PROTOBUF), the .proto
// schema of the id (SCHEMA_NOT_FOUND; SCHEMA_MISMATCH when it is not
// Protobuf or does not parse; MALFORMED_PROTOBUF when the indexes name no
// message; SCHEMA_INCOMPATIBLE), then the wire format decoded straight into
// the column buffers (MALFORMED_PROTOBUF, NESTING_TOO_DEEP; see
// protobuf_shredder_internal.h). Plans are cached per (schema id, message
// indexes, table schema id).
//
// JSON Schema (kJsonSchemaConfluent): the Confluent framing without message
// indexes (WRONG_MAGIC_BYTE, TRUNCATED_PAYLOAD), the schema of the id
// (SCHEMA_NOT_FOUND; SCHEMA_MISMATCH when it is not a JSON Schema or
// schema_matches refuses it), then the payload shredded as for kJson.
//
// Not thread-safe: one writer per channel worker.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/random.h"
#include "common/status.h"
#include "decoding/record.h"
#include "decoding/writer_schema.h"
#include "iceberg/data_file.h"
#include "iceberg/file_io.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"

namespace st::decoding {

// Resolves a Glue Schema Registry schema version id (lower-case UUID text)
// to its definition. Implementations must be callable from the writer's
// thread. NotFound → the record is SCHEMA_NOT_FOUND; any other error is
// returned from Add() as a Status (transient; retry the record).
class GsrSchemaLookup {
 public:
  virtual ~GsrSchemaLookup() = default;
  virtual Result<std::string> Definition(const std::string& schema_version_id) = 0;
  // The definition with the version's data format (AVRO, JSON, PROTOBUF as
  // the WriterSchemaType), for kProtobufGsr: a version of another format is
  // SCHEMA_MISMATCH. Same errors as Definition.
  virtual Result<WriterSchema> Version(const std::string& schema_version_id) = 0;
};

struct WriterOptions {
  ValueFormat format = ValueFormat::kJson;
  // The table schema (ChannelTableSchema) and spec (ChannelPartitionSpec or
  // unpartitioned). The spec's fields must be sourced from top-level value
  // columns or `_kafka.timestamp`.
  iceberg::Schema schema;
  iceberg::PartitionSpec spec = iceberg::PartitionSpec::Unpartitioned();
  // Whether the schema's `_kafka` column is filled (it is null otherwise).
  bool include_metadata = true;
  // How record keys land in `_kafka.key`. kAvroConfluent and
  // kProtobufConfluent (the framing with message indexes) need
  // `writer_schemas` (key schema ids resolve there) and decode a key into
  // the table's `_kafka.key` as it is: a key whose schema does not resolve
  // onto it is SCHEMA_INCOMPATIBLE (evolving the table first is the caller's
  // job); a key while the table has no `_kafka.key` yet is too. Key errors
  // carry the value codes (WRONG_MAGIC_BYTE, TRUNCATED_PAYLOAD,
  // SCHEMA_NOT_FOUND, SCHEMA_MISMATCH, MALFORMED_AVRO / MALFORMED_PROTOBUF, ...) with messages
  // that start "record key".
  KeyFormat key_format = KeyFormat::kBytes;
  // A file is closed and a new one started once it reaches this size.
  int64_t target_file_bytes = 128LL << 20;
  // "zstd", "snappy", "gzip" or "uncompressed".
  std::string codec = "zstd";
  // Required for kJsonSchemaGsr, kAvroGsr and kProtobufGsr; not owned, must
  // outlive the writer.
  GsrSchemaLookup* gsr = nullptr;
  // Required for kAvroConfluent, kProtobufConfluent and kJsonSchemaConfluent:
  // the writer schema of a Confluent schema id (Protobuf: with its references
  // resolved).
  WriterSchemaLookup writer_schemas;
  // kJsonSchemaGsr, kJsonSchemaConfluent: whether a schema version (its
  // definition and, Confluent, its references) maps to this table's value
  // columns. false → SCHEMA_MISMATCH;
  // an error → SCHEMA_MISMATCH with the error's message. Unset: every resolvable version matches.
  // Results are cached per version id for the writer's lifetime.
  std::function<Result<bool>(const WriterSchema& schema)> schema_matches;
  // "<table location>/data"; files go to <data_location>/<partition path>/.
  std::string data_location;
  // Values larger than this (after GSR inflation too) are RECORD_TOO_LARGE.
  int64_t max_record_bytes = 4LL << 20;
  // Decoded values of one file are handed to its Parquet writer once they
  // pass this many bytes; the Parquet writer closes a row group at
  // row_group_bytes of encoded data. Together they bound memory per open file.
  int64_t batch_flush_bytes = 1LL << 20;
  int64_t row_group_bytes = 16LL << 20;
  // When buffered_bytes() passes this, the open file holding the most is
  // closed early (many late partitions must not grow memory without bound).
  int64_t max_buffered_bytes = 256LL << 20;
};

class PartitionedFileWriter {
 public:
  // `io` and `random` (file names) are not owned and must outlive the writer.
  // Errors: InvalidArgument when the spec does not fit the schema or is not
  // sourced as above (or sourced from `_kafka.timestamp` with
  // include_metadata=false), the codec is unknown, data_location is empty,
  // or kJsonSchemaGsr / kAvroGsr / kProtobufGsr has no `gsr`, or kAvroConfluent /
  // kProtobufConfluent / kJsonSchemaConfluent no `writer_schemas`.
  static Result<std::unique_ptr<PartitionedFileWriter>> Make(WriterOptions options,
                                                             iceberg::FileIO& io, Random& random);
  ~PartitionedFileWriter();
  PartitionedFileWriter(const PartitionedFileWriter&) = delete;
  PartitionedFileWriter& operator=(const PartitionedFileWriter&) = delete;

  // nullopt: the record is buffered. A RecordError: it is not (dead-letter
  // it). A Status error: a storage failure (the writer is broken: every later
  // call returns it; Abort), or a GSR lookup failure other than NotFound (the
  // writer stays usable; nothing of the record was buffered).
  Result<std::optional<RecordError>> Add(const KafkaRecord& record);

  // From now on, a record whose timestamptz partition source value is
  // before `horizon_micros` (µs since the epoch) is RECORD_EXPIRED, naming
  // the horizon; nullopt (the default) accepts every timestamp. The caller
  // (the channel worker) derives it from the table's record expiration.
  void SetExpirationHorizon(std::optional<int64_t> horizon_micros);

  // Memory held now (the backpressure input), O(1): the input bytes of the
  // records decoded since each open file's last hand-off to its Parquet
  // writer (decoded values take about as much) plus those writers' buffered
  // row groups. Open files together hold at most about max_buffered_bytes
  // plus batch_flush_bytes per file.
  int64_t buffered_bytes() const;

  // Closes every open file and returns every file closed since Make or the
  // last Finish, with partition values and metrics. The writer can be used
  // again afterwards. Errors: storage failures (the writer is broken).
  Result<std::vector<iceberg::DataFile>> Finish();

  // Best-effort: deletes the files written since the last Finish and drops
  // the open ones. The writer can be used again afterwards unless it broke.
  void Abort();

 private:
  class Impl;
  explicit PartitionedFileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace st::decoding
