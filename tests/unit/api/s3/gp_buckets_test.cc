// General-purpose buckets through the S3 route table: lifecycle, objects,
// s3:* authorization, other accounts, naming and the XML errors.
#include <gtest/gtest.h>

#include "s3_fixture.h"

namespace st::api::s3 {
namespace {

using GpBucketTest = S3SurfaceTest;

TEST_F(GpBucketTest, LifecycleObjectsAndActions) {
  http::Response created = Send("PUT", "/dlq-bucket");
  ASSERT_EQ(created.status, 200) << created.body;
  EXPECT_EQ(created.headers.Get("Location"), "/dlq-bucket");
  EXPECT_EQ(authorizer_.last.action, "s3:CreateBucket");
  EXPECT_EQ(authorizer_.last.resource, "arn:aws:s3:::dlq-bucket");
  auto row = store_->GetGeneralPurposeBucket("dlq-bucket");
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->owner_account_id, "111122223333");
  EXPECT_EQ(row->region, "us-east-1");

  http::Response again = Send("PUT", "/dlq-bucket");
  EXPECT_EQ(again.status, 409);
  EXPECT_TRUE(Contains(again.body, "<Code>BucketAlreadyOwnedByYou</Code>")) << again.body;

  EXPECT_EQ(Send("HEAD", "/dlq-bucket").status, 200);
  EXPECT_EQ(authorizer_.last.action, "s3:ListBucket");

  http::Response put = Send("PUT", "/dlq-bucket/errors/part-1.jsonl", "0123456789");
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(authorizer_.last.action, "s3:PutObject");
  EXPECT_EQ(authorizer_.last.resource, "arn:aws:s3:::dlq-bucket/errors/part-1.jsonl");
  EXPECT_TRUE(authorizer_.last.condition_keys.empty());
  // Stored where the DLQ writer looks.
  EXPECT_EQ(*objects_->Get("tables/" + catalog::GeneralPurposeBucketKeyPrefix("dlq-bucket") +
                           "errors/part-1.jsonl"),
            "0123456789");

  http::Response ranged =
      Send("GET", "/dlq-bucket/errors/part-1.jsonl", "", {{"Range", "bytes=2-4"}});
  EXPECT_EQ(ranged.status, 206);
  EXPECT_EQ(BodyOf(ranged), "234");
  EXPECT_EQ(authorizer_.last.action, "s3:GetObject");
  EXPECT_EQ(Send("HEAD", "/dlq-bucket/errors/part-1.jsonl").stream_length, 10u);

  http::Response list = Send("GET", "/dlq-bucket?list-type=2&prefix=errors%2F");
  EXPECT_EQ(list.status, 200);
  EXPECT_TRUE(Contains(list.body, "<Key>errors/part-1.jsonl</Key>")) << list.body;
  EXPECT_TRUE(Contains(list.body, "<Name>dlq-bucket</Name>"));
  EXPECT_EQ(authorizer_.last.action, "s3:ListBucket");
  EXPECT_EQ(authorizer_.last.resource, "arn:aws:s3:::dlq-bucket");

  // Virtual-hosted addressing of an existing general-purpose bucket.
  http::Response vget =
      Send("GET", "/errors/part-1.jsonl", "", {{"Host", "dlq-bucket.localhost:9000"}});
  EXPECT_EQ(vget.status, 200);
  EXPECT_EQ(BodyOf(vget), "0123456789");

  http::Response buckets = Send("GET", "/");
  EXPECT_EQ(buckets.status, 200);
  EXPECT_EQ(authorizer_.last.action, "s3:ListAllMyBuckets");
  EXPECT_TRUE(Contains(buckets.body, "<Name>dlq-bucket</Name>")) << buckets.body;
  // Warehouse buckets are not general-purpose buckets.
  EXPECT_FALSE(Contains(buckets.body, bucket_));

  http::Response busy = Send("DELETE", "/dlq-bucket");
  EXPECT_EQ(busy.status, 409);
  EXPECT_TRUE(Contains(busy.body, "<Code>BucketNotEmpty</Code>")) << busy.body;
  EXPECT_EQ(authorizer_.last.action, "s3:DeleteBucket");

