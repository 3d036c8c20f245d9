#include "maintenance/record_expiration.h"

#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "iceberg/data_file_writer.h"
#include "iceberg/delete.h"
#include "iceberg/manifest.h"
#include "iceberg/manifest_list.h"
#include "iceberg/rewrite.h"
#include "parquet/file_reader.h"

namespace st::maintenance {

namespace {

constexpr int64_t kMicrosPerHour = 3'600'000'000LL;
constexpr int kMaxExpirationReplans = 5;

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

std::optional<int64_t> Bound(const std::map<int32_t, std::string>& bounds, int32_t field_id) {
  auto bound = bounds.find(field_id);
  if (bound == bounds.end() || bound->second.size() != 8) return std::nullopt;
  int64_t micros = 0;
  std::memcpy(&micros, bound->second.data(), 8);  // Little-endian on every target we build.
  return micros;
}

// The file's partition value of the expiration column, when it is dated by
// the default spec (a null partition has no age).
std::optional<int64_t> PartitionValue(const iceberg::DataFile& file, const ExpirationColumn& column,
                                      int32_t default_spec_id) {
  if (file.spec_id != default_spec_id || file.partition.kind() != Value::Kind::kStruct) {
    return std::nullopt;
  }
  const Value::Struct& tuple = file.partition.struct_value();
  if (column.position >= tuple.size()) return std::nullopt;
  const Value& value = tuple[column.position];
  if (value.kind() == Value::Kind::kInt32) return value.int32_value();
  if (value.kind() == Value::Kind::kInt64) return value.int64_value();
  return std::nullopt;
}

// The exclusive upper end of the file's timestamps, if known.
std::optional<int64_t> NewestMicros(const iceberg::DataFile& file, const ExpirationColumn& column,
                                    int32_t default_spec_id) {
  if (auto upper = Bound(file.upper_bounds, column.source_id)) return *upper + 1;
  std::optional<int64_t> partition = PartitionValue(file, column, default_spec_id);
  if (!partition.has_value()) return std::nullopt;
  return PartitionEndMicros(column.transform, *partition);
}

// The inclusive lower end of the file's timestamps, if known.
std::optional<int64_t> OldestMicros(const iceberg::DataFile& file, const ExpirationColumn& column,
                                    int32_t default_spec_id) {
  if (auto lower = Bound(file.lower_bounds, column.source_id)) return *lower;
  std::optional<int64_t> partition = PartitionValue(file, column, default_spec_id);
  if (!partition.has_value()) return std::nullopt;
  return PartitionStartMicros(column.transform, *partition);
}

// One straddling file rewritten: what replaces it and how many rows it lost.
struct Rewritten {
  std::vector<iceberg::DataFile> added;
  int64_t removed_rows = 0;
};

// The positions leading from a file row to the value of field `id`: a
// top-level column or a field inside (nested) structs, such as
// `_kafka.timestamp`. Lists and maps are not searched (a partition source is
// never inside one).
bool PathTo(const std::vector<parquet::Node>& fields, int32_t id, std::vector<size_t>* path) {
  for (size_t i = 0; i < fields.size(); ++i) {
    path->push_back(i);
    if (fields[i].field_id() == id) return true;
    if (fields[i].logical_type().kind == parquet::LogicalType::Kind::kNone &&
        !fields[i].children().empty() && PathTo(fields[i].children(), id, path)) {
      return true;
    }
    path->pop_back();
  }
  return false;
}

const Value* ValueAt(const Value& row, const std::vector<size_t>& path) {
  const Value* value = &row;
  for (size_t position : path) {
    if (value->kind() != Value::Kind::kStruct) return nullptr;  // A null struct.
    const Value::Struct& fields = value->struct_value();
    if (position >= fields.size()) return nullptr;
    value = &fields[position];
  }
  return value;
}

// One row group as rows, under `budget`: its column batches are charged
// page by page as they decode (ReaderOptions::budget), then the rows they
// assemble into (about one Value per level entry plus the bytes it copies)
// before they are built. The batches are released once the rows hold their
// values; the rows' charge goes with them.
struct ChargedRows {
  std::vector<Value> rows;
  parquet::BudgetCharge charge;
};

Result<ChargedRows> ReadRowsCharged(const parquet::FileReader& reader, int group,
                                    parquet::DecodeBudget* budget) {
  std::vector<parquet::ColumnBatch> batches;
  int64_t row_bytes = 0;
  for (int c = 0; c < reader.schema().num_columns(); ++c) {
    ST_ASSIGN_OR_RETURN(parquet::ColumnBatch batch, reader.ReadColumn(group, c));
    row_bytes += batch.num_levels * static_cast<int64_t>(sizeof(Value));
    for (std::string_view v : batch.bytes) row_bytes += static_cast<int64_t>(v.size());
    batches.push_back(std::move(batch));
  }
  ChargedRows out;
  out.charge = parquet::BudgetCharge(budget);
  ST_TRY(out.charge.Add(row_bytes, "row group " + std::to_string(group) + " as rows"));
  ST_ASSIGN_OR_RETURN(
      out.rows,
      parquet::AssembleRows(reader.schema(), batches,
                            reader.metadata().row_groups[static_cast<size_t>(group)].num_rows));
  return out;
}

// Rows of `file` whose expiration column is at or after `horizon_us` (or
// null), written in the current schema with the file's own spec. Top-level
// fields are matched by id (a field the file lacks is null); nested values
// are copied as the file has them.
Result<Rewritten> RewriteWithoutOldRows(iceberg::FileIO& io, Random& random,
                                        const iceberg::TableMetadata& base,
                                        const iceberg::DataFile& file,
                                        const ExpirationColumn& column, int64_t horizon_us,
                                        parquet::DecodeBudget* budget) {
  const iceberg::Schema* schema = base.CurrentSchema();
  const iceberg::PartitionSpec* spec = base.SpecById(file.spec_id);
  if (schema == nullptr || spec == nullptr) {
    return Err(Corruption("Table " + base.location + " has no current schema or no spec " +
                          std::to_string(file.spec_id) + " for " + file.file_path));
  }
  // The manifest's size is charged before the read, so a file too large for
  // the budget is never fetched; the bytes read are charged if they differ.
  parquet::BudgetCharge file_charge(budget);
  ST_TRY(file_charge.Add(file.file_size_in_bytes, "the file's bytes"));
  ST_ASSIGN_OR_RETURN(std::string bytes, io.Read(file.file_path));
  ST_TRY(file_charge.Add(static_cast<int64_t>(bytes.size()) - file.file_size_in_bytes,
                         "the file's bytes"));
  parquet::ReaderOptions reader_options;
  reader_options.budget = budget;
  ST_ASSIGN_OR_RETURN(std::unique_ptr<parquet::FileReader> reader,
                      parquet::FileReader::Open(bytes, reader_options));
  // Table field position -> file field position.
  const std::vector<parquet::Node>& file_fields = reader->schema().fields();
  std::vector<std::optional<size_t>> source(schema->fields().size());
  for (size_t i = 0; i < schema->fields().size(); ++i) {
    for (size_t j = 0; j < file_fields.size(); ++j) {
      if (file_fields[j].field_id() == schema->fields()[i].id) source[i] = j;
    }
  }
  std::vector<size_t> ts_path;
  if (!PathTo(file_fields, column.source_id, &ts_path)) {
    return Err(Corruption("Data file " + file.file_path + " has no column with field id " +
                          std::to_string(column.source_id) + " to expire records by"));
  }

  ST_ASSIGN_OR_RETURN(iceberg::DataFileWriterOptions options,
                      iceberg::DataFileWriterOptionsFromProperties(base.location, base.properties));
  ST_ASSIGN_OR_RETURN(std::unique_ptr<iceberg::DataFileWriter> writer,
                      iceberg::DataFileWriter::Make(io, *schema, *spec, options, random));
  Rewritten out;
  int64_t read_rows = 0;
  int64_t kept_rows = 0;
  for (int group = 0; group < reader->num_row_groups(); ++group) {
    ST_ASSIGN_OR_RETURN(ChargedRows rows, ReadRowsCharged(*reader, group, budget));
    for (const Value& row : rows.rows) {
      ++read_rows;
      const Value::Struct& fields = row.struct_value();
      const Value* ts = ValueAt(row, ts_path);
      if (ts != nullptr && ts->kind() == Value::Kind::kInt64 && ts->int64_value() < horizon_us) {
        continue;
      }
      Value::Struct mapped;
      mapped.reserve(source.size());
      for (const std::optional<size_t>& from : source) {
        mapped.push_back(from.has_value() ? fields[*from] : Value::Null());
      }
      ST_TRY(writer->Write(Value::MakeStruct(std::move(mapped))));
      ++kept_rows;
    }
  }
  ST_ASSIGN_OR_RETURN(out.added, writer->Close());
  out.removed_rows = read_rows - kept_rows;
  return out;
}

// Best effort: files this run wrote but did not commit (a lost race or a
// failure before the commit). Unreferenced file removal catches any left.
void DeleteUncommitted(iceberg::FileIO& io, const std::vector<iceberg::DataFile>& files) {
  for (const iceberg::DataFile& file : files) (void)io.Delete(file.file_path);
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

std::optional<int64_t> PartitionStartMicros(const iceberg::Transform& transform, int64_t value) {
  switch (transform.kind()) {
    case iceberg::Transform::Kind::kHour:
      return value * kMicrosPerHour;
    case iceberg::Transform::Kind::kDay:
      return value * 24 * kMicrosPerHour;
    case iceberg::Transform::Kind::kIdentity:
      return value;
    default:
      return std::nullopt;
  }
}

Result<RecordExpirationOutcome> ExpireRecords(const RecordExpirationContext& ctx,
                                              const catalog::Table& table, std::chrono::days days,
                                              int64_t memory_budget_bytes) {
  parquet::DecodeBudget budget(memory_budget_bytes, "the compaction memory budget");
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
    std::vector<std::string> removed;
    std::vector<iceberg::DataFile> straddling;
    ST_ASSIGN_OR_RETURN(std::vector<iceberg::ManifestFile> manifests,
                        iceberg::ReadManifestList(io, current->manifest_list));
    for (const iceberg::ManifestFile& manifest : manifests) {
      if (manifest.content != iceberg::ManifestContent::kData) continue;
      ST_ASSIGN_OR_RETURN(iceberg::Manifest contents, iceberg::ReadManifest(io, manifest));
      for (const iceberg::ManifestEntry& entry : contents.entries) {
        if (entry.status == iceberg::ManifestEntryStatus::kDeleted) continue;
        const iceberg::DataFile& file = entry.data_file;
        std::optional<int64_t> newest = NewestMicros(file, *column, base.default_spec_id);
        if (!newest.has_value()) continue;
        if (*newest <= horizon_us) {
          removed.push_back(file.file_path);
          ++out.deleted_data_files;
          out.deleted_records += file.record_count;
          out.removed_files_size_bytes += file.file_size_in_bytes;
          continue;
        }
        std::optional<int64_t> oldest = OldestMicros(file, *column, base.default_spec_id);
        if (oldest.has_value() && *oldest < horizon_us) straddling.push_back(file);
      }
    }

    std::vector<iceberg::DataFile> added;
    for (const iceberg::DataFile& file : straddling) {
      Result<Rewritten> rewritten =
          RewriteWithoutOldRows(io, ctx.random, base, file, *column, horizon_us, &budget);
      if (!rewritten.has_value()) {
        DeleteUncommitted(io, added);
        return Err(
            rewritten.error().WithContext("record expiration of data file " + file.file_path));
      }
      if (rewritten->removed_rows == 0) {
        // The bounds overstated the file's age (a partition start without a
        // lower bound): nothing to remove, keep the original.
        DeleteUncommitted(io, rewritten->added);
        continue;
      }
      removed.push_back(file.file_path);
      ++out.deleted_data_files;
      ++out.rewritten_data_files;
      out.deleted_records += rewritten->removed_rows;
      out.removed_files_size_bytes += file.file_size_in_bytes;
      for (iceberg::DataFile& f : rewritten->added) added.push_back(std::move(f));
    }
    if (removed.empty()) return out;

    iceberg::OperationContext op{io, ctx.commits.clock(), ctx.random};
    const iceberg::SnapshotSummary summary{{"streamtables.maintenance", "record-expiration"}};
    Result<iceberg::SnapshotCommit> snapshot =
        out.rewritten_data_files == 0 ? iceberg::DeleteFiles(base, removed, summary, op)
                                      : iceberg::OverwriteFiles(base, removed, added, summary, op);
    if (!snapshot.has_value()) {
      DeleteUncommitted(io, added);
      return Err(snapshot.error());
    }
    catalog::CommitOptions commit;
    commit.account_id = loaded.table.owner_account_id;
    // In the streaming table's writer's name, without offsets (no Kafka
    // records delivered).
    commit.acting_channel = loaded.table.managed_by_channel;
    Result<catalog::LoadedTable> committed =
        ctx.commits.CommitTable(table.table_id, snapshot->requirements, snapshot->updates, commit);
    if (committed.has_value()) return out;
    // Only a refused compare-and-swap proves the new files unreferenced; an
    // unknown commit state may have committed them.
    if (committed.error().code() == StatusCode::kConflict) DeleteUncommitted(io, added);
    if (committed.error().code() != StatusCode::kConflict || attempt >= kMaxExpirationReplans) {
      return Err(committed.error());
    }
    // A delivery commit landed first: re-plan on it.
  }
}

}  // namespace st::maintenance
