// The seam between the delivery runtime and decoding/registry: how a
// channel's records become table rows. decoding_record_format.cc implements
// it with decoding::PartitionedFileWriter and the built-in schema registry;
// unit tests use fakes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/channel_model.h"
#include "common/random.h"
#include "common/status.h"
#include "decoding/writer_schema.h"
#include "delivery/dlq_record.h"
#include "delivery/kafka_client.h"
#include "iceberg/data_file.h"
#include "iceberg/file_io.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/table_metadata.h"

namespace st::registry {
class SchemaRegistry;
}

namespace st::delivery {

using catalog::ChannelConfig;

// Decodes records into data files of one table. Not thread-safe.
class BatchWriter {
 public:
  virtual ~BatchWriter() = default;
  // nullopt: buffered. A RecordFailure: not buffered (the record goes to the
  // DLQ). An error: storage failed; the writer keeps returning it (Abort it
  // and make a new one).
  virtual Result<std::optional<RecordFailure>> Add(const ConsumedRecord& record) = 0;
  // Memory held now.
  virtual int64_t buffered_bytes() const = 0;
  // Closes the open files; returns every file since creation or the last
  // Finish. An error: as Add.
  virtual Result<std::vector<iceberg::DataFile>> Finish() = 0;
  // Best-effort delete of the files written since the last Finish, also of a
  // writer that failed.
  virtual void Abort() = 0;
  // Records added from now on whose timestamptz partition source value (a
  // streaming table's `ts`) is before `horizon_micros` fail with
  // RECORD_EXPIRED; nullopt accepts every timestamp (the default).
  virtual void SetExpirationHorizon(std::optional<int64_t> horizon_micros) = 0;
  // Schema evolution (Avro channels): the schemas this writer moved the
  // table to since it was made or since SchemaChangesCommitted, oldest
  // first. The commit of the files Finish returned must add each one and
  // make the last current, in the same transaction (files written after a
  // change use its field ids). A writer whose changes are not committed must
  // not be reused after its batch is dropped (its schema is not the table's).
  virtual std::vector<iceberg::Schema> SchemaChanges() const { return {}; }
  virtual void SchemaChangesCommitted() {}
};

struct TableLayout {
  iceberg::Schema schema;
  iceberg::PartitionSpec spec;
};

// What the first record of a new table yields: the layout, or (for a
// JSON_SCHEMA_GSR record without a resolvable schema) why the record fails.
struct LayoutOutcome {
  std::optional<TableLayout> layout;
  std::optional<RecordFailure> failure;
};

// Thread-safe.
class RecordFormat {
 public:
  virtual ~RecordFormat() = default;
  // At CREATING: the channel's schema resolves and maps. Errors: NotFound /
  // InvalidArgument (the channel goes FAILED with the message), Unavailable.
  virtual Status Validate(const ChannelConfig& config) = 0;
  // The new table's schema and partition spec. Errors: as Validate.
  virtual Result<LayoutOutcome> Layout(const ChannelConfig& config,
                                       const ConsumedRecord& first_record) = 0;
  // A writer of data files under `data_location` for the table's current
  // schema and default spec. `io` and `random` must outlive it.
  virtual Result<std::unique_ptr<BatchWriter>> NewWriter(const ChannelConfig& config,
                                                         const iceberg::TableMetadata& metadata,
                                                         const std::string& data_location,
                                                         iceberg::FileIO& io, Random& random) = 0;
};

// Where a channel's Confluent schema ids resolve (AVRO_CONFLUENT,
// PROTOBUF_CONFLUENT, JSON_SCHEMA_CONFLUENT channels).
struct ConfluentSource {
  // The built-in registry's account: the channel's owner, that of its
  // service execution role (ids are per account there).
  std::string account_id;
  // The channel's external registry (its secret still sealed), or nullopt
  // for the built-in registry.
  std::optional<catalog::ExternalSchemaRegistry> external;
  // catalog::ExternalRegistrySealContextOf(channel), when `external` is set.
  std::string seal_context;
};
ConfluentSource ConfluentSourceOf(const ChannelConfig& config);

// The writer schema of a Confluent schema id in the source's registry.
// NotFound: the record is SCHEMA_NOT_FOUND; other errors are transient (the
// batch is retried; the message reaches the channel's last error and
// DescribeChannel's DELIVERY_STALLED stateInfo).
using ConfluentSchemaLookup =
    std::function<Result<decoding::WriterSchema>(const ConfluentSource& source, int32_t schema_id)>;

// decoding + registry. `registry` must outlive the format. Without
// `confluent`, every *_CONFLUENT record is SCHEMA_NOT_FOUND.
std::unique_ptr<RecordFormat> NewDecodingRecordFormat(registry::SchemaRegistry& registry,
                                                      ConfluentSchemaLookup confluent = {});

}  // namespace st::delivery