  EXPECT_EQ(Send("DELETE", "/dlq-bucket/errors/part-1.jsonl").status, 204);
  EXPECT_EQ(authorizer_.last.action, "s3:DeleteObject");
  EXPECT_EQ(Send("DELETE", "/dlq-bucket").status, 204);
  http::Response gone = Send("GET", "/dlq-bucket?list-type=2");
  EXPECT_EQ(gone.status, 404);
  EXPECT_TRUE(Contains(gone.body, "<Code>NoSuchBucket</Code>")) << gone.body;
  EXPECT_EQ(Send("HEAD", "/dlq-bucket").status, 404);
}

TEST_F(GpBucketTest, VirtualHostedCreateAndDelete) {
  ASSERT_EQ(Send("PUT", "/", "", {{"Host", "vhost-bucket.localhost:9000"}}).status, 200);
  EXPECT_TRUE(store_->GetGeneralPurposeBucket("vhost-bucket").has_value());
  EXPECT_EQ(Send("PUT", "/k", "v", {{"Host", "vhost-bucket.localhost:9000"}}).status, 200);
  EXPECT_EQ(*objects_->Get("tables/s3-buckets/vhost-bucket/k"), "v");
  EXPECT_EQ(Send("DELETE", "/k", "", {{"Host", "vhost-bucket.localhost:9000"}}).status, 204);
  EXPECT_EQ(Send("DELETE", "/", "", {{"Host", "vhost-bucket.localhost:9000"}}).status, 204);
  EXPECT_FALSE(store_->GetGeneralPurposeBucket("vhost-bucket").has_value());
}

TEST_F(GpBucketTest, InvalidNamesAndLocations) {
  for (const std::string& name :
       {bucket_, std::string("new--table-s3"), std::string("s3-buckets-x"),
        std::string("Upper_Case"), std::string("ab")}) {
    http::Response refused = Send("PUT", "/" + name);
    EXPECT_EQ(refused.status, 400) << name;
    EXPECT_TRUE(Contains(refused.body, "<Code>InvalidBucketName</Code>")) << refused.body;
  }
  http::Response wrong_region =
      Send("PUT", "/eu-bucket",
           "<CreateBucketConfiguration><LocationConstraint>eu-west-1</LocationConstraint>"
           "</CreateBucketConfiguration>");
  EXPECT_EQ(wrong_region.status, 400);
  EXPECT_TRUE(Contains(wrong_region.body, "IllegalLocationConstraintException"));
  EXPECT_EQ(Send("PUT", "/us-bucket",
                 "<CreateBucketConfiguration><LocationConstraint>us-east-1</LocationConstraint>"
                 "</CreateBucketConfiguration>")
                .status,
            200);
  http::Response missing = Send("GET", "/no-such-bucket/k");
  EXPECT_EQ(missing.status, 404);
  EXPECT_TRUE(Contains(missing.body, "<BucketName>no-such-bucket</BucketName>")) << missing.body;
  EXPECT_EQ(Send("PUT", "/no-such-bucket/k", "x").status, 404);
}

TEST_F(GpBucketTest, OtherAccountsAreRefused) {
  ASSERT_TRUE(
      store_->CreateGeneralPurposeBucket("444455556666", "us-east-1", "their-bucket").has_value());
  ASSERT_TRUE(objects_->Put("tables/s3-buckets/their-bucket/k", "secret").ok());
  for (const auto& [method, target] :
       std::vector<std::pair<std::string, std::string>>{{"GET", "/their-bucket/k"},
                                                        {"PUT", "/their-bucket/k"},
                                                        {"DELETE", "/their-bucket/k"},
                                                        {"GET", "/their-bucket?list-type=2"},
                                                        {"DELETE", "/their-bucket"}}) {
    http::Response refused = Send(method, target, "x");
    EXPECT_EQ(refused.status, 403) << method << " " << target;
    EXPECT_TRUE(Contains(refused.body, "<Code>AccessDenied</Code>")) << refused.body;
  }
  http::Response taken = Send("PUT", "/their-bucket");
  EXPECT_EQ(taken.status, 409);
  EXPECT_TRUE(Contains(taken.body, "<Code>BucketAlreadyExists</Code>")) << taken.body;
  EXPECT_FALSE(Contains(Send("GET", "/").body, "their-bucket"));
  EXPECT_EQ(*objects_->Get("tables/s3-buckets/their-bucket/k"), "secret");
  EXPECT_TRUE(store_->GetGeneralPurposeBucket("their-bucket").has_value());
}

TEST_F(GpBucketTest, DeniedPutNeverWrites) {
  ASSERT_EQ(Send("PUT", "/dlq-bucket").status, 200);
  authorizer_.deny = true;
  http::Response refused = Send("PUT", "/dlq-bucket/k", "bytes");
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(objects_->Head("tables/s3-buckets/dlq-bucket/k").error().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace st::api::s3
