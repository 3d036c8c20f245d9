#include <algorithm>
#include <cstring>
#include <utility>

#include "common/uuid.h"
#include "iceberg/manifest_list.h"
#include "iceberg/snapshot_producer_internal.h"
#include "iceberg/table_paths.h"

namespace st::iceberg::internal {

namespace {

// A byte string that is equal for equal partition tuples (for counting
// changed partitions).
void AppendKey(const Value& v, std::string* out) {
  out->push_back(static_cast<char>(v.kind()));
  auto raw = [&](const void* p, size_t n) { out->append(static_cast<const char*>(p), n); };
  switch (v.kind()) {
    case Value::Kind::kNull:
      break;
    case Value::Kind::kBool:
      out->push_back(v.bool_value() ? 1 : 0);
      break;
    case Value::Kind::kInt32: {
      int32_t x = v.int32_value();
      raw(&x, sizeof(x));
      break;
    }
    case Value::Kind::kInt64: {
      int64_t x = v.int64_value();
      raw(&x, sizeof(x));
      break;
    }
    case Value::Kind::kFloat: {
      float x = v.float_value();
      raw(&x, sizeof(x));
      break;
    }
    case Value::Kind::kDouble: {
      double x = v.double_value();
      raw(&x, sizeof(x));
      break;
    }
    case Value::Kind::kDecimal: {
      Int128 x = v.decimal_value();
      raw(&x, sizeof(x));
      break;
    }
    case Value::Kind::kString:
    case Value::Kind::kBinary: {
      uint64_t n = v.bytes_value().size();
      raw(&n, sizeof(n));
      out->append(v.bytes_value());
      break;
    }
    case Value::Kind::kList:
    case Value::Kind::kStruct: {
      const auto& items = v.kind() == Value::Kind::kList ? v.list_value() : v.struct_value();
      uint64_t n = items.size();
      raw(&n, sizeof(n));
      for (const Value& item : items) AppendKey(item, out);
      break;
    }
    case Value::Kind::kMap: {
      uint64_t n = v.map_value().size();
      raw(&n, sizeof(n));
      for (const auto& [k, x] : v.map_value()) {
        AppendKey(k, out);
        AppendKey(x, out);
      }
      break;
    }
  }
}

std::string PartitionKey(const DataFile& file) {
  std::string key = std::to_string(file.spec_id) + ":";
  AppendKey(file.partition, &key);
  return key;
}

void SetIfPositive(SnapshotSummary* out, const char* key, int64_t value) {
  if (value > 0) (*out)[key] = std::to_string(value);
}

}  // namespace

int64_t NewSnapshotId(Random& random) {
  while (true) {
    int64_t id = static_cast<int64_t>(random.Next64() & 0x7fffffffffffffffULL);
    if (id != 0) return id;
  }
}

int64_t IntProperty(const TableMetadata& metadata, const std::string& key, int64_t fallback) {
  auto it = metadata.properties.find(key);
  if (it == metadata.properties.end()) return fallback;
  try {
    size_t used = 0;
    long long v = std::stoll(it->second, &used);
    return used == it->second.size() ? static_cast<int64_t>(v) : fallback;
  } catch (const std::exception&) {
    return fallback;
  }
}

bool BoolProperty(const TableMetadata& metadata, const std::string& key, bool fallback) {
  auto it = metadata.properties.find(key);
  if (it == metadata.properties.end()) return fallback;
  std::string v = it->second;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  if (v == "true") return true;
  if (v == "false") return false;
  return fallback;
}

void SummaryCounter::Count(const DataFile& file, Counts* c) {
  c->size_bytes += file.file_size_in_bytes;
  switch (file.content) {
    case DataFileContent::kData:
      ++c->data_files;
      c->records += file.record_count;
      break;
    case DataFileContent::kPositionDeletes:
      ++c->delete_files;
      ++c->position_delete_files;
      c->position_deletes += file.record_count;
      break;
    case DataFileContent::kEqualityDeletes:
      ++c->delete_files;
      ++c->equality_delete_files;
      c->equality_deletes += file.record_count;
      break;
  }
}

void SummaryCounter::Added(const DataFile& file) {
  Count(file, &added_);
  partitions_.insert(PartitionKey(file));
}

void SummaryCounter::Removed(const DataFile& file) {
  Count(file, &removed_);
  partitions_.insert(PartitionKey(file));
}

void SummaryCounter::WriteTo(const SnapshotSummary* previous, SnapshotSummary* out) const {
  SetIfPositive(out, "added-data-files", added_.data_files);
  SetIfPositive(out, "deleted-data-files", removed_.data_files);
  SetIfPositive(out, "added-delete-files", added_.delete_files);
  SetIfPositive(out, "added-position-delete-files", added_.position_delete_files);
  SetIfPositive(out, "added-equality-delete-files", added_.equality_delete_files);
  SetIfPositive(out, "removed-delete-files", removed_.delete_files);
  SetIfPositive(out, "removed-position-delete-files", removed_.position_delete_files);
  SetIfPositive(out, "removed-equality-delete-files", removed_.equality_delete_files);
  SetIfPositive(out, "added-records", added_.records);
  SetIfPositive(out, "deleted-records", removed_.records);
  SetIfPositive(out, "added-files-size", added_.size_bytes);
  SetIfPositive(out, "removed-files-size", removed_.size_bytes);
  SetIfPositive(out, "added-position-deletes", added_.position_deletes);
  SetIfPositive(out, "removed-position-deletes", removed_.position_deletes);
  SetIfPositive(out, "added-equality-deletes", added_.equality_deletes);
  SetIfPositive(out, "removed-equality-deletes", removed_.equality_deletes);
  (*out)["changed-partition-count"] = std::to_string(partitions_.size());

  // A parent without a total (written by a writer that skipped it) makes the
  // total unknown, so it is left out rather than guessed.
  auto total = [&](const char* key, int64_t delta) {
    int64_t base = 0;
    if (previous != nullptr) {
      auto it = previous->find(key);
      if (it == previous->end()) return;
      try {
        base = std::stoll(it->second);
      } catch (const std::exception&) {
        return;
      }
    }
    (*out)[key] = std::to_string(std::max<int64_t>(0, base + delta));
  };
  total("total-records", added_.records - removed_.records);
  total("total-files-size", added_.size_bytes - removed_.size_bytes);
  total("total-data-files", added_.data_files - removed_.data_files);
  total("total-delete-files", added_.delete_files - removed_.delete_files);
  total("total-position-deletes", added_.position_deletes - removed_.position_deletes);
  total("total-equality-deletes", added_.equality_deletes - removed_.equality_deletes);
}

SnapshotProducer::SnapshotProducer(const TableMetadata& base, OperationContext ctx)
    : base_(base), ctx_(ctx) {
  do {
    snapshot_id_ = NewSnapshotId(ctx_.random);
  } while (base_.SnapshotById(snapshot_id_) != nullptr);
  sequence_number_ = base_.last_sequence_number + 1;
  commit_uuid_ = Uuid::Generate(ctx_.random).ToString();
}

Result<std::vector<ManifestFile>> SnapshotProducer::BaseManifests() {
  const Snapshot* current = base_.CurrentSnapshot();
  if (current == nullptr) return std::vector<ManifestFile>();
  return ReadManifestList(ctx_.io, current->manifest_list);
}

Result<std::unique_ptr<ManifestWriter>> SnapshotProducer::NewManifestWriter(int32_t spec_id) {
  const PartitionSpec* spec = base_.SpecById(spec_id);
  const Schema* schema = base_.CurrentSchema();
  if (spec == nullptr) {
    return Err(InvalidArgument("table " + base_.location + " has no partition spec " +
                               std::to_string(spec_id) + "; data files must use a known spec"));
  }
  if (schema == nullptr) {
    return Err(Corruption("table " + base_.location + " has no current schema"));
  }
  ManifestWriterOptions options;
  options.path = ManifestPath(base_, commit_uuid_, next_manifest_++);
  options.schema = schema;
  options.spec = *spec;
  options.snapshot_id = snapshot_id_;
  options.sequence_number = sequence_number_;
  options.random = &ctx_.random;
  written_files_.push_back(options.path);
  return ManifestWriter::Make(ctx_.io, std::move(options));
}

Result<Manifest> SnapshotProducer::Read(const ManifestFile& manifest) {
  return ReadManifest(ctx_.io, manifest);
}

Result<SnapshotCommit> SnapshotProducer::Commit(const std::string& operation,
                                                const std::vector<ManifestFile>& manifests,
                                                int manifests_created, int manifests_kept,
                                                int manifests_replaced,
                                                const SnapshotSummary& extra) {
  const Snapshot* parent = base_.CurrentSnapshot();
  // Snapshot timestamps never go backwards, even if the clock does.
  int64_t timestamp_ms = std::max(ctx_.clock.NowMillis(), base_.last_updated_ms);

  Snapshot snapshot;
  snapshot.snapshot_id = snapshot_id_;
  if (parent != nullptr) snapshot.parent_snapshot_id = parent->snapshot_id;
  snapshot.sequence_number = sequence_number_;
  snapshot.timestamp_ms = timestamp_ms;
  snapshot.manifest_list = ManifestListPath(base_, snapshot_id_, 1, commit_uuid_);
  snapshot.schema_id = base_.current_schema_id;
  SnapshotSummary& summary = snapshot.summary;
  summary["operation"] = operation;
  counter_.WriteTo(parent != nullptr ? &parent->summary : nullptr, &summary);
  summary["manifests-created"] = std::to_string(manifests_created);
  summary["manifests-kept"] = std::to_string(manifests_kept);
  summary["manifests-replaced"] = std::to_string(manifests_replaced);
  for (const auto& [k, v] : extra) summary.emplace(k, v);

  ManifestListInfo info{snapshot_id_, snapshot.parent_snapshot_id, sequence_number_};
  ST_TRY(WriteManifestList(ctx_.io, snapshot.manifest_list, info, manifests, &ctx_.random));
  written_files_.push_back(snapshot.manifest_list);

  SnapshotCommit out;
  out.snapshot_id = snapshot_id_;
  out.manifest_list = snapshot.manifest_list;
  out.written_files = written_files_;
  out.requirements.push_back(AssertTableUuid{base_.table_uuid});
  out.requirements.push_back(AssertRefSnapshotId{kMainBranch, base_.current_snapshot_id});
  SnapshotRef main;
  auto old_main = base_.refs.find(kMainBranch);
  if (old_main != base_.refs.end()) main = old_main->second;  // Keeps retention settings.
  main.snapshot_id = snapshot_id_;
  main.type = SnapshotRefType::kBranch;
  out.updates.push_back(AddSnapshot{snapshot});
  out.updates.push_back(SetSnapshotRef{kMainBranch, main});
  ST_ASSIGN_OR_RETURN(out.metadata, ApplyUpdates(base_, out.updates, timestamp_ms));
  return out;
}

}  // namespace st::iceberg::internal
