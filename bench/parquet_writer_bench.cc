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

namespace st::parquet {
namespace {

using R = Repetition;

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(Next() % n); }
  // Skewed towards small indexes, like real popularity.
  uint32_t Skewed(uint32_t n) {
    const double u = static_cast<double>(Next() >> 11) / 9007199254740992.0;
    return std::min(n - 1, static_cast<uint32_t>(u * u * n));
  }
  bool Chance(int percent) { return Below(100) < static_cast<uint32_t>(percent); }

 private:
  uint64_t state_;
};

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

using Pool = std::vector<std::string>;

std::string Word(Rng& rng, int len) {
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s;
  for (int i = 0; i < len; ++i) s += kChars[rng.Below(36)];
  return s;
}

Pool MakePool(Rng& rng, int n, const std::string& prefix, int min_len, int max_len) {
  Pool p;
  for (int i = 0; i < n; ++i) {
    std::string s = prefix + std::to_string(i) + "/";
    const int target =
        min_len + static_cast<int>(rng.Below(static_cast<uint32_t>(max_len - min_len + 1)));
    while (static_cast<int>(s.size()) < target)
      s += Word(rng, 3 + static_cast<int>(rng.Below(8))) + "/";
    s.resize(static_cast<size_t>(target));
    p.push_back(s);
  }
  return p;
}

// Column-wise generated data; strings are indexes into pools.
struct Dataset {
  int64_t rows = 0;
  Pool event_types, urls, referrers, agents, ips, countries, cities, devices, oses, browsers,
      locales, sessions, campaigns, sources, mediums;
  std::vector<int64_t> event_id, event_time, user_id;
  std::vector<uint8_t> user_id_valid, referrer_valid, bounce, context_valid, campaign_valid;
  std::vector<uint32_t> session, event_type, url, referrer, agent, ip, country, city, device, os,
      browser, locale, campaign, source, medium;
  std::vector<int32_t> screen_w, screen_h, duration, experiment;
};

