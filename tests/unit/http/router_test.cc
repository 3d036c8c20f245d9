#include "http/router.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "http/error_shapes.h"
#include "http/route_pattern_internal.h"

namespace st::http {
namespace {

const char kBucketArn[] = "arn:aws:s3tables:us-east-1:111122223333:bucket/b1";
const char kEncodedBucketArn[] = "arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fb1";

// Authenticates "Authorization: user/<name>"; no header → 403 Unauthenticated.
class FakeAuthenticator final : public Authenticator {
 public:
  tl::expected<auth::Principal, HttpError> Authenticate(const Request& request) const override {
    calls++;
    auto header = request.headers.Get("Authorization");
    if (!header) {
      return tl::unexpected(HttpError(Status(StatusCode::kUnauthenticated, "no credentials"), 0,
                                      "MissingAuthenticationToken"));
    }
    auth::Principal p;
    p.type = auth::PrincipalType::kUser;
    p.account_id = "111122223333";
    p.arn = "arn:aws:iam::111122223333:" + std::string(*header);
    return p;
  }
  mutable int calls = 0;
};

// Allows everything except the recorded deny list; records what it saw.
class FakeAuthorizer final : public auth::Authorizer {
 public:
  Result<auth::AuthDecision> Authorize(const auth::CallContext&, const auth::Principal& principal,
                                       const auth::AccessRequest& access) const override {
    seen.push_back(access);
    if (access.action == denied_action) {
      return auth::AuthDecision{false, principal.arn + " may not " + access.action};
    }
    return auth::AuthDecision{true, ""};
  }
  mutable std::vector<auth::AccessRequest> seen;
  std::string denied_action = "s3tables:DeleteTableBucket";
};

RouteHandler Echo(std::string tag) {
  return [tag](RouteContext& ctx) -> Result<Response> {
    nlohmann::json j = {{"tag", tag}, {"principal", ctx.principal.arn}};
    for (const auto& [k, v] : ctx.params.items()) j["params"][k] = v;
    return Response::Json(200, j.dump());
  };
}

Status BucketResource(const Request&, const PathParams& params, auth::AccessRequest& access) {
  if (params.Get("tableBucketARN").rfind("arn:aws:s3tables:", 0) != 0) {
    return InvalidArgument("invalid table bucket ARN '" + params.Get("tableBucketARN") + "'");
  }
  access.resource = params.Get("tableBucketARN");
  return Status::OK();
}

class RouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<Route> control = {
        {"GET", "/health", {}, "Health", Public(), Echo("health")},
        {"PUT",
         "/buckets",
         {},
         "CreateTableBucket",
         Requires("s3tables:CreateTableBucket"),
         Echo("create-bucket")},
        {"GET",
         "/buckets/{tableBucketARN}",
         {},
         "GetTableBucket",
         Requires("s3tables:GetTableBucket", BucketResource),
         Echo("get-bucket")},
        {"DELETE",
         "/buckets/{tableBucketARN}",
         {},
         "DeleteTableBucket",
         Requires("s3tables:DeleteTableBucket", BucketResource),
         Echo("delete-bucket")},
        {"GET", "/get-table", {}, "GetTable", Requires("s3tables:GetTable"), Echo("get-table")},
        {"GET",
         "/fail",
         {},
         "Fail",
         Public(),
         [](RouteContext&) -> Result<Response> { return Err(NotFound("no such thing")); }},
    };
    ASSERT_TRUE(
        router_.Mount({"s3tables", "", std::make_shared<S3TablesErrorWriter>(), control}).ok());
    std::vector<Route> iceberg = {
        {"GET", "/v1/config", {}, "GetConfig", Requires("s3tables:GetTableBucket"), Echo("config")},
        {"GET",
         "/v1/{prefix}/namespaces/{namespace}/tables/{table}",
         {},
         "LoadTable",
         Requires("s3tables:GetTableMetadataLocation"),
         Echo("load-table")},
        {"POST",
         "/v1/{prefix}/tables/rename",
         {},
         "RenameTable",
         Requires("s3tables:RenameTable"),
         Echo("rename")},
        {"POST",
         "/v1/{prefix}/namespaces/{namespace}/tables/{table}",
         {},
         "CommitTable",
         Requires("s3tables:UpdateTableMetadataLocation"),
         Echo("commit")},
    };
    ASSERT_TRUE(
        router_.Mount({"iceberg", "/iceberg", std::make_shared<IcebergErrorWriter>(), iceberg})
            .ok());
    s3_router_ = std::make_unique<Router>(authn_, authz_, logger_);
    std::vector<Route> s3 = {
        {"GET",
         "/{bucket}",
         {{"list-type", "2"}},
         "ListObjectsV2",
         Requires("s3:ListBucket"),
         Echo("list")},
        {"GET", "/{bucket}/{key+}", {}, "GetObject", Requires("s3:GetObject"), Echo("get")},
        {"HEAD", "/{bucket}/{key+}", {}, "HeadObject", Requires("s3:GetObject"), Echo("head")},
        {"GET",
         "/{bucket}/{key+}",
         {{"uploadId", std::nullopt}},
         "ListParts",
         Requires("s3:ListMultipartUploadParts"),
         Echo("list-parts")},
        {"POST",
         "/{bucket}/{key+}",
         {{"uploads", std::nullopt}},
         "CreateMultipartUpload",
         Requires("s3:PutObject"),
         Echo("create-mpu")},
        {"POST",
         "/{bucket}/{key+}",
         {{"uploadId", std::nullopt}},
         "CompleteMultipartUpload",
         Requires("s3:PutObject"),
         Echo("complete-mpu")},
        {"PUT", "/{bucket}/{key+}", {}, "PutObject", Requires("s3:PutObject"), Echo("put")},
    };
    ASSERT_TRUE(s3_router_->Mount({"s3", "", std::make_shared<S3ErrorWriter>(), s3}).ok());
  }

