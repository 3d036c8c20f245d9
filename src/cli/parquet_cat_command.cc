#include "cli/parquet_cat_command.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <thread>
#include <vector>

#include "cli/row_json.h"
#include "common/base64.h"
#include "common/uuid.h"
#include "parquet/file_reader.h"

namespace st::cli {
namespace {

using Json = nlohmann::ordered_json;
using parquet::LogicalType;
using parquet::Node;
using Kind = LogicalType::Kind;

// The file mapped read-only: the reader's MemorySource then views pages in
// place, with no copy of the file and no zero-filled buffer.
class MappedFile {
 public:
  static Result<std::unique_ptr<MappedFile>> Open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Err(IoError("cannot open " + path));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      ::close(fd);
      return Err(IoError("cannot stat " + path));
    }
    auto file = std::unique_ptr<MappedFile>(new MappedFile());
    file->size_ = static_cast<size_t>(st.st_size);
    if (file->size_ > 0) {
      void* p = ::mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (p == MAP_FAILED) {
        ::close(fd);
        return Err(IoError("cannot map " + path));
      }
      file->data_ = static_cast<const char*>(p);
    }
    ::close(fd);
    return file;
  }
  ~MappedFile() {
    if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
  }
  std::string_view bytes() const { return {data_ == nullptr ? "" : data_, size_}; }

 private:
  MappedFile() = default;
  const char* data_ = nullptr;
  size_t size_ = 0;
};

