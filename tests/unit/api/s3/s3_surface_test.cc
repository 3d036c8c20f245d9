// Reads, listing, writes, refusals and bad input through the S3 route table.
#include <gtest/gtest.h>

#include "s3_fixture.h"

namespace st::api::s3 {
namespace {

TEST_F(S3SurfaceTest, GetObjectRangesAndHead) {
  ASSERT_TRUE(objects_->Put(StoreKey(bucket_, "data/f.parquet"), "0123456789").ok());
  std::string path = "/" + bucket_ + "/data/f.parquet";

  http::Response full = Send("GET", path);
  EXPECT_EQ(full.status, 200);
  EXPECT_EQ(BodyOf(full), "0123456789");
  EXPECT_EQ(full.stream_length, 10u);
  EXPECT_EQ(full.headers.Get("Accept-Ranges"), "bytes");
  std::string etag(full.headers.Get("ETag").value_or(""));
  EXPECT_EQ(etag.size(), 34u);
  EXPECT_EQ(etag.front(), '"');
  EXPECT_TRUE(Contains(std::string(full.headers.Get("Last-Modified").value_or("")), " GMT"));
  // The table's ARN and condition keys were authorized, with the read action.
  EXPECT_EQ(authorizer_.last.action, "s3tables:GetTableData");
  EXPECT_EQ(authorizer_.last.resource, regular_.arn);
  EXPECT_EQ(authorizer_.last.condition_keys.at("s3tables:tableName"),
            std::vector<std::string>{"regular"});

  struct Case {
    const char* range;
    const char* body;
    const char* content_range;
  } cases[] = {
      {"bytes=2-4", "234", "bytes 2-4/10"},         {"bytes=7-", "789", "bytes 7-9/10"},
      {"bytes=-3", "789", "bytes 7-9/10"},          {"bytes=8-100", "89", "bytes 8-9/10"},
      {"bytes=-100", "0123456789", "bytes 0-9/10"},
  };
  for (const Case& c : cases) {
    http::Response ranged = Send("GET", path, "", {{"Range", c.range}});
    EXPECT_EQ(ranged.status, 206) << c.range;
    EXPECT_EQ(BodyOf(ranged), c.body) << c.range;
    EXPECT_EQ(ranged.headers.Get("Content-Range"), c.content_range) << c.range;
    EXPECT_EQ(ranged.headers.Get("ETag"), etag);
  }
  // Malformed and multi-range headers are ignored, as S3 does.
  for (const char* ignored : {"bytes=5-2", "items=0-1", "bytes=0-1,3-4", "bytes=x-"}) {
    http::Response whole = Send("GET", path, "", {{"Range", ignored}});
    EXPECT_EQ(whole.status, 200) << ignored;
    EXPECT_EQ(BodyOf(whole), "0123456789");
  }
  for (const char* bad : {"bytes=10-", "bytes=10-20", "bytes=-0"}) {
    http::Response refused = Send("GET", path, "", {{"Range", bad}});
    EXPECT_EQ(refused.status, 416) << bad;
    EXPECT_TRUE(Contains(refused.body, "<Code>InvalidRange</Code>")) << refused.body;
    EXPECT_TRUE(Contains(refused.body, "<ActualObjectSize>10</ActualObjectSize>"));
    EXPECT_TRUE(Contains(refused.body, "<RangeRequested>" + std::string(bad)));
  }

  http::Response head = Send("HEAD", path);
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.stream, nullptr);
  EXPECT_EQ(head.stream_length, 10u);
  EXPECT_EQ(head.headers.Get("ETag"), etag);
  http::Response head_range = Send("HEAD", path, "", {{"Range", "bytes=0-3"}});
  EXPECT_EQ(head_range.status, 206);
  EXPECT_EQ(head_range.stream_length, 4u);