  Response Call(Router& router, std::string method, std::string_view target,
                bool authenticated = true) {
    auto request = MakeRequest(std::move(method), target);
    EXPECT_TRUE(request.has_value()) << target;
    request->request_id = "REQ1";
    if (authenticated) request->headers.Add("Authorization", "user/alice");
    last_request_ = std::move(request).value();
    return router.Handle(last_request_);
  }
  Response Call(std::string method, std::string_view target, bool authenticated = true) {
    return Call(router_, std::move(method), target, authenticated);
  }
  static nlohmann::json Body(const Response& r) { return nlohmann::json::parse(r.body); }

  FakeAuthenticator authn_;
  FakeAuthorizer authz_;
  NullLogger logger_;
  Router router_{authn_, authz_, logger_};
  std::unique_ptr<Router> s3_router_;
  Request last_request_;
};

TEST_F(RouterTest, EncodedArnIsOneCapturedSegmentAndTheAuthorizedResource) {
  Response r = Call("GET", std::string("/buckets/") + kEncodedBucketArn);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["tag"], "get-bucket");
  EXPECT_EQ(Body(r)["params"]["tableBucketARN"], kBucketArn);
  EXPECT_EQ(Body(r)["principal"], "arn:aws:iam::111122223333:user/alice");
  ASSERT_EQ(authz_.seen.size(), 1u);
  EXPECT_EQ(authz_.seen[0].action, "s3tables:GetTableBucket");
  EXPECT_EQ(authz_.seen[0].resource, kBucketArn);
  EXPECT_EQ(last_request_.operation, "GetTableBucket");
}

TEST_F(RouterTest, IcebergPrefixCaptureAndLiteralBeatsCapture) {
  Response r =
      Call("GET", std::string("/iceberg/v1/") + kEncodedBucketArn + "/namespaces/ns/tables/t1");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["params"]["prefix"], kBucketArn);
  EXPECT_EQ(Body(r)["params"]["namespace"], "ns");
  EXPECT_EQ(Body(r)["params"]["table"], "t1");
  r = Call("POST", std::string("/iceberg/v1/") + kEncodedBucketArn + "/tables/rename");
  EXPECT_EQ(Body(r)["tag"], "rename");
  r = Call("GET", "/iceberg/v1/config?warehouse=x");
  EXPECT_EQ(Body(r)["tag"], "config");
}

