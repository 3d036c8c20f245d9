// Multipart uploads through the route table.
#include <gtest/gtest.h>

#include "api/s3/object_etag_internal.h"
#include "s3_fixture.h"

namespace st::api::s3 {
namespace {

std::string Between(const std::string& text, const std::string& open, const std::string& close) {
  size_t at = text.find(open);
  if (at == std::string::npos) return "";
  at += open.size();
  return text.substr(at, text.find(close, at) - at);
}

class S3MultipartTest : public S3SurfaceTest {
 protected:
  std::string Create(const std::string& key) {
    http::Response created = Send("POST", "/" + bucket_ + "/" + key + "?uploads");
    EXPECT_EQ(created.status, 200) << created.body;
    return Between(created.body, "<UploadId>", "</UploadId>");
  }
  std::string Part(const std::string& key, const std::string& id, int n, std::string bytes) {
    http::Response put = Send(
        "PUT", "/" + bucket_ + "/" + key + "?partNumber=" + std::to_string(n) + "&uploadId=" + id,
        std::move(bytes));
    EXPECT_EQ(put.status, 200) << put.body;
    return std::string(put.headers.Get("ETag").value_or(""));
  }
  http::Response Complete(const std::string& key, const std::string& id,
                          const std::vector<std::pair<int, std::string>>& parts) {
    std::string xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
    for (const auto& [n, etag] : parts) {
      xml += "<Part><ETag>" + etag + "</ETag><PartNumber>" + std::to_string(n) +
             "</PartNumber></Part>";
    }
    xml += "</CompleteMultipartUpload>";
    return Send("POST", "/" + bucket_ + "/" + key + "?uploadId=" + id, xml);
  }
};

TEST_F(S3MultipartTest, ThreePartsMakeOneObject) {
  const std::string key = "data/big.parquet";
  std::string id = Create(key);
  ASSERT_EQ(id.size(), 32u);
  std::string a(5 << 20, 'a'), b(5 << 20, 'b'), c = "tail";
  // Parts may arrive in any order and be re-sent.
  std::string etag_b = Part(key, id, 2, b);
  std::string etag_a = Part(key, id, 1, "wrong");
  etag_a = Part(key, id, 1, a);
  std::string etag_c = Part(key, id, 3, c);
  EXPECT_EQ(etag_a, "\"" + HexLower(Md5Raw(a)) + "\"");

  http::Response parts = Send("GET", "/" + bucket_ + "/" + key + "?uploadId=" + id);
  EXPECT_EQ(parts.status, 200);
  EXPECT_NE(parts.body.find("<PartNumber>3</PartNumber>"), std::string::npos) << parts.body;
  EXPECT_NE(parts.body.find(etag_a.substr(1, 32)), std::string::npos);
  // Not visible before completion, and staged parts never show in listings.
  EXPECT_EQ(Send("GET", "/" + bucket_ + "/" + key).status, 404);
  EXPECT_EQ(Send("GET", "/" + bucket_ + "?list-type=2").body.find("<Key>"), std::string::npos);

  http::Response done = Complete(key, id, {{1, etag_a}, {2, etag_b}, {3, etag_c}});
  ASSERT_EQ(done.status, 200) << done.body;
  std::string expected = "\"" + HexLower(Md5Raw(Md5Raw(a) + Md5Raw(b) + Md5Raw(c))) + "-3\"";
  EXPECT_EQ(Between(done.body, "<ETag>", "</ETag>"), "&quot;" + expected.substr(1, 34) + "&quot;");
  EXPECT_EQ(*objects_->Get(StoreKey(bucket_, key)), a + b + c);
  EXPECT_EQ(Send("HEAD", "/" + bucket_ + "/" + key).headers.Get("ETag"), expected);
  // The upload is gone afterwards.
  EXPECT_EQ(Complete(key, id, {{1, etag_a}}).status, 404);
}

TEST_F(S3MultipartTest, CompleteChecksPartsAndAbortDiscards) {
  const std::string key = "data/x";
  std::string id = Create(key);
  std::string small1 = Part(key, id, 1, "one");
  std::string small2 = Part(key, id, 2, "two");
  http::Response too_small = Complete(key, id, {{1, small1}, {2, small2}});
  EXPECT_EQ(too_small.status, 400);
  EXPECT_NE(too_small.body.find("EntityTooSmall"), std::string::npos);
  EXPECT_NE(Complete(key, id, {{2, small2}, {1, small1}}).body.find("InvalidPartOrder"),
            std::string::npos);
  EXPECT_NE(Complete(key, id, {{3, small1}}).body.find("InvalidPart"), std::string::npos);
  EXPECT_NE(Complete(key, id, {{2, small1}}).body.find("InvalidPart"), std::string::npos);
  EXPECT_NE(
      Send("POST", "/" + bucket_ + "/" + key + "?uploadId=" + id, "<x/>").body.find("MalformedXML"),
      std::string::npos);
  // A single small part is fine (the last part has no minimum).
  http::Response one = Complete(key, id, {{2, small2}});
  EXPECT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(*objects_->Get(StoreKey(bucket_, key)), "two");

  std::string aborted = Create(key);
  Part(key, aborted, 1, "zzz");
  EXPECT_EQ(Send("DELETE", "/" + bucket_ + "/" + key + "?uploadId=" + aborted).status, 204);
  EXPECT_EQ(Send("DELETE", "/" + bucket_ + "/" + key + "?uploadId=" + aborted).status, 404);
  http::Response gone =
      Send("PUT", "/" + bucket_ + "/" + key + "?partNumber=1&uploadId=" + aborted, "x");
  EXPECT_EQ(gone.status, 404);
  EXPECT_NE(gone.body.find("NoSuchUpload"), std::string::npos);
  // An upload id is bound to its key, and ids that are not ours are unknown.
  std::string other = Create("data/y");
  EXPECT_EQ(Send("PUT", "/" + bucket_ + "/" + key + "?partNumber=1&uploadId=" + other, "x").status,
            404);
  EXPECT_EQ(Send("PUT", "/" + bucket_ + "/" + key + "?partNumber=1&uploadId=..%2F..", "x").status,
            404);
  EXPECT_EQ(Send("PUT", "/" + bucket_ + "/data/y?partNumber=0&uploadId=" + other, "x").status, 400);
  EXPECT_EQ(*objects_->Get(StoreKey(bucket_, key)), "two");
}

}  // namespace
}  // namespace st::api::s3
