#include "delivery/channel_metrics.h"

#include <cstdio>
#include <functional>

#include "catalog/channel_model.h"

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

std::string Seconds(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", seconds);
  return buf;
}

// Seconds from `since_ms` to `now_ms`; 0 when unset or in the future.
double Age(int64_t since_ms, int64_t now_ms) {
  return since_ms <= 0 || now_ms < since_ms ? 0.0 : (now_ms - since_ms) / 1000.0;
}

std::string Labels(const ChannelMetrics& m) {
  return "{channel=\"" + Escape(m.channel) + "\",channel_arn=\"" + Escape(m.channel_arn) +
         "\",cluster=\"" + Escape(m.cluster) + "\",topic=\"" + Escape(m.topic) + "\"";
}

std::string Header(const char* name, const char* type, const char* help) {
  return std::string("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n';
}

}  // namespace

std::string RenderMetrics(const std::vector<std::shared_ptr<const ChannelMetrics>>& channels,
                          int64_t now_ms) {
  const Family families[] = {
      {"streamtables_delivery_data_freshness_seconds", "gauge",
       "Seconds since the timestamp of the oldest record not yet committed.",
       [now_ms](const ChannelMetrics& m) {
         return Seconds(Age(m.oldest_uncommitted_ms.load(), now_ms));
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
      {"streamtables_delivery_commit_seconds_total", "counter",
       "Time spent in successful flushes: closing the batch's data files and committing.",
       [](const ChannelMetrics& m) {
         return Seconds(static_cast<double>(m.commit_ms.load()) / 1000.0);
       }},
      {"streamtables_delivery_commit_retries_total", "counter",
       "Commits rebuilt on new table metadata after another writer of the table committed first.",
       [](const ChannelMetrics& m) { return Int(m.commit_retries); }},
      {"streamtables_delivery_revoke_commits_total", "counter",
       "Batches committed early because a consumer group rebalance revoked their partitions.",
       [](const ChannelMetrics& m) { return Int(m.revoke_commits); }},
      {"streamtables_delivery_consumer_resizes_total", "counter",
       "Kafka consumers remade with a new prefetch bound because the channel's fair share of the "
       "delivery memory budget moved.",
       [](const ChannelMetrics& m) { return Int(m.consumer_resizes); }},
      {"streamtables_delivery_fetch_wakeups_total", "counter",
       "Partitions sought to where the batch is, after an empty poll with records still in the "
       "topic, to wake the Kafka client's fetcher.",
       [](const ChannelMetrics& m) { return Int(m.fetch_wakeups); }},
      {"streamtables_delivery_dlq_records_total", "counter",
       "Records written to the dead-letter queue.",
       [](const ChannelMetrics& m) { return Int(m.dlq_records); }},
      {"streamtables_delivery_consumer_lag", "gauge",
       "Records between the committed offsets and the partitions' high watermarks.",
       [](const ChannelMetrics& m) { return Int(m.consumer_lag); }},
      {"streamtables_delivery_stalled", "gauge",
       "1 while the channel's attempts have failed for longer than its data freshness.",
       [now_ms](const ChannelMetrics& m) { return Int(m.stalled(now_ms) ? 1 : 0); }},
      {"streamtables_delivery_failing_seconds", "gauge",
       "Seconds since the first failed attempt without progress since; 0 while healthy.",
       [now_ms](const ChannelMetrics& m) {
         return Seconds(Age(m.failing_since_ms.load(), now_ms));
       }},
      {"streamtables_delivery_errors_total", "counter",
       "Failed attempts (storage, catalog or Kafka errors); each is retried.",
       [](const ChannelMetrics& m) { return Int(m.errors); }},
      {"streamtables_delivery_seconds_since_progress", "gauge",
       "Seconds since the last successful commit (or the worker's start).",
       [now_ms](const ChannelMetrics& m) {
         return Seconds(Age(m.last_progress_ms.load(), now_ms));
       }},
  };
  std::string out;
  for (const Family& family : families) {
    out += Header(family.name, family.type, family.help);
    for (const auto& m : channels) {
      out += family.name + Labels(*m) + "} " + family.value(*m) + '\n';
    }
  }
  constexpr const char* kLastError = "streamtables_delivery_last_error_info";
  out += Header(kLastError, "gauge",
                "The error of the last failed attempt while the channel has not recovered.");
  for (const auto& m : channels) {
    if (m->failing_since_ms.load() <= 0) continue;
    out += kLastError + Labels(*m) + ",error=\"" + Escape(m->last_error()) + "\"} 1\n";
  }
  constexpr const char* kIncompatible = "st_channel_schema_incompatible_records_total";
  out += Header(kIncompatible, "counter",
                "Records of a writer schema version the table cannot evolve to, committed to the "
                "dead-letter queue as SCHEMA_INCOMPATIBLE.");
  for (const auto& m : channels) {
    for (const auto& [version, q] : m->quarantined()) {
      out += kIncompatible + Labels(*m) + ",version=\"" + Escape(version) + "\"} " +
             Int(q.records) + '\n';
    }
  }
  return out;
}

std::optional<catalog::ChannelStateInfo> StallStateInfo(const ChannelMetrics& m, int64_t now_ms,
                                                        int64_t max_backoff_ms) {
  if (!m.stalled(now_ms)) return std::nullopt;
  char text[160];
  std::snprintf(text, sizeof(text),
                "Delivery has made no progress for %.0f s, longer than the channel's data "
                "freshness of %.0f s: ",
                Age(m.failing_since_ms.load(), now_ms), m.freshness_ms.load() / 1000.0);
  char retry[200];
  std::snprintf(retry, sizeof(retry),
                ". The channel retries from its committed offsets (backoff from 0.1 s doubling to "
                "%.1f s) and recovers by itself once the fault is fixed.",
                max_backoff_ms / 1000.0);
  return catalog::MakeStateInfo(catalog::ChannelStateCode::kDeliveryStalled,
                                text + m.last_error() + retry);
}

}  // namespace st::delivery