TEST_F(RouterTest, PublicRouteSkipsAuthentication) {
  Response r = Call("GET", "/health", /*authenticated=*/false);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(authn_.calls, 0);
  EXPECT_TRUE(authz_.seen.empty());
}

TEST_F(RouterTest, AuthenticationFailureNeverReachesAuthorizerOrHandler) {
  Response r = Call("PUT", "/buckets", /*authenticated=*/false);
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.headers.Get("x-amzn-ErrorType"), "MissingAuthenticationToken");
  EXPECT_TRUE(authz_.seen.empty());
}

TEST_F(RouterTest, DenyGivesAccessDeniedInSurfaceShape) {
  Response r = Call("DELETE", std::string("/buckets/") + kEncodedBucketArn);
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.headers.Get("x-amzn-ErrorType"), "AccessDeniedException");
  EXPECT_EQ(Body(r)["message"],
            "arn:aws:iam::111122223333:user/alice may not s3tables:DeleteTableBucket");
}

TEST_F(RouterTest, ResolverErrorIsBadRequestBeforeAuthorization) {
  Response r = Call("GET", "/buckets/not-an-arn");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["__type"], "BadRequestException");
  EXPECT_TRUE(authz_.seen.empty());
}

TEST_F(RouterTest, NotFoundAndMethodNotAllowedUseTheSurfaceShape) {
  Response r = Call("GET", "/nope");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(Body(r)["__type"], "NotFoundException");
  EXPECT_EQ(r.headers.Get("x-amzn-ErrorType"), "NotFoundException");

  r = Call("POST", "/health");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(Body(r)["__type"], "MethodNotAllowedException");
  EXPECT_EQ(r.headers.Get("Allow"), "GET");

  r = Call("GET", "/iceberg/v1/nope");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(Body(r)["error"]["code"], 404);
  EXPECT_EQ(Body(r)["error"]["type"], "NotFoundException");

  r = Call("DELETE", std::string("/iceberg/v1/") + kEncodedBucketArn + "/namespaces/n/tables/t");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.headers.Get("Allow"), "GET, POST");
}

TEST_F(RouterTest, DotSegmentsNeverMatchSingleCaptures) {
  EXPECT_EQ(Call("GET", "/buckets/..").status, 404);
  EXPECT_EQ(Call("GET", "/buckets/%2e%2e").status, 404);
  EXPECT_EQ(Call("GET", "/buckets/.").status, 404);
}

TEST_F(RouterTest, TrailingSlashMatchesNonGreedyTemplates) {
  EXPECT_EQ(Body(Call("GET", "/health/", false))["tag"], "health");
}

TEST_F(RouterTest, HandlerErrorUsesSurfaceShape) {
  Response r = Call("GET", "/fail");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(Body(r)["message"], "no such thing");
}

TEST_F(RouterTest, GreedyKeyCapturesTheRestDecoded) {
  Response r = Call(*s3_router_, "GET", "/warehouse/data/a%20b%2Bc/x+y.parquet");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Body(r)["params"]["bucket"], "warehouse");
  EXPECT_EQ(Body(r)["params"]["key"], "data/a b+c/x+y.parquet");
  // Keys keep empty segments, dot segments and a trailing '/'.
  EXPECT_EQ(Body(Call(*s3_router_, "GET", "/w/a//../b/"))["params"]["key"], "a//../b/");
  EXPECT_EQ(Body(Call(*s3_router_, "GET", "/w/a%2Fb"))["params"]["key"], "a/b");
}

