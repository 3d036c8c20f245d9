#include "delivery/dlq_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/base64.h"

namespace st::delivery {
namespace {

TEST(DlqRecordTest, TimestampIsRfc3339WithMillisInUtc) {
  EXPECT_EQ(FormatTimestampMillis(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatTimestampMillis(1764489600123), "2025-11-30T08:00:00.123Z");
}

TEST(DlqRecordTest, LineCarriesRecordReasonAndChannel) {
  ConsumedRecord record;
  record.topic = "orders";
  record.partition = 2;
  record.offset = 41;
  record.timestamp_ms = 1764489600123;
  record.key = "k1";
  record.value = std::string("not json {\x00", 11);
  record.headers = {{"h", std::string("v")}, {"nul", std::nullopt}};
  std::string line = DlqJsonLine(record, {"MALFORMED_JSON", "bad token at 9", ""},
                                 "arn:aws:kafka:us-east-1:111122223333:channel/c/u/ch/x");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  auto json = nlohmann::json::parse(line);
  EXPECT_EQ(json["topic"], "orders");
  EXPECT_EQ(json["partition"], 2);
  EXPECT_EQ(json["offset"], 41);
  EXPECT_EQ(json["timestamp"], "2025-11-30T08:00:00.123Z");
  EXPECT_EQ(json["key"], "azE=");
  EXPECT_EQ(json["value"], common::Base64Encode(*record.value));
  ASSERT_EQ(json["headers"].size(), 2u);
  EXPECT_EQ(json["headers"][0]["key"], "h");
  EXPECT_EQ(json["headers"][0]["value"], "dg==");
  EXPECT_TRUE(json["headers"][1]["value"].is_null());
  EXPECT_EQ(json["errorCode"], "MALFORMED_JSON");
  EXPECT_EQ(json["errorMessage"], "bad token at 9");
  EXPECT_FALSE(json.contains("schemaVersionId"));
  EXPECT_EQ(json["channelArn"], "arn:aws:kafka:us-east-1:111122223333:channel/c/u/ch/x");

  ConsumedRecord tombstone;
  tombstone.topic = "t";
  std::string null_line = DlqJsonLine(tombstone, {"NULL_VALUE", "tombstone", "0f-id"}, "arn");
  auto null_json = nlohmann::json::parse(null_line);
  EXPECT_TRUE(null_json["key"].is_null());
  EXPECT_TRUE(null_json["value"].is_null());
  EXPECT_EQ(null_json["schemaVersionId"], "0f-id");
}

TEST(DlqRecordTest, ObjectKeyIsADeterministicFunctionOfItsRecords) {
  EXPECT_EQ(DlqObjectKey("errors/", "orders-ch", "1234", 3, 10, 19, 1764489600123),
            "errors/orders-ch/2025/11/30/08/1234-3-10-19.jsonl");
  EXPECT_EQ(DlqObjectKey("", "c", "id", 0, 0, 0, 0), "c/1970/01/01/00/id-0-0-0.jsonl");
}

}  // namespace
}  // namespace st::delivery
