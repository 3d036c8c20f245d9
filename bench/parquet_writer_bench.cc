// Parquet writer throughput on a clickstream schema: 20 top-level columns
// (~1 KB rows: low-cardinality strings, ints, timestamps, one nested struct).
// Rows are generated deterministically in memory before the clock starts.
//
//   parquet_writer_bench --rows N --codec zstd|snappy|none [--level L]
//       [--runs K] [--api batch|leaf|row] [--batch-rows B] --out FILE [--dump DIR]
//
// --api batch (default) writes through FileWriter's columnar batch API, B
// rows (default 4096) per EndRows, from per-column arrays built untimed
// (contiguous values and string bytes, like an Arrow table: what the
// delivery path shreds decoded records into). --api leaf times the
// one-value-per-call API over the generator's pools, --api row builds
// st::Value rows first (untimed) and times WriteRow. --dump DIR writes the generated columns as raw
// files for parquet_writer_bench.py (pyarrow and zstd get the same rows and bytes). Prints one JSON
// object per run on stdout.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/output_stream.h"
#include "common/value.h"
#include "parquet/file_writer.h"
#include "parquet/schema.h"
#include "parquet_writer_bench_data.h"

namespace st::parquet {
namespace {

using bench::Dataset;
using bench::Pool;

class FileSink final : public OutputStream {
 public:
  using OutputStream::Write;
  explicit FileSink(const std::string& path) : file_(std::fopen(path.c_str(), "wb")) {
    if (file_ != nullptr) std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  }
  ~FileSink() override {
    if (file_ != nullptr) std::fclose(file_);
  }
  bool ok() const { return file_ != nullptr; }
  Status Write(const void* data, size_t size) override {
    if (std::fwrite(data, 1, size, file_) != size) return IoError("bench: write failed");
    position_ += static_cast<int64_t>(size);
    return Status::OK();
  }
  int64_t Position() const override { return position_; }

