#include "cli/write_table_command.h"

#include <filesystem>
#include <fstream>
#include <ostream>

#include "cli/builtin_tables.h"
#include "cli/partition_expression.h"
#include "cli/row_json.h"
#include "common/clock.h"
#include "common/uuid.h"
#include "iceberg/append.h"
#include "iceberg/data_file_writer.h"
#include "iceberg/file_io.h"
#include "iceberg/table_commit.h"
#include "iceberg/table_paths.h"
#include "iceberg/table_update.h"
#include "storage/local_object_store.h"

namespace st::cli {
namespace {

Result<std::string> AbsoluteWarehouse(const std::string& dir) {
  if (dir.empty()) return Err(InvalidArgument("--warehouse is empty"));
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(dir, ec);
  if (ec) return Err(InvalidArgument("--warehouse '" + dir + "': " + ec.message()));
  std::string s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

Status CheckName(const std::string& flag, const std::string& name) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
    return InvalidArgument(flag + " '" + name + "' must be a non-empty name without '/'");
  }
  return Status::OK();
}

// The highest-versioned metadata file of the table, if any.
Result<std::optional<std::string>> LatestMetadata(storage::ObjectStore& store, iceberg::FileIO& io,
                                                  const std::string& table_key) {
  ST_ASSIGN_OR_RETURN(auto objects, store.List(table_key + "/metadata/"));
  std::optional<std::string> best;
  int64_t best_version = -1;
  for (const auto& object : objects) {
    const std::string& key = object.key;
    constexpr std::string_view kSuffix = ".metadata.json";
    if (key.size() < kSuffix.size() ||
        key.compare(key.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) {
      continue;
    }
    ST_ASSIGN_OR_RETURN(std::string uri, io.UriFor(key));
    int64_t version = iceberg::MetadataFileVersion(uri);
    if (version > best_version) {
      best_version = version;
      best = uri;
    }
  }
  return best;
}

std::map<std::string, std::string> WriteProperties(const WriteTableOptions& o) {
  std::map<std::string, std::string> props;
  if (o.codec) props["write.parquet.compression-codec"] = *o.codec;
  if (o.row_group_bytes)
    props["write.parquet.row-group-size-bytes"] = std::to_string(*o.row_group_bytes);
  if (o.page_bytes) props["write.parquet.page-size-bytes"] = std::to_string(*o.page_bytes);
  if (o.target_file_bytes)
    props["write.target-file-size-bytes"] = std::to_string(*o.target_file_bytes);
  return props;
}

int64_t TotalRecords(const iceberg::TableMetadata& metadata) {
  const iceberg::Snapshot* snapshot = metadata.CurrentSnapshot();
  if (snapshot == nullptr) return 0;
  auto it = snapshot->summary.find("total-records");
  if (it == snapshot->summary.end()) return 0;
  try {
    return std::stoll(it->second);
  } catch (...) {
    return 0;
  }
}

}  // namespace

uint64_t RowSeed(uint64_t seed, int64_t index) {
  RowRandom mix(seed ^ (static_cast<uint64_t>(index) * 0xD1B54A32D192ED03ULL));
  return mix.Next();
}

Result<std::string> RunWriteTable(const WriteTableOptions& options, std::ostream& log) {
  ST_TRY(CheckName("--namespace", options.namespace_name));
  ST_TRY(CheckName("--table", options.table));
  if (options.rows < 0) return Err(InvalidArgument("--rows must not be negative"));
  if (options.commits < 1) return Err(InvalidArgument("--commits must be at least 1"));
  ST_ASSIGN_OR_RETURN(BuiltinTable table, MakeBuiltinTable(options.schema));
  ST_ASSIGN_OR_RETURN(auto partition_fields,
                      ParsePartitionExpression(table.schema, options.partition_by));
  auto requested_spec = iceberg::PartitionSpec::Make(table.schema, 0, partition_fields);
  if (!requested_spec) return Err(requested_spec.error().WithContext("--partition-by"));

  ST_ASSIGN_OR_RETURN(std::string warehouse, AbsoluteWarehouse(options.warehouse));
  ST_ASSIGN_OR_RETURN(auto store, storage::OpenLocalObjectStore(warehouse));
  iceberg::FileIO io(*store, warehouse, "");
  const std::string table_key = options.namespace_name + "/" + options.table;
  const std::string location = warehouse + "/" + table_key;
  DefaultRandom random;
  const Clock& clock = SystemClock::Default();

  ST_ASSIGN_OR_RETURN(auto latest, LatestMetadata(*store, io, table_key));
  iceberg::MetadataVersion current;
  if (latest) {
    ST_ASSIGN_OR_RETURN(current, iceberg::ReadMetadata(io, *latest));
    const iceberg::Schema* schema = current.metadata.CurrentSchema();
    if (schema == nullptr || !schema->SameStructure(table.schema)) {
      return Err(InvalidArgument("table " + location +
                                 " exists with a schema other than --schema " + options.schema +
                                 "; pick another --table"));
    }
    const iceberg::PartitionSpec* spec = current.metadata.DefaultSpec();
    if (!options.partition_by.empty() &&
        (spec == nullptr || spec->fields() != requested_spec->fields())) {
      return Err(InvalidArgument(
          "table " + location + " exists with another partition spec than --partition-by '" +
          options.partition_by + "'; omit the flag or pick another --table"));
    }
    log << "continuing " << *latest << "\n";
  } else {
    ST_ASSIGN_OR_RETURN(
        auto metadata,
        iceberg::NewTableMetadata(table.schema, *requested_spec, iceberg::SortOrder::Unsorted(),
                                  location, WriteProperties(options),
                                  Uuid::Generate(random).ToString(), clock.NowMillis()));
    ST_ASSIGN_OR_RETURN(current, iceberg::WriteInitialMetadata(io, std::move(metadata), random));
    log << "created " << current.location << "\n";
  }

  // Explicit flags override the table's properties for this run.
  auto properties = current.metadata.properties;
  for (auto& [k, v] : WriteProperties(options)) properties[k] = v;
  ST_ASSIGN_OR_RETURN(auto writer_options,
                      iceberg::DataFileWriterOptionsFromProperties(location, properties));
  // Copies: `current` is replaced after every commit.
  if (current.metadata.CurrentSchema() == nullptr || current.metadata.DefaultSpec() == nullptr) {
    return Err(Corruption("metadata " + current.location + " has no current schema or spec"));
  }
  const iceberg::Schema schema = *current.metadata.CurrentSchema();
  const iceberg::PartitionSpec spec = *current.metadata.DefaultSpec();

  std::ofstream dump;
  if (!options.dump_rows.empty()) {
    dump.open(options.dump_rows, std::ios::binary | std::ios::trunc);
    if (!dump) {
      return Err(
          InvalidArgument("--dump-rows: cannot open '" + options.dump_rows + "' for writing"));
    }
  }
  const int64_t first_index = TotalRecords(current.metadata);
  for (int c = 0; c < options.commits; ++c) {
    ST_ASSIGN_OR_RETURN(auto writer,
                        iceberg::DataFileWriter::Make(io, schema, spec, writer_options, random));
    for (int64_t i = 0; i < options.rows; ++i) {
      const int64_t index = first_index + c * options.rows + i;
      RowRandom row_random(RowSeed(options.seed, index));
      Value row = table.make_row(row_random, index);
      if (dump.is_open()) {
        ST_ASSIGN_OR_RETURN(std::string line, RowToJsonLine(table.schema, row));
        dump << line << '\n';
      }
      ST_TRY(writer->Write(row));
    }
    ST_ASSIGN_OR_RETURN(auto files, writer->Close());
    iceberg::OperationContext ctx{io, clock, random};
    ST_ASSIGN_OR_RETURN(auto commit, iceberg::FastAppend(current.metadata, files, {}, ctx));
    ST_ASSIGN_OR_RETURN(
        auto next, iceberg::WriteNextMetadata(io, current, std::move(commit.metadata), random));
    current = std::move(next.version);
    log << "commit " << c + 1 << "/" << options.commits << ": " << options.rows << " rows in "
        << files.size() << " files -> " << current.location << "\n";
  }
  if (dump.is_open() && !dump.flush()) {
    return Err(IoError("--dump-rows: writing '" + options.dump_rows + "' failed"));
  }
  return current.location;
}

}  // namespace st::cli