  http::Response missing = Send("HEAD", "/" + bucket_ + "/data/none");
  EXPECT_EQ(missing.status, 404);
  EXPECT_TRUE(missing.body.empty());
  http::Response missing_get = Send("GET", "/" + bucket_ + "/data/none");
  EXPECT_EQ(missing_get.status, 404);
  EXPECT_TRUE(Contains(missing_get.body, "<Code>NoSuchKey</Code>"));
  EXPECT_TRUE(Contains(missing_get.body, "<Key>data/none</Key>"));
}

TEST_F(S3SurfaceTest, ConditionalGets) {
  ASSERT_TRUE(objects_->Put(StoreKey(bucket_, "a"), "abc").ok());
  std::string path = "/" + bucket_ + "/a";
  std::string etag(Send("HEAD", path).headers.Get("ETag").value_or(""));
  EXPECT_EQ(Send("GET", path, "", {{"If-None-Match", etag}}).status, 304);
  EXPECT_EQ(Send("GET", path, "", {{"If-Match", etag}}).status, 200);
  http::Response failed = Send("GET", path, "", {{"If-Match", "\"other\""}});
  EXPECT_EQ(failed.status, 412);
  EXPECT_TRUE(Contains(failed.body, "<Code>PreconditionFailed</Code>"));
  EXPECT_EQ(Send("GET", path, "", {{"If-Modified-Since", "Wed, 01 Jan 2098 00:00:00 GMT"}}).status,
            304);
  EXPECT_EQ(
      Send("GET", path, "", {{"If-Unmodified-Since", "Thu, 01 Jan 1970 00:00:00 GMT"}}).status,
      412);
}

TEST_F(S3SurfaceTest, ListObjectsV2PagesAndGroups) {
  for (const char* key : {"data/a.parquet", "data/b.parquet", "data/c d+e.parquet",
                          "metadata/00000-x.metadata.json", "metadata/snap-1.avro", "top"}) {
    ASSERT_TRUE(objects_->Put(StoreKey(bucket_, key), key).ok());
  }
  std::string list = "/" + bucket_ + "?list-type=2";
  http::Response all = Send("GET", list);
  ASSERT_EQ(all.status, 200) << all.body;
  EXPECT_TRUE(Contains(all.body, "<KeyCount>6</KeyCount>"));
  EXPECT_TRUE(Contains(all.body, "<IsTruncated>false</IsTruncated>"));
  EXPECT_TRUE(Contains(all.body, "<Key>data/c d+e.parquet</Key>"));
  EXPECT_TRUE(Contains(all.body, "<StorageClass>STANDARD</StorageClass>"));

  http::Response encoded = Send("GET", list + "&encoding-type=url&prefix=data%2F");
  EXPECT_TRUE(Contains(encoded.body, "<Key>data/c%20d%2Be.parquet</Key>")) << encoded.body;
  EXPECT_TRUE(Contains(encoded.body, "<Prefix>data/</Prefix>"));
  EXPECT_TRUE(Contains(encoded.body, "<KeyCount>3</KeyCount>"));

  http::Response grouped = Send("GET", list + "&delimiter=%2F");
  EXPECT_TRUE(Contains(grouped.body,
                       "<CommonPrefixes><Prefix>data/</Prefix></CommonPrefixes>"
                       "<CommonPrefixes><Prefix>metadata/</Prefix></CommonPrefixes>"))
      << grouped.body;
  EXPECT_TRUE(Contains(grouped.body, "<Key>top</Key>"));
  EXPECT_TRUE(Contains(grouped.body, "<KeyCount>3</KeyCount>"));

  // Two at a time with the delimiter: data/, metadata/ | top.
  http::Response page1 = Send("GET", list + "&delimiter=%2F&max-keys=2");
  EXPECT_TRUE(Contains(page1.body, "<IsTruncated>true</IsTruncated>"));
  size_t at = page1.body.find("<NextContinuationToken>");
  ASSERT_NE(at, std::string::npos);
  size_t end = page1.body.find("</NextContinuationToken>");
  std::string token = page1.body.substr(at + 23, end - at - 23);
  http::Response page2 =
      Send("GET", list + "&delimiter=%2F&max-keys=2&continuation-token=" + token);
  EXPECT_TRUE(Contains(page2.body, "<KeyCount>1</KeyCount>")) << page2.body;
  EXPECT_TRUE(Contains(page2.body, "<Key>top</Key>"));
  EXPECT_TRUE(Contains(page2.body, "<IsTruncated>false</IsTruncated>"));

  http::Response after = Send("GET", list + "&start-after=metadata%2F00000-x.metadata.json");
  EXPECT_TRUE(Contains(after.body, "<KeyCount>2</KeyCount>")) << after.body;

  EXPECT_EQ(Send("GET", list + "&max-keys=abc").status, 400);
  EXPECT_EQ(Send("GET", list + "&continuation-token=zz").status, 400);
  http::Response none = Send("GET", "/nope--table-s3?list-type=2");
  EXPECT_EQ(none.status, 404);
  EXPECT_TRUE(Contains(none.body, "<Code>NoSuchBucket</Code>")) << none.body;
  EXPECT_TRUE(Contains(none.body, "<BucketName>nope--table-s3</BucketName>"));
  EXPECT_EQ(Send("GET", "/other-bucket?list-type=2").status, 404);
}

TEST_F(S3SurfaceTest, PutDeleteAndVirtualHosting) {
  std::string path = "/" + bucket_ + "/data/new.bin";
  http::Response put = Send("PUT", path, "hello");
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(put.headers.Get("ETag"), "\"5d41402abc4b2a76b9719d911017c592\"");
  EXPECT_EQ(authorizer_.last.action, "s3tables:PutTableData");
  EXPECT_EQ(authorizer_.last.resource, regular_.arn);
  EXPECT_EQ(*objects_->Get(StoreKey(bucket_, "data/new.bin")), "hello");
  // The recorded MD5 is what reads report.
  EXPECT_EQ(Send("HEAD", path).headers.Get("ETag"), "\"5d41402abc4b2a76b9719d911017c592\"");

  // Virtual-hosted: the bucket comes from the Host header.
  std::string host = bucket_ + ".localhost:9000";
  http::Response vget = Send("GET", "/data/new.bin", "", {{"Host", host}});
  EXPECT_EQ(vget.status, 200);
  EXPECT_EQ(BodyOf(vget), "hello");
  http::Response vlist = Send("GET", "/?list-type=2", "", {{"Host", host}});
  EXPECT_TRUE(Contains(vlist.body, "<Key>data/new.bin</Key>")) << vlist.body;
  EXPECT_EQ(Send("PUT", "/single", "x", {{"Host", host}}).status, 200);
  EXPECT_EQ(*objects_->Get(StoreKey(bucket_, "single")), "x");

  EXPECT_EQ(Send("PUT", path, "again", {{"If-None-Match", "*"}}).status, 412);
  EXPECT_EQ(Send("PUT", path, "x", {{"Content-MD5", "AAAAAAAAAAAAAAAAAAAAAA=="}}).status, 400);

  EXPECT_EQ(Send("DELETE", path).status, 204);
  EXPECT_EQ(Send("DELETE", path).status, 204);  // Idempotent.
  EXPECT_EQ(Send("GET", path).status, 404);
  // A warehouse bucket is never a general-purpose bucket to create.
  EXPECT_EQ(Send("PUT", "/" + bucket_).status, 400);
}

TEST_F(S3SurfaceTest, StreamingTablesAreReadOnly) {
  ASSERT_TRUE(objects_->Put(StoreKey(streaming_bucket_, "data/f.parquet"), "rows").ok());
  std::string base = "/" + streaming_bucket_;
  std::string before = Send("GET", base + "?list-type=2").body;
  struct Write {
    const char* method;
    std::string target;
  } writes[] = {{"PUT", base + "/data/f.parquet"},
                {"PUT", base + "/data/g.parquet"},
                {"DELETE", base + "/data/f.parquet"},
                {"POST", base + "/data/g.parquet?uploads"}};
  for (const Write& write : writes) {
    http::Response refused = Send(write.method, write.target, "evil");
    EXPECT_EQ(refused.status, 403) << write.method << " " << write.target;
    EXPECT_TRUE(Contains(refused.body, "<Code>AccessDenied</Code>"));
    EXPECT_TRUE(Contains(refused.body, kChannel)) << refused.body;
  }
  EXPECT_EQ(Send("GET", base + "?list-type=2").body, before);
  http::Response read = Send("GET", base + "/data/f.parquet");
  EXPECT_EQ(read.status, 200);
  EXPECT_EQ(BodyOf(read), "rows");
}

TEST_F(S3SurfaceTest, TraversalAndBadKeysAre400) {
  ASSERT_TRUE(objects_->Put("tables/secret", "s").ok());
  ASSERT_TRUE(objects_->Put(StoreKey(streaming_bucket_, "x"), "other table").ok());
  for (const std::string& target :
       {"/" + bucket_ + "/../secret", "/" + bucket_ + "/%2e%2e/secret",
        "/" + bucket_ + "/%2E%2E/" + streaming_bucket_ + "/x", "/" + bucket_ + "/a/./b",
        "/" + bucket_ + "/..%2Fsecret", "/" + bucket_ + "/a%2Fb", "/" + bucket_ + "//etc/passwd",
        "/" + bucket_ + "/" + std::string(1100, 'k')}) {
    for (const char* method : {"GET", "PUT", "DELETE"}) {
      http::Response refused = Send(method, target, "x");
      EXPECT_EQ(refused.status, 400) << method << " " << target;
      EXPECT_TRUE(Contains(refused.body, "<Code>InvalidArgument</Code>")) << refused.body;
    }
  }
  EXPECT_EQ(Send("GET", "/../" + bucket_ + "/x").status, 404);
  EXPECT_EQ(*objects_->Get("tables/secret"), "s");
  EXPECT_EQ(*objects_->Get(StoreKey(streaming_bucket_, "x")), "other table");
}

TEST_F(S3SurfaceTest, DeniedRequestsNeverReachTheHandler) {
  authorizer_.deny = true;
  http::Response refused = Send("PUT", "/" + bucket_ + "/data/x", "bytes");
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(objects_->Head(StoreKey(bucket_, "data/x")).error().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace st::api::s3