Dataset Generate(int64_t rows) {
  Rng rng(20240611);
  Dataset d;
  d.rows = rows;
  d.event_types = {"page_view", "click", "scroll", "add_to_cart", "purchase",
                   "search",    "login", "logout", "video_play",  "share"};
  d.urls = MakePool(rng, 2000, "https://shop.example.com/catalog/", 250, 420);
  d.referrers = MakePool(rng, 500, "https://www.search-engine.example/results?q=", 150, 260);
  d.agents =
      MakePool(rng, 60, "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/", 220, 300);
  for (int i = 0; i < 50000; ++i) {
    d.ips.push_back("10." + std::to_string(i >> 16 & 255) + "." + std::to_string(i >> 8 & 255) +
                    "." + std::to_string(i & 255));
  }
  d.countries = MakePool(rng, 50, "country-", 10, 16);
  d.cities = MakePool(rng, 1000, "city-", 12, 24);
  d.devices = {"desktop", "mobile", "tablet", "tv"};
  d.oses = MakePool(rng, 12, "os-", 8, 14);
  d.browsers = MakePool(rng, 10, "browser-", 10, 16);
  d.locales = MakePool(rng, 30, "locale-", 9, 12);
  d.campaigns = MakePool(rng, 200, "campaign_spring_sale_", 24, 40);
  d.sources = MakePool(rng, 20, "source-", 8, 14);
  d.mediums = {"cpc", "email", "social", "organic", "display", "affiliate", "referral", "video"};
  const int64_t n_sessions = std::max<int64_t>(1, rows / 16);
  for (int64_t i = 0; i < n_sessions; ++i) {
    char buf[33];
    std::snprintf(buf, sizeof(buf), "%016llx%016llx", static_cast<unsigned long long>(rng.Next()),
                  static_cast<unsigned long long>(rng.Next()));
    d.sessions.emplace_back(buf, 32);
  }
  const auto n = static_cast<size_t>(rows);
  for (auto* v : {&d.event_id, &d.event_time, &d.user_id}) v->resize(n);
  for (auto* v :
       {&d.user_id_valid, &d.referrer_valid, &d.bounce, &d.context_valid, &d.campaign_valid}) {
    v->resize(n);
  }
  for (auto* v :
       {&d.session, &d.event_type, &d.url, &d.referrer, &d.agent, &d.ip, &d.country, &d.city,
        &d.device, &d.os, &d.browser, &d.locale, &d.campaign, &d.source, &d.medium}) {
    v->resize(n);
  }
  for (auto* v : {&d.screen_w, &d.screen_h, &d.duration, &d.experiment}) v->resize(n);
  int64_t t = 1718000000000000;  // 2024-06-10, micros
  for (size_t i = 0; i < n; ++i) {
    t += rng.Below(2000);
    d.event_id[i] = static_cast<int64_t>(i);
    d.event_time[i] = t;
    d.user_id_valid[i] = rng.Chance(90);
    d.user_id[i] = d.user_id_valid[i] ? rng.Below(1000000) : 0;
    d.session[i] = static_cast<uint32_t>(
        std::min<int64_t>(n_sessions - 1, static_cast<int64_t>(i) / 16 + rng.Below(3)));
    d.event_type[i] = rng.Skewed(10);
    d.url[i] = rng.Skewed(2000);
    d.referrer_valid[i] = rng.Chance(70);
    d.referrer[i] = d.referrer_valid[i] ? rng.Skewed(500) : 0;
    d.agent[i] = rng.Skewed(60);
    d.ip[i] = rng.Below(50000);
    d.country[i] = rng.Skewed(50);
    d.city[i] = rng.Skewed(1000);
    d.device[i] = rng.Skewed(4);
    d.os[i] = rng.Skewed(12);
    d.browser[i] = rng.Skewed(10);
    d.locale[i] = rng.Skewed(30);
    d.screen_w[i] = static_cast<int32_t>(320 + 16 * rng.Below(100));
    d.screen_h[i] = static_cast<int32_t>(240 + 16 * rng.Below(80));
    d.duration[i] = static_cast<int32_t>(rng.Below(600000));
    d.bounce[i] = rng.Chance(35);
    d.context_valid[i] = rng.Chance(95);
    d.campaign_valid[i] = d.context_valid[i] && rng.Chance(60);
    d.campaign[i] = d.campaign_valid[i] ? rng.Skewed(200) : 0;
    d.source[i] = d.context_valid[i] ? rng.Skewed(20) : 0;
    d.medium[i] = d.context_valid[i] ? rng.Skewed(8) : 0;
    d.experiment[i] = d.context_valid[i] ? static_cast<int32_t>(rng.Below(40)) : 0;
  }
  return d;
}

Schema ClickstreamSchema() {
  return *Schema::Make({
      Node::Int64("event_id", R::kRequired, 1),
      Node::Timestamp("event_time", R::kRequired, 2, true),
      Node::Int64("user_id", R::kOptional, 3),
      Node::String("session_id", R::kRequired, 4),
      Node::String("event_type", R::kRequired, 5),
      Node::String("page_url", R::kRequired, 6),
      Node::String("referrer_url", R::kOptional, 7),
      Node::String("user_agent", R::kRequired, 8),
      Node::String("ip_address", R::kRequired, 9),
      Node::String("country", R::kRequired, 10),
      Node::String("city", R::kRequired, 11),
      Node::String("device_type", R::kRequired, 12),
      Node::String("os", R::kRequired, 13),
      Node::String("browser", R::kRequired, 14),
      Node::String("locale", R::kRequired, 15),
      Node::Int32("screen_width", R::kRequired, 16),
      Node::Int32("screen_height", R::kRequired, 17),
      Node::Int32("duration_ms", R::kRequired, 18),
      Node::Boolean("is_bounce", R::kRequired, 19),
      Node::Struct(
          "context", R::kOptional, 20,
          {Node::String("campaign", R::kOptional, 21), Node::String("source", R::kRequired, 22),
           Node::String("medium", R::kRequired, 23),
           Node::Int32("experiment_id", R::kRequired, 24)}),
  });
}

