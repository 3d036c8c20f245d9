#include "http/error_shapes.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace st::http {
namespace {

Request MakeReq(std::string method, std::string target) {
  Request r = MakeRequest(std::move(method), target).value();
  r.request_id = "ABCDEF0123456789";
  return r;
}

struct Case {
  StatusCode code;
  int s3tables_status;
  const char* s3tables_type;
  int iceberg_status;
  const char* iceberg_type;
  int s3_status;
  const char* s3_code;
};

// The table in error_shapes.h, as data.
const Case kCases[] = {
    {StatusCode::kInvalidArgument, 400, "BadRequestException", 400, "BadRequestException", 400,
     "InvalidArgument"},
    {StatusCode::kNotFound, 404, "NotFoundException", 404, "NotFoundException", 404, "NoSuchKey"},
    {StatusCode::kAlreadyExists, 409, "ConflictException", 409, "AlreadyExistsException", 412,
     "PreconditionFailed"},
    {StatusCode::kConflict, 409, "ConflictException", 409, "CommitFailedException", 409,
     "ConditionalRequestConflict"},
    {StatusCode::kCommitStateUnknown, 500, "InternalServerErrorException", 500,
     "CommitStateUnknownException", 500, "InternalError"},
    {StatusCode::kFailedPrecondition, 409, "ConflictException", 400, "BadRequestException", 412,
     "PreconditionFailed"},
    {StatusCode::kUnauthenticated, 403, "ForbiddenException", 401, "NotAuthorizedException", 403,
     "AccessDenied"},
    {StatusCode::kAccessDenied, 403, "AccessDeniedException", 403, "ForbiddenException", 403,
     "AccessDenied"},
    {StatusCode::kUnsupported, 400, "BadRequestException", 406, "UnsupportedOperationException",
     501, "NotImplemented"},
    {StatusCode::kUnavailable, 503, "ServiceUnavailableException", 503,
     "ServiceUnavailableException", 503, "SlowDown"},
    {StatusCode::kCorruption, 500, "InternalServerErrorException", 500, "InternalServerError", 500,
     "InternalError"},
    {StatusCode::kIo, 500, "InternalServerErrorException", 500, "InternalServerError", 500,
     "InternalError"},
    {StatusCode::kInternal, 500, "InternalServerErrorException", 500, "InternalServerError", 500,
     "InternalError"},
};

TEST(ErrorShapesTest, StatusCodeMappingTable) {
  Request req = MakeReq("GET", "/b/k");
  for (const Case& c : kCases) {
    HttpError error(Status(c.code, "msg"));
    Response s3tables = S3TablesErrorWriter().Write(req, error);
    EXPECT_EQ(s3tables.status, c.s3tables_status) << StatusCodeName(c.code);
    EXPECT_EQ(s3tables.headers.Get("x-amzn-ErrorType"), c.s3tables_type) << StatusCodeName(c.code);
    Response iceberg = IcebergErrorWriter().Write(req, error);
    EXPECT_EQ(iceberg.status, c.iceberg_status) << StatusCodeName(c.code);
    EXPECT_EQ(nlohmann::json::parse(iceberg.body)["error"]["type"], c.iceberg_type);
    Response s3 = S3ErrorWriter().Write(req, error);
    EXPECT_EQ(s3.status, c.s3_status) << StatusCodeName(c.code);
    EXPECT_NE(s3.body.find(std::string("<Code>") + c.s3_code + "</Code>"), std::string::npos)
        << s3.body;
  }
}

TEST(ErrorShapesTest, S3TablesWireForm) {
  Response r = S3TablesErrorWriter().Write(
      MakeReq("GET", "/x"), HttpError(NotFound("The specified table does not exist.")));
  EXPECT_EQ(r.headers.Get("Content-Type"), "application/json");
  EXPECT_EQ(r.headers.Get("x-amzn-RequestId"), "ABCDEF0123456789");
  auto body = nlohmann::json::parse(r.body);
  EXPECT_EQ(
      body,
      nlohmann::json::parse(
          R"({"__type":"NotFoundException","message":"The specified table does not exist."})"));
}

TEST(ErrorShapesTest, IcebergEnvelopeHasExactlyMessageTypeCode) {
  Response r = IcebergErrorWriter().Write(
      MakeReq("GET", "/x"),
      HttpError(NotFound("Table does not exist: ns.t"), 0, "NoSuchTableException"));
  auto body = nlohmann::json::parse(r.body);
  EXPECT_EQ(body, nlohmann::json::parse(R"({"error":{"message":"Table does not exist: ns.t",
                                            "type":"NoSuchTableException","code":404}})"));
}

TEST(ErrorShapesTest, ExplicitHttpStatusAndWireCodeOverride) {
  Request req = MakeReq("PUT", "/b/k");
  Response r = S3ErrorWriter().Write(req, HttpError(InvalidArgument("too big"), 413, ""));
  EXPECT_EQ(r.status, 413);
  EXPECT_NE(r.body.find("<Code>EntityTooLarge</Code>"), std::string::npos);
  HttpError nsb(NotFound("The specified bucket does not exist"), 0, "NoSuchBucket");
  nsb.details = {{"BucketName", "b"}};
  r = S3ErrorWriter().Write(req, nsb);
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("<Code>NoSuchBucket</Code>"), std::string::npos);
  EXPECT_NE(r.body.find("<BucketName>b</BucketName>"), std::string::npos);
}

TEST(ErrorShapesTest, S3XmlIsEscapedAndComplete) {
  Request req = MakeReq("GET", "/b/a%26b");
  Response r = S3ErrorWriter().Write(req, HttpError(NotFound("key <a&b> \"missing\"")));
  EXPECT_EQ(r.headers.Get("Content-Type"), "application/xml");
  EXPECT_EQ(r.headers.Get("x-amz-request-id"), "ABCDEF0123456789");
  EXPECT_TRUE(r.headers.Has("x-amz-id-2"));
  EXPECT_EQ(r.body,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code>"
            "<Message>key &lt;a&amp;b&gt; &quot;missing&quot;</Message>"
            "<Resource>/b/a%26b</Resource><RequestId>ABCDEF0123456789</RequestId>"
            "<HostId>ABCDEF0123456789</HostId></Error>");
}

TEST(ErrorShapesTest, S3HeadErrorHasNoBody) {
  Response r = S3ErrorWriter().Write(MakeReq("HEAD", "/b/k"), HttpError(NotFound("gone")));
  EXPECT_EQ(r.status, 404);
  EXPECT_TRUE(r.body.empty());
  EXPECT_FALSE(r.headers.Has("Content-Type"));
  EXPECT_EQ(r.headers.Get("x-amz-request-id"), "ABCDEF0123456789");
}

}  // namespace
}  // namespace st::http
