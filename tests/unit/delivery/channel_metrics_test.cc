#include "delivery/channel_metrics.h"

#include <gtest/gtest.h>

namespace st::delivery {
namespace {

TEST(ChannelMetricsTest, PrometheusTextWithLabelsPerChannel) {
  auto m = std::make_shared<ChannelMetrics>();
  m->channel = "orders";
  m->channel_arn = "arn:x";
  m->cluster = "local";
  m->topic = "t\"1";
  m->rows = 12;
  m->rows_successful = 10;
  m->rows_failed = 2;
  m->commits = 3;
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

}  // namespace
}  // namespace st::delivery
