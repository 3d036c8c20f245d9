// AddLabelToEverySample: every sample of a Prometheus text gets the label,
// whatever labels it had; comments stay.
#include "server/builtin_routes.h"

#include <gtest/gtest.h>

namespace st::server {
namespace {

TEST(AddLabelToEverySample, LabelsEverySampleAndKeepsComments) {
  const std::string text =
      "# HELP a_total A counter.\n"
      "# TYPE a_total counter\n"
      "a_total 3\n"
      "b{channel=\"c1\",topic=\"t\"} 1.5\n"
      "c{} 0\n"
      "\n"
      "d 7 1700000000000";
  EXPECT_EQ(AddLabelToEverySample(text, "replica", "r-1"),
            "# HELP a_total A counter.\n"
            "# TYPE a_total counter\n"
            "a_total{replica=\"r-1\"} 3\n"
            "b{replica=\"r-1\",channel=\"c1\",topic=\"t\"} 1.5\n"
            "c{replica=\"r-1\"} 0\n"
            "\n"
            "d{replica=\"r-1\"} 7 1700000000000");
}

}  // namespace
}  // namespace st::server