TEST_F(RouterTest, QueryDiscriminatesRoutes) {
  EXPECT_EQ(Body(Call(*s3_router_, "GET", "/w/k?uploadId=1"))["tag"], "list-parts");
  EXPECT_EQ(Body(Call(*s3_router_, "GET", "/w/k?versionId=1"))["tag"], "get");
  EXPECT_EQ(Body(Call(*s3_router_, "POST", "/w/k?uploads"))["tag"], "create-mpu");
  EXPECT_EQ(Body(Call(*s3_router_, "POST", "/w/k?uploadId=abc"))["tag"], "complete-mpu");
  EXPECT_EQ(Body(Call(*s3_router_, "GET", "/w?list-type=2&prefix=a"))["tag"], "list");
  EXPECT_EQ(Body(Call(*s3_router_, "GET", "/w/?list-type=2"))["tag"], "list");
  // POST on an object without a discriminator: the path exists, the operation does not.
  Response r = Call(*s3_router_, "POST", "/w/k");
  EXPECT_EQ(r.status, 400);
  // GET /w without list-type=2 (ListObjects v1) is not served.
  EXPECT_EQ(Call(*s3_router_, "GET", "/w").status, 400);
}

TEST_F(RouterTest, S3ErrorsAreXmlAndHeadHasNoBody) {
  Response r = Call(*s3_router_, "DELETE", "/w/k");
  EXPECT_EQ(r.status, 405);
  EXPECT_NE(r.body.find("<Code>MethodNotAllowed</Code>"), std::string::npos) << r.body;
  EXPECT_EQ(r.headers.Get("x-amz-request-id"), "REQ1");

  Response head = Call(*s3_router_, "HEAD", "/w/k", /*authenticated=*/false);
  EXPECT_EQ(head.status, 403);
  EXPECT_TRUE(head.body.empty());
}

TEST_F(RouterTest, RejectUsesLongestPrefixSurface) {
  Request request;
  request.request_id = "R";
  request.target.raw_path = "/iceberg/v1/x";
  Response r = router_.Reject(request, HttpError(InvalidArgument("too big"), 413, ""));
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(Body(r)["error"]["code"], 413);
  request.target.raw_path = "/icebergs";
  r = router_.Reject(request, HttpError(InvalidArgument("too big"), 413, ""));
  EXPECT_EQ(Body(r)["__type"], "RequestEntityTooLargeException");
}

TEST_F(RouterTest, MountValidatesTemplates) {
  auto mount = [&](std::string prefix, std::string path) {
    Router router(authn_, authz_, logger_);
    return router.Mount({"t",
                         prefix,
                         std::make_shared<S3ErrorWriter>(),
                         {{"GET", path, {}, "Op", Public(), Echo("x")}}});
  };
  EXPECT_TRUE(mount("", "/a/{b}/{c+}").ok());
  EXPECT_FALSE(mount("", "a").ok());
  EXPECT_FALSE(mount("", "/a/{b+}/c").ok());
  EXPECT_FALSE(mount("", "/a/x{b}").ok());
  EXPECT_FALSE(mount("", "/{a}/{a}").ok());
  EXPECT_FALSE(mount("", "/a//b").ok());
  EXPECT_FALSE(mount("/p/", "/a").ok());
  EXPECT_FALSE(mount("/{p}", "/a").ok());

  Router router(authn_, authz_, logger_);
  Status dup = router.Mount({"t",
                             "",
                             std::make_shared<S3ErrorWriter>(),
                             {{"GET", "/a/{x}", {}, "A", Public(), Echo("a")},
                              {"GET", "/a/{y}", {}, "B", Public(), Echo("b")}}});
  EXPECT_EQ(dup.code(), StatusCode::kAlreadyExists);
  Status no_action = router.Mount(
      {"t", "", std::make_shared<S3ErrorWriter>(), {{"GET", "/a", {}, "A", Access{}, Echo("a")}}});
  EXPECT_EQ(no_action.code(), StatusCode::kInvalidArgument);
}

TEST(RoutePatternTest, RankPrefersLiteralsThenCaptures) {
  auto literal = internal::CompilePattern("", "/v1/{prefix}/tables/rename").value();
  auto capture = internal::CompilePattern("", "/v1/{prefix}/namespaces/{namespace}").value();
  EXPECT_GT(literal.Rank(), capture.Rank());
  EXPECT_EQ(literal.Shape(), "/v1/{}/tables/rename");
}

}  // namespace
}  // namespace st::http
