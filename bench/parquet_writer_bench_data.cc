// Clickstream rows for parquet_writer_bench: generation, schema, raw byte
// count and the raw column dump for the Python driver.
#include "parquet_writer_bench_data.h"

#include <algorithm>
#include <cstdio>

namespace st::parquet::bench {
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

bool WriteFile(const std::string& path, const void* data, size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(data, 1, size, f) == size;
  return std::fclose(f) == 0 && ok;
}

}  // namespace

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

}  // namespace st::parquet::bench
