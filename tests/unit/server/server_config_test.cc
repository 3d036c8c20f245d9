// Server flags for the metrics listener and the master key.
#include "server/server_config.h"

#include <gtest/gtest.h>

namespace st::server {
namespace {

TEST(ServerConfigTest, MetricsListenDefaultsToLoopbackAndCanBeMovedOrTurnedOff) {
  auto config = ParseServerFlags({});
  ASSERT_TRUE(config.has_value());
  ASSERT_TRUE(config->metrics_listen.has_value());
  EXPECT_EQ(config->metrics_listen->ToString(), "127.0.0.1:9464");

  config = ParseServerFlags({"--metrics-listen", "127.0.0.1:0"});
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->metrics_listen->port, 0);

  config = ParseServerFlags({"--metrics-listen=off"});
  ASSERT_TRUE(config.has_value());
  EXPECT_FALSE(config->metrics_listen.has_value());

  config = ParseServerFlags({"--metrics-listen", "9464"});
  ASSERT_FALSE(config.has_value());
  EXPECT_NE(config.error().message().find("host:port"), std::string::npos);
}

TEST(ServerConfigTest, MasterKeyFile) {
  auto config = ParseServerFlags({"--master-key-file", "/etc/st/master.key"});
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->master_key_file, "/etc/st/master.key");
  EXPECT_TRUE(ParseServerFlags({})->master_key_file.empty());
  EXPECT_FALSE(ParseServerFlags({"--master-key-file="}).has_value());
}

TEST(ServerConfigTest, SseS3KeyFile) {
  auto config = ParseServerFlags({"--sse-s3-key-file", "/etc/st/sse-s3.key"});
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->sse_s3_key_file, "/etc/st/sse-s3.key");
  EXPECT_TRUE(ParseServerFlags({})->sse_s3_key_file.empty());
  EXPECT_FALSE(ParseServerFlags({"--sse-s3-key-file="}).has_value());
}

TEST(ServerConfigTest, ExternalRegistryHostsAreEmptyByDefault) {
  EXPECT_TRUE(ParseServerFlags({})->external_registry_hosts.empty());
  auto config = ParseServerFlags({"--external-registry-hosts", "Reg.example:8081,10.0.0.5:80"});
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  EXPECT_EQ(config->external_registry_hosts,
            (std::vector<std::string>{"reg.example:8081", "10.0.0.5:80"}));
  auto bad = ParseServerFlags({"--external-registry-hosts", "reg.example"});
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("must be host:port"), std::string::npos);
}

TEST(ServerConfigTest, CatalogIsSqliteByDefaultOrAPostgresqlUrl) {
  EXPECT_TRUE(ParseServerFlags({})->catalog_url.empty());
  auto config = ParseServerFlags({"--catalog", "postgresql://st@127.0.0.1:5432/catalog"});
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->catalog_url, "postgresql://st@127.0.0.1:5432/catalog");
  auto other = ParseServerFlags({"--catalog", "mysql://st@h/db"});
  ASSERT_FALSE(other.has_value());
  EXPECT_EQ(other.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(other.error().message().find("postgresql://"), std::string::npos);
  EXPECT_EQ(ParseServerFlags({})->catalog_connections, 4);
  EXPECT_EQ(ParseServerFlags({"--catalog-connections", "16"})->catalog_connections, 16);
  EXPECT_FALSE(ParseServerFlags({"--catalog-connections", "0"}).has_value());
  EXPECT_FALSE(ParseServerFlags({"--catalog-connections", "65"}).has_value());
}

TEST(ServerConfigTest, MaintenanceIntervalAndTheTestOnlyClockOffset) {
  auto config = ParseServerFlags({});
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->maintenance_interval_seconds, 3600u);
  EXPECT_EQ(config->test_only_clock_offset_hours, 0);
  config = ParseServerFlags({"--maintenance-interval-seconds", "0"});
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->maintenance_interval_seconds, 0u);
  EXPECT_EQ(ParseServerFlags({})->hot_compaction_interval_seconds, 60u);
  config = ParseServerFlags({"--hot-compaction-interval-seconds", "5"});
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->hot_compaction_interval_seconds, 5u);
  EXPECT_FALSE(ParseServerFlags({"--hot-compaction-interval-seconds", "x"}).has_value());
  EXPECT_EQ(ParseServerFlags({})->compaction_memory_budget_mb, 4096u);
  config = ParseServerFlags({"--compaction-memory-budget-mb", "32"});
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->compaction_memory_budget_mb, 32u);
  EXPECT_FALSE(ParseServerFlags({"--compaction-memory-budget-mb", "0"}).has_value());

  // The offset is for tests: refused unless explicitly allowed.
  config = ParseServerFlags({"--test-only-clock-offset-hours", "72"});
  ASSERT_FALSE(config.has_value());
  EXPECT_NE(config.error().message().find("--allow-test-only-options yes"), std::string::npos);
  config = ParseServerFlags(
      {"--allow-test-only-options", "yes", "--test-only-clock-offset-hours", "72"});
  ASSERT_TRUE(config.has_value()) << config.error().ToString();
  EXPECT_EQ(config->test_only_clock_offset_hours, 72);
  EXPECT_FALSE(ParseServerFlags({"--allow-test-only-options", "true"}).has_value());
}

}  // namespace
}  // namespace st::server
