#include "maintenance/record_expiration.h"

#include <cstring>
#include <vector>

#include "iceberg/delete.h"
#include "iceberg/manifest.h"
#include "iceberg/manifest_list.h"

namespace st::maintenance {

namespace {

constexpr int64_t kMicrosPerHour = 3'600'000'000LL;
constexpr int kMaxReplans = 5;

// The partition field (position in the tuple) and source of the expiration
// column in `spec`.
struct ExpirationColumn {
  size_t position = 0;
  int32_t source_id = 0;
  iceberg::Transform transform = iceberg::Transform::Identity();
};

std::optional<ExpirationColumn> FindColumn(const iceberg::TableMetadata& metadata) {
  const iceberg::PartitionSpec* spec = metadata.DefaultSpec();
  const iceberg::Schema* schema = metadata.CurrentSchema();
  if (spec == nullptr || schema == nullptr) return std::nullopt;
  for (size_t i = 0; i < spec->fields().size(); ++i) {
    const iceberg::PartitionField& field = spec->fields()[i];
    const iceberg::NestedField* source = schema->FindField(field.source_id);
    if (source == nullptr || source->type == nullptr ||
        source->type->id() != iceberg::TypeId::kTimestampTz) {
      continue;
    }
    if (!PartitionEndMicros(field.transform, 0).has_value()) continue;
    return ExpirationColumn{i, field.source_id, field.transform};
  }
  return std::nullopt;
}

// The exclusive upper end of the file's timestamps, if known.
std::optional<int64_t> NewestMicros(const iceberg::DataFile& file, const ExpirationColumn& column,
                                    int32_t default_spec_id) {
  auto bound = file.upper_bounds.find(column.source_id);
  if (bound != file.upper_bounds.end() && bound->second.size() == 8) {
    int64_t micros = 0;
    std::memcpy(&micros, bound->second.data(), 8);  // Little-endian on every target we build.
    return micros + 1;
  }
  if (file.spec_id != default_spec_id || file.partition.kind() != Value::Kind::kStruct) {
    return std::nullopt;
  }
  const Value::Struct& tuple = file.partition.struct_value();
  if (column.position >= tuple.size()) return std::nullopt;
  const Value& value = tuple[column.position];
  if (value.kind() == Value::Kind::kInt32) {
    return PartitionEndMicros(column.transform, value.int32_value());
  }
  if (value.kind() == Value::Kind::kInt64) {
    return PartitionEndMicros(column.transform, value.int64_value());
  }
  return std::nullopt;  // Null partition: unknown age, keep.
}

}  // namespace

std::optional<int64_t> PartitionEndMicros(const iceberg::Transform& transform, int64_t value) {
  switch (transform.kind()) {
    case iceberg::Transform::Kind::kHour:
      return (value + 1) * kMicrosPerHour;
    case iceberg::Transform::Kind::kDay:
      return (value + 1) * 24 * kMicrosPerHour;
    case iceberg::Transform::Kind::kIdentity:
      return value + 1;
    default:
      return std::nullopt;
  }
}

Result<RecordExpirationOutcome> ExpireRecords(const RecordExpirationContext& ctx,
                                              const catalog::Table& table, std::chrono::days days) {
  for (int attempt = 0;; ++attempt) {
    RecordExpirationOutcome out;
    ST_ASSIGN_OR_RETURN(catalog::LoadedTable loaded, ctx.commits.LoadTable(table.table_id));
    if (!loaded.metadata.has_value()) return out;
    const iceberg::TableMetadata& base = loaded.metadata->metadata;
    std::optional<ExpirationColumn> column = FindColumn(base);
    if (!column.has_value()) {
      return Err(FailedPrecondition(
          "Record expiration needs the table " + table.arn +
          " to be partitioned by hour, day or identity of a timestamptz column; it is not."));
    }
    const iceberg::Snapshot* current = base.CurrentSnapshot();
    if (current == nullptr) return out;
    const int64_t horizon_us =
        std::chrono::duration_cast<std::chrono::microseconds>(
            (ctx.clock.Now() -
             std::chrono::duration_cast<std::chrono::system_clock::duration>(days))
                .time_since_epoch())
            .count();

    iceberg::FileIO io = catalog::TableFileIO(ctx.objects, loaded.table, ctx.key_root);
    std::vector<std::string> expired;
    ST_ASSIGN_OR_RETURN(std::vector<iceberg::ManifestFile> manifests,
                        iceberg::ReadManifestList(io, current->manifest_list));
    for (const iceberg::ManifestFile& manifest : manifests) {
      if (manifest.content != iceberg::ManifestContent::kData) continue;
      ST_ASSIGN_OR_RETURN(iceberg::Manifest contents, iceberg::ReadManifest(io, manifest));
      for (const iceberg::ManifestEntry& entry : contents.entries) {
        if (entry.status == iceberg::ManifestEntryStatus::kDeleted) continue;
        std::optional<int64_t> newest =
            NewestMicros(entry.data_file, *column, base.default_spec_id);
        if (!newest.has_value() || *newest > horizon_us) continue;
        expired.push_back(entry.data_file.file_path);
        ++out.deleted_data_files;
        out.deleted_records += entry.data_file.record_count;
        out.removed_files_size_bytes += entry.data_file.file_size_in_bytes;
      }
    }
    if (expired.empty()) return out;

    iceberg::OperationContext op{io, ctx.clock, ctx.random};
    ST_ASSIGN_OR_RETURN(
        iceberg::SnapshotCommit snapshot,
        iceberg::DeleteFiles(base, expired, {{"streamtables.maintenance", "record-expiration"}},
                             op));
    catalog::CommitOptions commit;
    commit.account_id = loaded.table.owner_account_id;
    // In the streaming table's writer's name, without offsets (no rows added).
    commit.acting_channel = loaded.table.managed_by_channel;
    Result<catalog::LoadedTable> committed =
        ctx.commits.CommitTable(table.table_id, snapshot.requirements, snapshot.updates, commit);
    if (committed.has_value()) return out;
    if (committed.error().code() != StatusCode::kConflict || attempt >= kMaxReplans) {
      return Err(committed.error());
    }
    // A delivery commit landed first: re-plan on it.
  }
}

}  // namespace st::maintenance
