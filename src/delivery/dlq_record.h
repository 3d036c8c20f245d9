// The S3 dead-letter queue's object format (docs/msk-channel-api-notes.md §12, our
// design): JSON Lines, one object per failed record, under
// "<errorOutputPrefix><channelName>/yyyy/MM/dd/HH/<channelId>-<partition>-<firstOffset>-<lastOffset>.jsonl".
// The key is a pure function of the records it holds, so a batch replayed
// after a crash overwrites its own object instead of duplicating it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "delivery/kafka_client.h"

namespace st::delivery {

// Why a record could not be delivered (decoding's RecordError).
struct RecordFailure {
  std::string code;  // MALFORMED_JSON, MISSING_REQUIRED_FIELD, ...
  std::string message;
  std::string schema_version_id;  // When known.
};

// One line, without the trailing '\n':
// {"topic","partition","offset","timestamp" (RFC 3339, ms, UTC),
//  "key"/"value" (base64 or null), "headers":[{"key","value" (base64|null)}],
//  "errorCode","errorMessage","schemaVersionId" (only when known),"channelArn"}
std::string DlqJsonLine(const ConsumedRecord& record, const RecordFailure& failure,
                        const std::string& channel_arn);

// The object key relative to the bucket. `hour_ms` picks the yyyy/MM/dd/HH
// folder (the first failed record's timestamp).
std::string DlqObjectKey(const std::string& error_output_prefix, const std::string& channel_name,
                         const std::string& channel_id, int32_t partition, int64_t first_offset,
                         int64_t last_offset, int64_t hour_ms);

// "2026-01-02T03:04:05.678Z".
std::string FormatTimestampMillis(int64_t epoch_ms);

}  // namespace st::delivery