Json FloatingValueJson(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

Json ValueJson(const Node& node, const Value& v) {
  if (v.is_null()) return nullptr;
  if (!node.is_leaf()) {
    const Kind kind = node.logical_type().kind;
    if (kind == Kind::kList) {
      Json arr = Json::array();
      const Node& element = node.children()[0].children()[0];
      for (const Value& item : v.list_value()) arr.push_back(ValueJson(element, item));
      return arr;
    }
    if (kind == Kind::kMap) {
      Json arr = Json::array();
      const Node& middle = node.children()[0];
      for (const auto& [k, val] : v.map_value()) {
        arr.push_back(Json::array(
            {ValueJson(middle.children()[0], k), ValueJson(middle.children()[1], val)}));
      }
      return arr;
    }
    Json obj = Json::object();
    for (size_t i = 0; i < node.children().size(); ++i) {
      obj[node.children()[i].name()] = ValueJson(node.children()[i], v.struct_value()[i]);
    }
    return obj;
  }
  switch (v.kind()) {
    case Value::Kind::kBool:
      return v.bool_value();
    case Value::Kind::kInt32:
      return v.int32_value();
    case Value::Kind::kInt64:
      return v.int64_value();
    case Value::Kind::kFloat:
      return FloatingValueJson(v.float_value());
    case Value::Kind::kDouble:
      return FloatingValueJson(v.double_value());
    case Value::Kind::kDecimal:
      return DecimalToString(v.decimal_value(), node.logical_type().scale);
    case Value::Kind::kString:
      return v.bytes_value();
    case Value::Kind::kBinary:
      if (node.logical_type().kind == Kind::kUuid && v.bytes_value().size() == 16) {
        Uuid uuid;
        for (size_t i = 0; i < 16; ++i) uuid.bytes[i] = static_cast<uint8_t>(v.bytes_value()[i]);
        return uuid.ToString();
      }
      return common::Base64Encode(v.bytes_value());
    default:
      return nullptr;
  }
}

const char* PhysicalName(parquet::PhysicalType t) {
  switch (t) {
    case parquet::PhysicalType::kBoolean:
      return "BOOLEAN";
    case parquet::PhysicalType::kInt32:
      return "INT32";
    case parquet::PhysicalType::kInt64:
      return "INT64";
    case parquet::PhysicalType::kFloat:
      return "FLOAT";
    case parquet::PhysicalType::kDouble:
      return "DOUBLE";
    case parquet::PhysicalType::kByteArray:
      return "BYTE_ARRAY";
    case parquet::PhysicalType::kFixedLenByteArray:
      return "FIXED_LEN_BYTE_ARRAY";
  }
  return "?";
}

Json LogicalJson(const LogicalType& lt) {
  static constexpr const char* kNames[] = {"none",    "string", "date", "time", "timestamp",
                                           "decimal", "uuid",   "list", "map"};
  static constexpr const char* kUnits[] = {"millis", "micros", "nanos"};
  Json j = {{"kind", kNames[static_cast<int>(lt.kind)]}};
  if (lt.kind == Kind::kTime || lt.kind == Kind::kTimestamp) {
    j["unit"] = kUnits[static_cast<int>(lt.unit)];
    j["adjusted_to_utc"] = lt.adjusted_to_utc;
  }
  if (lt.kind == Kind::kDecimal) {
    j["precision"] = lt.precision;
    j["scale"] = lt.scale;
  }
  return j;
}

Json MetadataJson(const parquet::FileMetadata& m) {
  Json columns = Json::array();
  for (const parquet::ColumnDescriptor& c : m.schema.columns()) {
    Json col = {{"path", c.DottedPath()},
                {"physical_type", PhysicalName(c.physical_type)},
                {"logical_type", LogicalJson(c.logical_type)},
                {"max_def_level", c.max_def_level},
                {"max_rep_level", c.max_rep_level}};
    col["field_id"] = c.field_id ? Json(*c.field_id) : Json(nullptr);
    if (c.type_length > 0) col["type_length"] = c.type_length;
    columns.push_back(std::move(col));
  }
  Json groups = Json::array();
  for (const parquet::RowGroupInfo& g : m.row_groups) {
    Json chunks = Json::array();
    for (const parquet::ColumnChunkInfo& cc : g.columns) {
      Json chunk = {{"codec", static_cast<int>(cc.codec)},
                    {"encodings", cc.encodings},
                    {"num_values", cc.num_values},
                    {"total_compressed_size", cc.total_compressed_size}};
      if (cc.statistics) {
        const parquet::ColumnStatistics& s = *cc.statistics;
        if (s.null_count) chunk["null_count"] = *s.null_count;
        if (s.min_value) chunk["min_value"] = common::Base64Encode(*s.min_value);
        if (s.max_value) chunk["max_value"] = common::Base64Encode(*s.max_value);
      }
      chunks.push_back(std::move(chunk));
    }
    groups.push_back({{"num_rows", g.num_rows}, {"columns", std::move(chunks)}});
  }
  Json kv = Json::array();
  for (const auto& [k, v] : m.key_value_metadata) kv.push_back(Json::array({k, v}));
  return {{"num_rows", m.num_rows},
          {"created_by", m.created_by},
          {"key_value_metadata", kv},
          {"columns", std::move(columns)},
          {"row_groups", std::move(groups)}};
}

// Decodes every chunk on `threads` threads; returns the values decoded.
Result<int64_t> DecodeAll(const parquet::FileReader& reader, int threads) {
  struct Job {
    int group;
    int column;
  };
  std::vector<Job> jobs;
  for (int g = 0; g < reader.num_row_groups(); ++g) {
    for (int c = 0; c < reader.schema().num_columns(); ++c) jobs.push_back({g, c});
  }
  std::atomic<size_t> next{0};
  std::atomic<int64_t> values{0};
  std::vector<Status> errors(static_cast<size_t>(std::max(threads, 1)));
  auto work = [&](size_t t) {
    while (true) {
      const size_t j = next.fetch_add(1);
      if (j >= jobs.size()) return;
      auto batch = reader.ReadColumn(jobs[j].group, jobs[j].column);
      if (!batch.has_value()) {
        errors[t] = batch.error();
        return;
      }
      values += batch->num_levels;
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < errors.size(); ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& th : pool) th.join();
  for (const Status& s : errors) {
    if (!s.ok()) return Err(s);
  }
  return values.load();
}

}  // namespace

Status RunParquetCat(const ParquetCatOptions& options, std::ostream& out) {
  if (options.decode_only) {
    for (int run = 0; run < std::max(options.repeat, 1); ++run) {
      const auto start = std::chrono::steady_clock::now();
      ST_ASSIGN_OR_RETURN(auto file, MappedFile::Open(options.file));
      const std::string_view bytes = file->bytes();
      ST_ASSIGN_OR_RETURN(auto reader, parquet::FileReader::Open(bytes));
      ST_ASSIGN_OR_RETURN(int64_t values, DecodeAll(*reader, options.threads));
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      out << Json{{"seconds", seconds},
                  {"rows", reader->metadata().num_rows},
                  {"values", values},
                  {"bytes", bytes.size()}}
                 .dump()
          << "\n";
    }
    return Status::OK();
  }
  ST_ASSIGN_OR_RETURN(auto file, MappedFile::Open(options.file));
  ST_ASSIGN_OR_RETURN(auto reader, parquet::FileReader::Open(file->bytes()));
  if (options.metadata) {
    out << MetadataJson(reader->metadata()).dump() << "\n";
    return Status::OK();
  }
  const std::vector<Node>& fields = reader->schema().fields();
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    ST_ASSIGN_OR_RETURN(std::vector<Value> rows, reader->ReadRows(g));
    for (const Value& row : rows) {
      Json obj = Json::object();
      for (size_t i = 0; i < fields.size(); ++i) {
        obj[fields[i].name()] = ValueJson(fields[i], row.struct_value()[i]);
      }
      out << obj.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
    }
  }
  return Status::OK();
}

}  // namespace st::cli
