#include "delivery/channel_metrics.h"

#include <gtest/gtest.h>

namespace st::delivery {
namespace {

std::shared_ptr<ChannelMetrics> Labelled(const std::string& topic) {
  auto m = std::make_shared<ChannelMetrics>();
  m->channel = "orders";
  m->channel_arn = "arn:x";
  m->cluster = "local";
  m->topic = topic;
  return m;
}

TEST(ChannelMetricsTest, PrometheusTextWithLabelsPerChannel) {
  auto m = Labelled("t\"1");
  m->rows = 12;
  m->rows_successful = 10;
  m->rows_failed = 2;
  m->commits = 3;
  m->commit_ms = 1'250;
  m->oldest_uncommitted_ms = 10'000;
  std::string text = RenderMetrics({m}, 12'500);
  const std::string labels =
      R"({channel="orders",channel_arn="arn:x",cluster="local",topic="t\"1"})";
  EXPECT_NE(text.find("# TYPE streamtables_delivery_rows_total counter\n"), std::string::npos);
  EXPECT_NE(text.find("streamtables_delivery_rows_total" + labels + " 12\n"), std::string::npos);
  EXPECT_NE(text.find("streamtables_delivery_rows_successful_total" + labels + " 10\n"),
            std::string::npos);
  EXPECT_NE(text.find("streamtables_delivery_rows_failed_total" + labels + " 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("streamtables_delivery_commits_total" + labels + " 3\n"), std::string::npos);
  EXPECT_NE(text.find("streamtables_delivery_commit_seconds_total" + labels + " 1.250\n"),
            std::string::npos);
  EXPECT_NE(text.find("streamtables_delivery_data_freshness_seconds" + labels + " 2.500\n"),
            std::string::npos);
  for (const char* name : {"bytes_in_total", "bytes_processed_total", "bytes_out_total",
                           "dlq_records_total", "consumer_lag"}) {
    EXPECT_NE(text.find(std::string("streamtables_delivery_") + name + labels), std::string::npos)
        << name;
  }
  m->oldest_uncommitted_ms = 0;
  EXPECT_NE(RenderMetrics({m}, 12'500).find("data_freshness_seconds" + labels + " 0.000\n"),
            std::string::npos);
}

TEST(ChannelMetricsTest, QuarantinedSchemaVersionsAreCountedPerVersionAndBounded) {
  auto m = Labelled("t");
  m->AddQuarantined("v-4", 2, "name: string vs int");
  m->AddQuarantined("v-4", 3, "name: string vs int");
  const std::string text = RenderMetrics({m}, 0);
  EXPECT_NE(text.find("# TYPE st_channel_schema_incompatible_records_total counter\n"),
            std::string::npos);
  EXPECT_NE(text.find("st_channel_schema_incompatible_records_total{channel=\"orders\","
                      "channel_arn=\"arn:x\",cluster=\"local\",topic=\"t\",version=\"v-4\"} 5\n"),
            std::string::npos)
      << text;
  for (size_t i = 0; i < 2 * ChannelMetrics::kMaxQuarantined; ++i) {
    m->AddQuarantined("x" + std::to_string(i), 1, "m");
  }
  EXPECT_EQ(m->quarantined().size(), ChannelMetrics::kMaxQuarantined);
  EXPECT_EQ(m->quarantined().at("v-4").records, 5);
}

TEST(ChannelMetricsTest, StallAfterTheFreshnessWithTheLastError) {
  auto m = std::make_shared<ChannelMetrics>();
  m->channel = "orders";
  m->channel_arn = "arn:x";
  m->cluster = "local";
  m->topic = "t";
  m->freshness_ms = 2'000;
  m->last_progress_ms = 1'000;
  const std::string labels = R"({channel="orders",channel_arn="arn:x",cluster="local",topic="t")";
  std::string text = RenderMetrics({m}, 4'000);
  EXPECT_NE(text.find("streamtables_delivery_stalled" + labels + "} 0\n"), std::string::npos);
  EXPECT_NE(text.find("streamtables_delivery_seconds_since_progress" + labels + "} 3.000\n"),
            std::string::npos);
  EXPECT_NE(text.find("# TYPE streamtables_delivery_last_error_info gauge\n"), std::string::npos);
  EXPECT_EQ(text.find("streamtables_delivery_last_error_info{"), std::string::npos);
  EXPECT_FALSE(StallStateInfo(*m, 4'000, 10'000).has_value());

  m->errors = 3;
  m->failing_since_ms = 3'000;
  m->set_last_error("write_failed: I/O error: write 'x': No space left on device \"q\"");
  EXPECT_FALSE(StallStateInfo(*m, 4'999, 10'000).has_value());  // Under the freshness.
  text = RenderMetrics({m}, 5'500);
  EXPECT_NE(text.find("streamtables_delivery_stalled" + labels + "} 1\n"), std::string::npos);
  EXPECT_NE(text.find("streamtables_delivery_failing_seconds" + labels + "} 2.500\n"),
            std::string::npos);
  EXPECT_NE(text.find("streamtables_delivery_errors_total" + labels + "} 3\n"), std::string::npos);
  EXPECT_NE(
      text.find("streamtables_delivery_last_error_info" + labels +
                R"(,error="write_failed: I/O error: write 'x': No space left on device \"q\""} 1)"),
      std::string::npos)
      << text;
  auto info = StallStateInfo(*m, 5'500, 10'000);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->code, "DELIVERY_STALLED");
  EXPECT_NE(info->message.find("no progress for 2 s"), std::string::npos) << info->message;
  EXPECT_NE(info->message.find("data freshness of 2 s"), std::string::npos) << info->message;
  EXPECT_NE(info->message.find("No space left on device"), std::string::npos) << info->message;
  EXPECT_NE(info->message.find("doubling to 10.0 s"), std::string::npos) << info->message;
}

}  // namespace
}  // namespace st::delivery
