#include "iceberg/manifest.h"

#include <cmath>
#include <utility>

#include "avro/container.h"
#include "iceberg/conversions.h"
#include "iceberg/manifest_avro_internal.h"
#include "iceberg/manifest_metadata_internal.h"

namespace st::iceberg {

namespace {

// Running per-partition-field summary (manifest list `partitions`).
struct FieldSummary {
  bool contains_null = false;
  bool contains_nan = false;
  std::optional<Value> lower;
  std::optional<Value> upper;
};

bool IsNaN(const Value& v) {
  if (v.kind() == Value::Kind::kFloat) return std::isnan(v.float_value());
  if (v.kind() == Value::Kind::kDouble) return std::isnan(v.double_value());
  return false;
}

}  // namespace

struct ManifestWriter::State {
  FileIO* io = nullptr;
  ManifestWriterOptions options;
  TypePtr partition_type;
  std::unique_ptr<storage::ObjectWriter> out;
  std::unique_ptr<avro::ContainerWriter> writer;
  std::vector<FieldSummary> summaries;
  ManifestFile result;
  std::optional<int64_t> min_sequence_number;
  int64_t entries = 0;
  bool closed = false;
  Status error;

  Status Fail(Status status) {
    if (error.ok()) error = std::move(status);
    return error;
  }
};

ManifestWriter::ManifestWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}
ManifestWriter::~ManifestWriter() = default;

Result<std::unique_ptr<ManifestWriter>> ManifestWriter::Make(FileIO& io,
                                                             ManifestWriterOptions options) {
  if (options.schema == nullptr) {
    return Err(InvalidArgument("manifest " + options.path + ": no table schema given"));
  }
  auto state = std::make_unique<State>();
  state->io = &io;
  ST_ASSIGN_OR_RETURN(state->partition_type, options.spec.PartitionType(*options.schema));
  ST_ASSIGN_OR_RETURN(avro::Schema avro_schema,
                      internal::ManifestEntryAvroSchema(*state->partition_type));
  avro::ContainerWriterOptions container;
  container.random = options.random;
  ST_ASSIGN_OR_RETURN(container.metadata,
                      internal::ManifestMetadata(*options.schema, options.spec, options.content));
  ST_ASSIGN_OR_RETURN(state->out, io.NewWriter(options.path));
  ST_ASSIGN_OR_RETURN(state->writer, avro::ContainerWriter::Make(std::move(avro_schema), container,
                                                                 state->out.get()));
  state->summaries.resize(options.spec.fields().size());
  ManifestFile& r = state->result;
  r.manifest_path = options.path;
  r.partition_spec_id = options.spec.spec_id();
  r.content = options.content;
  r.sequence_number = options.sequence_number;
  r.added_snapshot_id = options.snapshot_id;
  state->options = std::move(options);
  return std::unique_ptr<ManifestWriter>(new ManifestWriter(std::move(state)));
}

int64_t ManifestWriter::entry_count() const { return state_->entries; }

Status ManifestWriter::Add(const DataFile& file) {
  ManifestEntry entry;
  entry.status = ManifestEntryStatus::kAdded;
  entry.snapshot_id = state_->options.snapshot_id;
  entry.data_file = file;
  return AddEntry(entry);
}

Status ManifestWriter::AddExisting(const ManifestEntry& entry) {
  ManifestEntry copy = entry;
  copy.status = ManifestEntryStatus::kExisting;
  return AddEntry(copy);
}

Status ManifestWriter::AddDeleted(const ManifestEntry& entry) {
  ManifestEntry copy = entry;
  copy.status = ManifestEntryStatus::kDeleted;
  copy.snapshot_id = state_->options.snapshot_id;
  return AddEntry(copy);
}