 private:
  std::FILE* file_;
  int64_t position_ = 0;
};

Status WriteLeaf(FileWriter& w, const Dataset& d) {
  for (int64_t r = 0; r < d.rows; ++r) {
    const auto i = static_cast<size_t>(r);
    ST_TRY(w.WriteInt64(0, d.event_id[i]));
    ST_TRY(w.WriteInt64(1, d.event_time[i]));
    ST_TRY(d.user_id_valid[i] ? w.WriteInt64(2, d.user_id[i]) : w.WriteNull(2, 0));
    ST_TRY(w.WriteBytes(3, d.sessions[d.session[i]]));
    ST_TRY(w.WriteBytes(4, d.event_types[d.event_type[i]]));
    ST_TRY(w.WriteBytes(5, d.urls[d.url[i]]));
    ST_TRY(d.referrer_valid[i] ? w.WriteBytes(6, d.referrers[d.referrer[i]]) : w.WriteNull(6, 0));
    ST_TRY(w.WriteBytes(7, d.agents[d.agent[i]]));
    ST_TRY(w.WriteBytes(8, d.ips[d.ip[i]]));
    ST_TRY(w.WriteBytes(9, d.countries[d.country[i]]));
    ST_TRY(w.WriteBytes(10, d.cities[d.city[i]]));
    ST_TRY(w.WriteBytes(11, d.devices[d.device[i]]));
    ST_TRY(w.WriteBytes(12, d.oses[d.os[i]]));
    ST_TRY(w.WriteBytes(13, d.browsers[d.browser[i]]));
    ST_TRY(w.WriteBytes(14, d.locales[d.locale[i]]));
    ST_TRY(w.WriteInt32(15, d.screen_w[i]));
    ST_TRY(w.WriteInt32(16, d.screen_h[i]));
    ST_TRY(w.WriteInt32(17, d.duration[i]));
    ST_TRY(w.WriteBool(18, d.bounce[i] != 0));
    if (d.context_valid[i]) {
      ST_TRY(d.campaign_valid[i] ? w.WriteBytes(19, d.campaigns[d.campaign[i]])
                                 : w.WriteNull(19, 1));
      ST_TRY(w.WriteBytes(20, d.sources[d.source[i]]));
      ST_TRY(w.WriteBytes(21, d.mediums[d.medium[i]]));
      ST_TRY(w.WriteInt32(22, d.experiment[i]));
    } else {
      for (int c = 19; c <= 22; ++c) ST_TRY(w.WriteNull(c, 0));
    }
    ST_TRY(w.EndRow());
  }
  return Status::OK();
}

// One leaf column as a columnar caller holds it (what the delivery path
// shreds decoded records into, and what an Arrow table is): dense values in
// contiguous buffers, strings as views into one per-column byte buffer, and
// definition levels for nullable leaves. Built before the clock starts.
struct LeafArrays {
  int column = 0;
  enum class Kind { kInt64, kInt32, kBool, kBytes } kind = Kind::kInt64;
  std::vector<int64_t> i64;
  std::vector<int32_t> i32;
  std::vector<uint8_t> bools;
  std::string bytes;
  std::vector<std::string_view> views;
  std::vector<int16_t> def;          // Empty: every row has a value.
  std::vector<size_t> batch_values;  // Index of the first value of each batch.
};

std::vector<LeafArrays> MakeLeafArrays(const Dataset& d, int64_t batch_rows) {
  const auto n = static_cast<size_t>(d.rows);
  std::vector<LeafArrays> leaves;
  // def_of(i): the row's definition level; values exist where it equals max_def.
  auto add = [&](int column, LeafArrays::Kind kind, int16_t max_def, auto def_of, auto value_of) {
    LeafArrays a;
    a.column = column;
    a.kind = kind;
    std::vector<std::pair<size_t, size_t>> spans;  // Offsets into a.bytes.
    for (size_t i = 0; i < n; ++i) {
      const int16_t def = def_of(i);
      if (max_def > 0) a.def.push_back(def);
      if (def != max_def) continue;
      if constexpr (std::is_same_v<decltype(value_of(i)), int64_t>) {
        a.i64.push_back(value_of(i));
      } else if constexpr (std::is_same_v<decltype(value_of(i)), int32_t>) {
        a.i32.push_back(value_of(i));
      } else if constexpr (std::is_same_v<decltype(value_of(i)), bool>) {
        a.bools.push_back(value_of(i) ? 1 : 0);
      } else {
        const std::string& v = value_of(i);
        spans.emplace_back(a.bytes.size(), v.size());
        a.bytes += v;
      }
    }
    for (const auto& [at, len] : spans) a.views.emplace_back(a.bytes.data() + at, len);
    size_t values = 0;
    for (size_t r = 0; r < n; r += static_cast<size_t>(batch_rows)) {
      a.batch_values.push_back(values);
      const size_t end = std::min(n, r + static_cast<size_t>(batch_rows));
      if (a.def.empty()) {
        values += end - r;
      } else {
        for (size_t i = r; i < end; ++i) values += a.def[i] == max_def;
      }
    }
    leaves.push_back(std::move(a));
  };
  using K = LeafArrays::Kind;
  auto always = [](int16_t level) { return [level](size_t) { return level; }; };
  auto flag = [](const std::vector<uint8_t>& v) {
    return [&v](size_t i) { return static_cast<int16_t>(v[i] ? 1 : 0); };
  };
  auto pool = [](const Pool& p, const std::vector<uint32_t>& idx) {
    return [&p, &idx](size_t i) -> const std::string& { return p[idx[i]]; };
  };
  add(0, K::kInt64, 0, always(0), [&](size_t i) { return d.event_id[i]; });
  add(1, K::kInt64, 0, always(0), [&](size_t i) { return d.event_time[i]; });
  add(2, K::kInt64, 1, flag(d.user_id_valid), [&](size_t i) { return d.user_id[i]; });
  add(3, K::kBytes, 0, always(0), pool(d.sessions, d.session));
  add(4, K::kBytes, 0, always(0), pool(d.event_types, d.event_type));
  add(5, K::kBytes, 0, always(0), pool(d.urls, d.url));
  add(6, K::kBytes, 1, flag(d.referrer_valid), pool(d.referrers, d.referrer));
  add(7, K::kBytes, 0, always(0), pool(d.agents, d.agent));
  add(8, K::kBytes, 0, always(0), pool(d.ips, d.ip));
  add(9, K::kBytes, 0, always(0), pool(d.countries, d.country));
  add(10, K::kBytes, 0, always(0), pool(d.cities, d.city));
  add(11, K::kBytes, 0, always(0), pool(d.devices, d.device));
  add(12, K::kBytes, 0, always(0), pool(d.oses, d.os));
  add(13, K::kBytes, 0, always(0), pool(d.browsers, d.browser));
  add(14, K::kBytes, 0, always(0), pool(d.locales, d.locale));
  add(15, K::kInt32, 0, always(0), [&](size_t i) { return d.screen_w[i]; });
  add(16, K::kInt32, 0, always(0), [&](size_t i) { return d.screen_h[i]; });
  add(17, K::kInt32, 0, always(0), [&](size_t i) { return d.duration[i]; });
  add(18, K::kBool, 0, always(0), [&](size_t i) { return d.bounce[i] != 0; });
  add(
      19, K::kBytes, 2,
      [&](size_t i) {
        return static_cast<int16_t>(d.context_valid[i] ? (d.campaign_valid[i] ? 2 : 1) : 0);
      },
      pool(d.campaigns, d.campaign));
  add(20, K::kBytes, 1, flag(d.context_valid), pool(d.sources, d.source));
  add(21, K::kBytes, 1, flag(d.context_valid), pool(d.mediums, d.medium));
  add(22, K::kInt32, 1, flag(d.context_valid), [&](size_t i) { return d.experiment[i]; });
  return leaves;
}

Status WriteBatches(FileWriter& w, const std::vector<LeafArrays>& leaves, int64_t rows,
                    int64_t batch_rows) {
  size_t batch = 0;
  for (int64_t r = 0; r < rows; r += batch_rows, ++batch) {
    const int64_t n = std::min(batch_rows, rows - r);
    for (const LeafArrays& a : leaves) {
      const size_t v = a.batch_values[batch];
      const int16_t* def = a.def.empty() ? nullptr : a.def.data() + r;
      switch (a.kind) {
        case LeafArrays::Kind::kInt64:
          ST_TRY(w.WriteInt64Batch(a.column, a.i64.data() + v, n, def));
          break;
        case LeafArrays::Kind::kInt32:
          ST_TRY(w.WriteInt32Batch(a.column, a.i32.data() + v, n, def));
          break;
        case LeafArrays::Kind::kBool:
          ST_TRY(w.WriteBoolBatch(a.column, a.bools.data() + v, n, def));
          break;
        case LeafArrays::Kind::kBytes:
          ST_TRY(w.WriteBytesBatch(a.column, a.views.data() + v, n, def));
          break;
      }
    }
    ST_TRY(w.EndRows(n));
  }
  return Status::OK();
}

Value RowValue(const Dataset& d, size_t i) {
  auto s = [](const std::string& v) { return Value::String(v); };
  Value context;
  if (d.context_valid[i]) {
    context = Value::MakeStruct(
        {d.campaign_valid[i] ? s(d.campaigns[d.campaign[i]]) : Value::Null(),
         s(d.sources[d.source[i]]), s(d.mediums[d.medium[i]]), Value::Int32(d.experiment[i])});
  }
  return Value::MakeStruct({Value::Int64(d.event_id[i]),
                            Value::Int64(d.event_time[i]),
                            d.user_id_valid[i] ? Value::Int64(d.user_id[i]) : Value::Null(),
                            s(d.sessions[d.session[i]]),
                            s(d.event_types[d.event_type[i]]),
                            s(d.urls[d.url[i]]),
                            d.referrer_valid[i] ? s(d.referrers[d.referrer[i]]) : Value::Null(),
                            s(d.agents[d.agent[i]]),
                            s(d.ips[d.ip[i]]),
                            s(d.countries[d.country[i]]),
                            s(d.cities[d.city[i]]),
                            s(d.devices[d.device[i]]),
                            s(d.oses[d.os[i]]),
                            s(d.browsers[d.browser[i]]),
                            s(d.locales[d.locale[i]]),
                            Value::Int32(d.screen_w[i]),
                            Value::Int32(d.screen_h[i]),
                            Value::Int32(d.duration[i]),
                            Value::Bool(d.bounce[i] != 0),
                            std::move(context)});
}

int Main(int argc, char** argv) {
  int64_t rows = 1000000;
  std::string codec_name = "zstd", api = "batch", out = "/tmp/parquet_writer_bench.parquet", dump;
  int level = 3, runs = 1;
  int64_t batch_rows = 4096;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--rows")
      rows = std::atoll(value.c_str());
    else if (flag == "--codec")
      codec_name = value;
    else if (flag == "--level")
      level = std::atoi(value.c_str());
    else if (flag == "--runs")
      runs = std::atoi(value.c_str());
    else if (flag == "--batch-rows")
      batch_rows = std::max<int64_t>(1, std::atoll(value.c_str()));
    else if (flag == "--api")
      api = value;
    else if (flag == "--out")
      out = value;
    else if (flag == "--dump")
      dump = value;
    else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  const Dataset data = bench::Generate(rows);
  const int64_t raw = bench::RawBytes(data);
  if (!dump.empty()) {
    if (!bench::Dump(data, dump)) {
      std::fprintf(stderr, "dump to %s failed\n", dump.c_str());
      return 1;
    }
    std::printf("{\"dumped\": \"%s\", \"rows\": %lld, \"raw_bytes\": %lld}\n", dump.c_str(),
                static_cast<long long>(rows), static_cast<long long>(raw));
    return 0;
  }
  WriterOptions options;
  options.codec = codec_name == "snappy" ? Codec::kSnappy
                  : codec_name == "none" ? Codec::kUncompressed
                                         : Codec::kZstd;
  options.compression_level = level;
  std::vector<Value> values;
  if (api == "row") {
    values.reserve(static_cast<size_t>(rows));
    for (size_t i = 0; i < static_cast<size_t>(rows); ++i) values.push_back(RowValue(data, i));
  }
  std::vector<LeafArrays> leaves;
  if (api == "batch") leaves = MakeLeafArrays(data, batch_rows);
  for (int run = 0; run < runs; ++run) {
    FileSink sink(out);
    if (!sink.ok()) {
      std::fprintf(stderr, "cannot open %s\n", out.c_str());
      return 1;
    }
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    auto writer = FileWriter::Make(bench::ClickstreamSchema(), options, &sink);
    Status s = writer.has_value() ? Status::OK() : writer.error();
    if (s.ok() && api == "row") {
      for (const Value& v : values) {
        s = (*writer)->WriteRow(v);
        if (!s.ok()) break;
      }
    } else if (s.ok() && api == "batch") {
      s = WriteBatches(**writer, leaves, rows, batch_rows);
    } else if (s.ok()) {
      s = WriteLeaf(**writer, data);
    }
    Result<FileSummary> summary = s.ok() ? (*writer)->Close() : Result<FileSummary>(Err(s));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    if (!summary) {
      std::fprintf(stderr, "write failed: %s\n", summary.error().ToString().c_str());
      return 1;
    }
    std::printf(
        "{\"writer\": \"streamtables-%s\", \"codec\": \"%s\", \"level\": %d, \"rows\": %lld, "
        "\"raw_bytes\": %lld, \"seconds\": %.4f, \"cpu_seconds\": %.4f, \"file_bytes\": %lld, "
        "\"row_groups\": %zu}\n",
        api.c_str(), codec_name.c_str(), level, static_cast<long long>(rows),
        static_cast<long long>(raw), seconds, cpu_seconds,
        static_cast<long long>(summary->file_size_bytes), summary->row_group_offsets.size());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
}  // namespace st::parquet

int main(int argc, char** argv) { return st::parquet::Main(argc, argv); }
