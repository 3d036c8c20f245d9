// Manifest files: Avro object container files of `manifest_entry` records
// (spec "Manifests"; field ids and metadata keys in docs/api-contract-notes.md §5.4).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/random.h"
#include "common/status.h"
#include "iceberg/data_file.h"
#include "iceberg/file_io.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"

namespace st::iceberg {

struct ManifestWriterOptions {
  std::string path;  // Full URI, conventionally <metadata dir>/<uuid>-m<N>.avro.
  // The table schema (written as the `schema` key; resolves partition source
  // types). Not owned; must outlive Make().
  const Schema* schema = nullptr;
  PartitionSpec spec = PartitionSpec::Unpartitioned();
  // The snapshot writing the manifest and its sequence number: ADDED entries
  // record the id and leave their sequence numbers null to inherit this one.
  int64_t snapshot_id = 0;
  int64_t sequence_number = 0;
  ManifestContent content = ManifestContent::kData;
  // Source of the Avro sync marker; nullptr = DefaultRandom::Default(). Not owned.
  Random* random = nullptr;
};

// Streams one manifest to the FileIO; the file becomes visible on Close().
// Not thread-safe. Errors are sticky: after one, every call returns it.
class ManifestWriter {
 public:
  // Errors: InvalidArgument (no schema, spec does not resolve against the
  // schema, path outside the FileIO), Io.
  static Result<std::unique_ptr<ManifestWriter>> Make(FileIO& io, ManifestWriterOptions options);
  ~ManifestWriter();

  // A file added by this snapshot (ADDED, sequence numbers inherited).
  // Errors: InvalidArgument when the file's spec id or partition tuple does not
  // match the spec.
  Status Add(const DataFile& file);
  // A live entry carried over from an older manifest: written EXISTING with its
  // original snapshot id and explicit sequence numbers (which must be set).
  Status AddExisting(const ManifestEntry& entry);
  // An entry removed by this snapshot: written DELETED with this snapshot's id
  // and the entry's explicit sequence numbers (which must be set).
  Status AddDeleted(const ManifestEntry& entry);
  // Writes `entry` as is. EXISTING and DELETED entries need snapshot id and
  // both sequence numbers; ADDED entries may leave them null to inherit.
  Status AddEntry(const ManifestEntry& entry);

  // Finishes the file and returns its manifest-list record (length, counts,
  // partition summaries, min_sequence_number of the live entries).
  // Errors: the sticky error, Io.
  Result<ManifestFile> Close();

  int64_t entry_count() const;

 private:
  struct State;
  explicit ManifestWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

struct Manifest {
  // Avro header key-values in file order ("schema", "partition-spec", ...).
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<ManifestEntry> entries;  // In file order.
};

// Parses a manifest's bytes, resolving inherited values from `manifest` (the
// manifest-list record it was reached through): a null snapshot_id becomes
// added_snapshot_id; null sequence numbers of ADDED entries become
// manifest.sequence_number. Every entry's data_file.spec_id is set to
// manifest.partition_spec_id. Errors: Corruption naming the file and field
// (bad Avro, missing fields, EXISTING/DELETED entries without sequence numbers).
Result<Manifest> ParseManifest(std::string_view bytes, const ManifestFile& manifest);
// Reads manifest.manifest_path through `io`, then ParseManifest.
// Errors: NotFound, Io, Corruption.
Result<Manifest> ReadManifest(FileIO& io, const ManifestFile& manifest);

}  // namespace st::iceberg
