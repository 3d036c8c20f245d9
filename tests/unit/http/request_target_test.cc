#include "http/request_target.h"

#include <gtest/gtest.h>

namespace st::http {
namespace {

using Segments = std::vector<std::string>;

Segments SegmentsOf(std::string_view target) {
  auto parsed = ParseRequestTarget(target);
  EXPECT_TRUE(parsed.has_value()) << target;
  return parsed.has_value() ? parsed->segments : Segments{};
}

TEST(RequestTargetTest, EncodedSlashStaysInsideOneSegment) {
  auto t = ParseRequestTarget(
      "/buckets/arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fmy-bucket/policy");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(
      t->segments,
      (Segments{"buckets", "arn:aws:s3tables:us-east-1:111122223333:bucket/my-bucket", "policy"}));
  EXPECT_EQ(t->raw_path,
            "/buckets/arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fmy-bucket/policy");
  EXPECT_EQ(t->raw_query, "");
}

TEST(RequestTargetTest, RootTrailingAndEmptySegments) {
  EXPECT_EQ(SegmentsOf("/"), Segments{});
  EXPECT_EQ(SegmentsOf("/a/"), (Segments{"a", ""}));
  EXPECT_EQ(SegmentsOf("/a//b"), (Segments{"a", "", "b"}));
  EXPECT_EQ(SegmentsOf("//"), (Segments{"", ""}));
}

TEST(RequestTargetTest, DotSegmentsAreNotNormalised) {
  EXPECT_EQ(SegmentsOf("/a/../b"), (Segments{"a", "..", "b"}));
  EXPECT_EQ(SegmentsOf("/a/%2e%2e/b"), (Segments{"a", "..", "b"}));
  EXPECT_EQ(SegmentsOf("/a/%2E%2E%2Fetc"), (Segments{"a", "../etc"}));
  EXPECT_EQ(SegmentsOf("/./x"), (Segments{".", "x"}));
}

TEST(RequestTargetTest, PlusIsLiteralInPathAndSpaceInQuery) {
  auto t = ParseRequestTarget("/b/a%20b+c.parquet?prefix=a+b%2Bc&x=%20");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->segments, (Segments{"b", "a b+c.parquet"}));
  EXPECT_EQ(t->query.Get("prefix"), "a b+c");
  EXPECT_EQ(t->query.Get("x"), " ");
  EXPECT_EQ(t->raw_query, "prefix=a+b%2Bc&x=%20");
}

TEST(RequestTargetTest, QueryRepeatsFlagsAndEmptyPairs) {
  auto t = ParseRequestTarget("/tag/x?tagKeys=k&tagKeys=j&uploads&&empty=&a=b=c");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->query.GetAll("tagKeys"), (std::vector<std::string_view>{"k", "j"}));
  EXPECT_TRUE(t->query.Has("uploads"));
  EXPECT_EQ(t->query.Get("uploads"), "");
  EXPECT_EQ(t->query.Get("empty"), "");
  EXPECT_EQ(t->query.Get("a"), "b=c");
  EXPECT_FALSE(t->query.Has("missing"));
  EXPECT_EQ(t->query.params().size(), 5u);
}

TEST(RequestTargetTest, QueryArnIsDecoded) {
  auto t = ParseRequestTarget(
      "/get-table?tableBucketARN=arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fb&"
      "namespace=ns&name=t");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->segments, Segments{"get-table"});
  EXPECT_EQ(t->query.Get("tableBucketARN"), "arn:aws:s3tables:us-east-1:111122223333:bucket/b");
}

TEST(RequestTargetTest, MalformedEscapesAreRejected) {
  for (std::string_view bad : {"/a%zz", "/a%2", "/a%", "/a/%00", "/a?x=%g1", "/a?%=1"}) {
    auto t = ParseRequestTarget(bad);
    ASSERT_FALSE(t.has_value()) << bad;
    EXPECT_EQ(t.error().code(), StatusCode::kInvalidArgument) << bad;
  }
}

TEST(RequestTargetTest, OtherFormsAreRejected) {
  for (std::string_view bad : {"", "*", "host:443", "ftp://host/a", "http://", "http:///a",
                               "http://user@host/a", "http://host/a%zz"}) {
    auto t = ParseRequestTarget(bad);
    ASSERT_FALSE(t.has_value()) << bad;
    EXPECT_EQ(t.error().code(), StatusCode::kInvalidArgument) << bad;
  }
}

// RFC 9112 §3.2.2: a server must accept absolute-form (what clients send
// through a forward proxy); it parses exactly like the origin-form path.
TEST(RequestTargetTest, AbsoluteFormIsServedAsItsPath) {
  auto t = ParseRequestTarget("http://127.0.0.1:9000/bucket/a%2Fb?list-type=2&prefix=x+y");
  ASSERT_TRUE(t.has_value()) << t.error().ToString();
  EXPECT_EQ(t->authority, "127.0.0.1:9000");
  EXPECT_EQ(t->raw_path, "/bucket/a%2Fb");
  EXPECT_EQ(t->raw_query, "list-type=2&prefix=x+y");
  EXPECT_EQ(t->segments, (std::vector<std::string>{"bucket", "a/b"}));
  EXPECT_EQ(t->query.Get("prefix").value_or(""), std::string_view("x y"));

  auto root = ParseRequestTarget("HTTPS://s3tables.us-east-1.amazonaws.com");
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(root->authority, "s3tables.us-east-1.amazonaws.com");
  EXPECT_EQ(root->raw_path, "/");
  auto query_only = ParseRequestTarget("http://h?x=1");
  ASSERT_TRUE(query_only.has_value());
  EXPECT_EQ(query_only->raw_path, "/");
  EXPECT_EQ(query_only->raw_query, "x=1");
  EXPECT_EQ(ParseRequestTarget("/plain").value().authority, "");
}

TEST(RequestTargetTest, PercentDecodeModes) {
  EXPECT_EQ(PercentDecode("a+b%41", false).value(), "a+bA");
  EXPECT_EQ(PercentDecode("a+b%41", true).value(), "a bA");
  EXPECT_EQ(PercentDecode("%e2%82%AC", false).value(), "\xe2\x82\xac");
}

}  // namespace
}  // namespace st::http
