#include "delivery/dlq_record.h"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "common/base64.h"

namespace st::delivery {

namespace {

struct CivilTime {
  int year, month, day, hour, minute, second, millis;
};

CivilTime ToCivil(int64_t epoch_ms) {
  using namespace std::chrono;
  sys_time<milliseconds> tp{milliseconds(epoch_ms)};
  sys_days days = floor<std::chrono::days>(tp);
  year_month_day ymd(days);
  auto rest = tp - days;
  int64_t ms = rest.count();
  return CivilTime{static_cast<int>(ymd.year()),
                   static_cast<int>(unsigned(ymd.month())),
                   static_cast<int>(unsigned(ymd.day())),
                   static_cast<int>(ms / 3600000),
                   static_cast<int>(ms / 60000 % 60),
                   static_cast<int>(ms / 1000 % 60),
                   static_cast<int>(ms % 1000)};
}

nlohmann::json Base64OrNull(const std::optional<std::string>& bytes) {
  if (!bytes.has_value()) return nullptr;
  return common::Base64Encode(*bytes);
}

}  // namespace

std::string FormatTimestampMillis(int64_t epoch_ms) {
  CivilTime t = ToCivil(epoch_ms);
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", t.year, t.month, t.day,
                t.hour, t.minute, t.second, t.millis);
  return buf;
}

std::string DlqJsonLine(const ConsumedRecord& record, const RecordFailure& failure,
                        const std::string& channel_arn) {
  nlohmann::ordered_json line;
  line["topic"] = record.topic;
  line["partition"] = record.partition;
  line["offset"] = record.offset;
  line["timestamp"] = FormatTimestampMillis(record.timestamp_ms);
  line["key"] = Base64OrNull(record.key);
  line["value"] = Base64OrNull(record.value);
  nlohmann::ordered_json headers = nlohmann::ordered_json::array();
  for (const RecordHeader& h : record.headers) {
    nlohmann::ordered_json header;
    header["key"] = h.key;
    header["value"] = Base64OrNull(h.value);
    headers.push_back(std::move(header));
  }
  line["headers"] = std::move(headers);
  line["errorCode"] = failure.code;
  line["errorMessage"] = failure.message;
  if (!failure.schema_version_id.empty()) line["schemaVersionId"] = failure.schema_version_id;
  line["channelArn"] = channel_arn;
  // Invalid UTF-8 in header keys or messages is replaced, never a throw.
  return line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string DlqObjectKey(const std::string& error_output_prefix, const std::string& channel_name,
                         const std::string& channel_id, int32_t partition, int64_t first_offset,
                         int64_t last_offset, int64_t hour_ms) {
  CivilTime t = ToCivil(hour_ms);
  char folder[32];
  std::snprintf(folder, sizeof(folder), "%04d/%02d/%02d/%02d/", t.year, t.month, t.day, t.hour);
  return error_output_prefix + channel_name + "/" + folder + channel_id + "-" +
         std::to_string(partition) + "-" + std::to_string(first_offset) + "-" +
         std::to_string(last_offset) + ".jsonl";
}

}  // namespace st::delivery