Status ManifestWriter::AddEntry(const ManifestEntry& entry) {
  State& s = *state_;
  if (!s.error.ok()) return s.error;
  if (s.closed) return s.Fail(FailedPrecondition("manifest " + s.options.path + " is closed"));
  const DataFile& file = entry.data_file;
  const std::string what = "manifest " + s.options.path + ", file " + file.file_path;
  if (file.spec_id != s.options.spec.spec_id()) {
    return s.Fail(InvalidArgument(what + ": partition spec " + std::to_string(file.spec_id) +
                                  " does not match the manifest's spec " +
                                  std::to_string(s.options.spec.spec_id()) +
                                  "; write one manifest per spec"));
  }
  const auto& type_fields = s.partition_type->fields();
  if (file.partition.kind() != Value::Kind::kStruct ||
      file.partition.struct_value().size() != type_fields.size()) {
    return s.Fail(InvalidArgument(what + ": partition tuple must be a struct of " +
                                  std::to_string(type_fields.size()) + " values"));
  }
  if (entry.status != ManifestEntryStatus::kAdded &&
      (!entry.snapshot_id || !entry.sequence_number || !entry.file_sequence_number)) {
    return s.Fail(
        InvalidArgument(what + ": EXISTING and DELETED entries need their snapshot id and both "
                               "sequence numbers; read them through ReadManifest, which resolves "
                               "inherited values"));
  }
  const auto& values = file.partition.struct_value();
  for (size_t i = 0; i < values.size(); ++i) {
    const Value& v = values[i];
    FieldSummary& summary = s.summaries[i];
    if (v.is_null()) {
      summary.contains_null = true;
      continue;
    }
    const Type& type = *type_fields[i].type;
    if (!ValueMatchesType(type, v)) {
      return s.Fail(InvalidArgument(what + ": partition value of '" + type_fields[i].name +
                                    "' does not match its type " + type.ToString()));
    }
    if (IsNaN(v)) {
      summary.contains_nan = true;
      continue;
    }
    if (!summary.lower || CompareValues(type, v, *summary.lower) < 0) summary.lower = v;
    if (!summary.upper || CompareValues(type, v, *summary.upper) > 0) summary.upper = v;
  }

  Status appended = s.writer->Append(internal::ManifestEntryToAvro(entry));
  if (!appended.ok()) return s.Fail(appended.WithContext(what));
  ++s.entries;
  ManifestFile& r = s.result;
  switch (entry.status) {
    case ManifestEntryStatus::kAdded:
      ++r.added_files_count;
      r.added_rows_count += file.record_count;
      break;
    case ManifestEntryStatus::kExisting:
      ++r.existing_files_count;
      r.existing_rows_count += file.record_count;
      break;
    case ManifestEntryStatus::kDeleted:
      ++r.deleted_files_count;
      r.deleted_rows_count += file.record_count;
      break;
  }
  if (entry.status != ManifestEntryStatus::kDeleted) {
    int64_t seq = entry.sequence_number.value_or(s.options.sequence_number);
    s.min_sequence_number = std::min(s.min_sequence_number.value_or(seq), seq);
  }
  return Status::OK();
}

Result<ManifestFile> ManifestWriter::Close() {
  State& s = *state_;
  if (!s.error.ok()) return Err(s.error);
  if (s.closed) return Err(FailedPrecondition("manifest " + s.options.path + " is closed"));
  s.closed = true;
  Status closed = s.writer->Close();
  if (closed.ok()) closed = s.out->Commit();
  if (!closed.ok()) return Err(s.Fail(closed.WithContext("manifest " + s.options.path)));
  ManifestFile& r = s.result;
  r.manifest_length = s.out->Position();
  r.min_sequence_number = s.min_sequence_number.value_or(s.options.sequence_number);
  const auto& type_fields = s.partition_type->fields();
  for (size_t i = 0; i < s.summaries.size(); ++i) {
    const FieldSummary& f = s.summaries[i];
    PartitionFieldSummary out;
    out.contains_null = f.contains_null;
    out.contains_nan = f.contains_nan;
    if (f.lower) {
      ST_ASSIGN_OR_RETURN(out.lower_bound, ToSingleValueBytes(*type_fields[i].type, *f.lower));
      ST_ASSIGN_OR_RETURN(out.upper_bound, ToSingleValueBytes(*type_fields[i].type, *f.upper));
    }
    r.partitions.push_back(std::move(out));
  }
  return r;
}

Result<Manifest> ParseManifest(std::string_view bytes, const ManifestFile& manifest) {
  const std::string what = "manifest " + manifest.manifest_path;
  auto reader = avro::ContainerReader::Open(bytes);
  if (!reader.has_value()) return Err(Corruption(what + ": " + reader.error().message()));
  const avro::Node& root = (*reader)->schema().root();
  internal::RecordLayout entry_layout(root);
  internal::RecordLayout file_layout = entry_layout.Nested("data_file");
  Manifest out;
  for (const auto& [k, v] : (*reader)->metadata()) out.metadata.emplace_back(k, v);
  Value record;
  while (true) {
    auto more = (*reader)->Next(&record);
    if (!more.has_value()) return Err(Corruption(what + ": " + more.error().message()));
    if (!*more) break;
    ST_ASSIGN_OR_RETURN(ManifestEntry entry,
                        internal::ManifestEntryFromAvro(entry_layout, file_layout, record, what));
    if (!entry.snapshot_id) entry.snapshot_id = manifest.added_snapshot_id;
    // Only ADDED entries inherit in v2; v1 manifests (sequence number 0) carry none.
    bool may_inherit = entry.status == ManifestEntryStatus::kAdded || manifest.sequence_number == 0;
    if (!entry.sequence_number || !entry.file_sequence_number) {
      if (!may_inherit) {
        return Err(Corruption(what + ": entry for " + entry.data_file.file_path +
                              " is EXISTING or DELETED but has no sequence number"));
      }
      if (!entry.sequence_number) entry.sequence_number = manifest.sequence_number;
      if (!entry.file_sequence_number) entry.file_sequence_number = manifest.sequence_number;
    }
    entry.data_file.spec_id = manifest.partition_spec_id;
    out.entries.push_back(std::move(entry));
  }
  return out;
}

Result<Manifest> ReadManifest(FileIO& io, const ManifestFile& manifest) {
  ST_ASSIGN_OR_RETURN(std::string bytes, io.Read(manifest.manifest_path));
  return ParseManifest(bytes, manifest);
}

}  // namespace st::iceberg
