// The date spellings of SigV4 and IAM conditions at the edges of the clock:
// found by tests/fuzz (sigv4_parse, policy), where a year beyond 2262
// overflowed the nanosecond time point (UBSan: signed integer overflow).
#include <gtest/gtest.h>

#include "auth/policy.h"
#include "auth/sigv4_parse_internal.h"
#include "auth/time_format_internal.h"

namespace st::auth {
namespace {

TEST(TimeFormatTest, SignedDatesOutsideTheClockRangeAreMalformed) {
  EXPECT_FALSE(ParseAmzDate("99991231T235959Z").has_value());
  EXPECT_FALSE(ParseAmzDate("00010101T000000Z").has_value());
  EXPECT_FALSE(ParseHttpDate("Fri, 24 May 4492 00:00:00 GMT").has_value());
  EXPECT_EQ(FormatAmzDate(*ParseAmzDate("22601231T235959Z")), "22601231T235959Z");
}

TEST(TimeFormatTest, FarIamDatesClampAndStillCompare) {
  auto now = *ParseIamDate("2026-12-01T00:00:00Z");
  for (const char* later :
       {"9999-12-31", "4054-01-01T00:00:00Z", "9999-12-31T23:59:59-12:00", "999999999999"}) {
    auto t = ParseIamDate(later);
    ASSERT_TRUE(t.has_value()) << later;
    EXPECT_GT(*t, now) << later;
  }
  for (const char* earlier : {"0001-01-01", "0001-01-01T00:00:00+14:00"}) {
    auto t = ParseIamDate(earlier);
    ASSERT_TRUE(t.has_value()) << earlier;
    EXPECT_LT(*t, now) << earlier;
  }
}

TEST(TimeFormatTest, DateHeaderInTheYear4492IsMalformedAuthorization) {
  const std::string authorization =
      "AWS4-HMAC-SHA256 Credential=AKID/20130524/us-east-1/s3/aws4_request, "
      "SignedHeaders=date;host, Signature=" +
      std::string(64, 'a');
  HttpRequestView view;
  view.method = "GET";
  view.raw_path = "/";
  view.headers = {
      {"Host", "h"}, {"Date", "Fri, 24 May 4492 00:00:00 GMT"}, {"Authorization", authorization}};
  SigV4Rejection rejection;
  auto parsed = ParseAuthorization(view, &rejection);
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(rejection.reason, SigV4Error::kMalformedAuthorization);
}

TEST(TimeFormatTest, PolicyWithAFarFutureDateConditionParses) {
  auto policy = ParsePolicy(R"({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
      "Action": "s3tables:GetTable", "Resource": "*",
      "Condition": {"DateLessThan": {"aws:CurrentTime": "4054-01-01T00:00:00Z"}}}]})",
                            PolicyKind::kIdentity);
  ASSERT_TRUE(policy.has_value()) << policy.error().ToString();
  EXPECT_EQ(policy->statements.at(0).conditions.at(0).values.at(0), "4054-01-01T00:00:00Z");
}

}  // namespace
}  // namespace st::auth