// The generated rows' value bytes (strings' bytes, fixed widths; nulls count 0
// for strings), the same bytes --dump writes and zstd compresses.
int64_t RawBytes(const Dataset& d) {
  int64_t total = 0;
  const auto n = static_cast<size_t>(d.rows);
  auto strings = [&](const Pool& p, const std::vector<uint32_t>& idx,
                     const std::vector<uint8_t>* valid) {
    for (size_t i = 0; i < n; ++i) {
      if (valid == nullptr || (*valid)[i]) total += static_cast<int64_t>(p[idx[i]].size());
    }
  };
  total += d.rows * (8 + 8 + 8 + 4 + 4 + 4 + 1 + 4);
  strings(d.sessions, d.session, nullptr);
  strings(d.event_types, d.event_type, nullptr);
  strings(d.urls, d.url, nullptr);
  strings(d.referrers, d.referrer, &d.referrer_valid);
  strings(d.agents, d.agent, nullptr);
  strings(d.ips, d.ip, nullptr);
  strings(d.countries, d.country, nullptr);
  strings(d.cities, d.city, nullptr);
  strings(d.devices, d.device, nullptr);
  strings(d.oses, d.os, nullptr);
  strings(d.browsers, d.browser, nullptr);
  strings(d.locales, d.locale, nullptr);
  strings(d.campaigns, d.campaign, &d.campaign_valid);
  strings(d.sources, d.source, &d.context_valid);
  strings(d.mediums, d.medium, &d.context_valid);
  return total;
}

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

bool WriteFile(const std::string& path, const void* data, size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(data, 1, size, f) == size;
  return std::fclose(f) == 0 && ok;
}

// Raw column files for the Python driver: <name>.bin (fixed width, every row),
// <name>.offsets (int64, rows+1) + <name>.data for strings, <name>.valid (u8).
bool Dump(const Dataset& d, const std::string& dir) {
  auto fixed = [&](const char* name, const auto& v) {
    return WriteFile(dir + "/" + name + ".bin", v.data(), v.size() * sizeof(v[0]));
  };
  auto valid = [&](const char* name, const std::vector<uint8_t>& v) {
    return WriteFile(dir + "/" + name + ".valid", v.data(), v.size());
  };
  auto strings = [&](const char* name, const Pool& p, const std::vector<uint32_t>& idx,
                     const std::vector<uint8_t>* validity) {
    std::vector<int64_t> offsets(1, 0);
    std::string data;
    for (size_t i = 0; i < idx.size(); ++i) {
      if (validity == nullptr || (*validity)[i]) data += p[idx[i]];
      offsets.push_back(static_cast<int64_t>(data.size()));
    }
    return WriteFile(dir + "/" + name + ".offsets", offsets.data(), offsets.size() * 8) &&
           WriteFile(dir + "/" + name + ".data", data.data(), data.size());
  };
  return fixed("event_id", d.event_id) && fixed("event_time", d.event_time) &&
         fixed("user_id", d.user_id) && valid("user_id", d.user_id_valid) &&
         strings("session_id", d.sessions, d.session, nullptr) &&
         strings("event_type", d.event_types, d.event_type, nullptr) &&
         strings("page_url", d.urls, d.url, nullptr) &&
         strings("referrer_url", d.referrers, d.referrer, &d.referrer_valid) &&
         valid("referrer_url", d.referrer_valid) &&
         strings("user_agent", d.agents, d.agent, nullptr) &&
         strings("ip_address", d.ips, d.ip, nullptr) &&
         strings("country", d.countries, d.country, nullptr) &&
         strings("city", d.cities, d.city, nullptr) &&
         strings("device_type", d.devices, d.device, nullptr) &&
         strings("os", d.oses, d.os, nullptr) &&
         strings("browser", d.browsers, d.browser, nullptr) &&
         strings("locale", d.locales, d.locale, nullptr) && fixed("screen_width", d.screen_w) &&
         fixed("screen_height", d.screen_h) && fixed("duration_ms", d.duration) &&
         fixed("is_bounce", d.bounce) && valid("context", d.context_valid) &&
         strings("context.campaign", d.campaigns, d.campaign, &d.campaign_valid) &&
         valid("context.campaign", d.campaign_valid) &&
         strings("context.source", d.sources, d.source, &d.context_valid) &&
         strings("context.medium", d.mediums, d.medium, &d.context_valid) &&
         fixed("context.experiment_id", d.experiment);
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
  const Dataset data = Generate(rows);
  const int64_t raw = RawBytes(data);
  if (!dump.empty()) {
    if (!Dump(data, dump)) {
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
    auto writer = FileWriter::Make(ClickstreamSchema(), options, &sink);
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
