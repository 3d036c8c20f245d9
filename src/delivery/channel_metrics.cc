#include "delivery/channel_metrics.h"

#include <cstdio>
#include <functional>

namespace st::delivery {

namespace {

// Label values escape backslash, double quote and newline.
std::string Escape(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

struct Family {
  const char* name;
  const char* type;
  const char* help;
  std::function<std::string(const ChannelMetrics&)> value;
};

std::string Int(int64_t v) { return std::to_string(v); }

}  // namespace

std::string RenderMetrics(const std::vector<std::shared_ptr<const ChannelMetrics>>& channels,
                          int64_t now_ms) {
  const Family families[] = {
      {"streamtables_delivery_data_freshness_seconds", "gauge",
       "Seconds since the timestamp of the oldest record not yet committed.",
       [now_ms](const ChannelMetrics& m) {
         int64_t oldest = m.oldest_uncommitted_ms.load();
         double seconds = oldest <= 0 || now_ms < oldest ? 0.0 : (now_ms - oldest) / 1000.0;
         char buf[32];
         std::snprintf(buf, sizeof(buf), "%.3f", seconds);
         return std::string(buf);
       }},
      {"streamtables_delivery_bytes_in_total", "counter", "Record bytes read from Kafka.",
       [](const ChannelMetrics& m) { return Int(m.bytes_in); }},
      {"streamtables_delivery_bytes_processed_total", "counter",
       "Record bytes delivered (to the table or the dead-letter queue).",
       [](const ChannelMetrics& m) { return Int(m.bytes_processed); }},
      {"streamtables_delivery_bytes_out_total", "counter", "Data file bytes committed.",
       [](const ChannelMetrics& m) { return Int(m.bytes_out); }},
      {"streamtables_delivery_rows_total", "counter", "Records read from Kafka.",
       [](const ChannelMetrics& m) { return Int(m.rows); }},
      {"streamtables_delivery_rows_successful_total", "counter", "Rows committed to the table.",
       [](const ChannelMetrics& m) { return Int(m.rows_successful); }},
      {"streamtables_delivery_rows_failed_total", "counter",
       "Records that failed decoding and were committed to the dead-letter queue.",
       [](const ChannelMetrics& m) { return Int(m.rows_failed); }},
      {"streamtables_delivery_commits_total", "counter", "Successful Iceberg commits.",
       [](const ChannelMetrics& m) { return Int(m.commits); }},
      {"streamtables_delivery_dlq_records_total", "counter",
       "Records written to the dead-letter queue.",
       [](const ChannelMetrics& m) { return Int(m.dlq_records); }},
      {"streamtables_delivery_consumer_lag", "gauge",
       "Records between the committed offsets and the partitions' high watermarks.",
       [](const ChannelMetrics& m) { return Int(m.consumer_lag); }},
  };
  std::string out;
  for (const Family& family : families) {
    out += "# HELP ";
    out += family.name;
    out += ' ';
    out += family.help;
    out += "\n# TYPE ";
    out += family.name;
    out += ' ';
    out += family.type;
    out += '\n';
    for (const auto& m : channels) {
      out += family.name;
      out += "{channel=\"" + Escape(m->channel) + "\",channel_arn=\"" + Escape(m->channel_arn) +
             "\",cluster=\"" + Escape(m->cluster) + "\",topic=\"" + Escape(m->topic) + "\"} ";
      out += family.value(*m);
      out += '\n';
    }
  }
  return out;
}

}  // namespace st::delivery
