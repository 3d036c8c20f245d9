// Clickstream rows for parquet_writer_bench (see parquet_writer_bench.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parquet/schema.h"

namespace st::parquet::bench {

using Pool = std::vector<std::string>;

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

// Deterministic (fixed seed) rows.
Dataset Generate(int64_t rows);
// The 20-column schema (23 leaves) the rows follow.
Schema ClickstreamSchema();
// The rows' value bytes (strings' bytes, fixed widths; nulls count 0 for
// strings): the same bytes Dump writes and zstd compresses.
int64_t RawBytes(const Dataset& d);
// Raw column files for the Python driver: <name>.bin (fixed width, every row),
// <name>.offsets (int64, rows+1) + <name>.data for strings, <name>.valid (u8).
bool Dump(const Dataset& d, const std::string& dir);

}  // namespace st::parquet::bench
