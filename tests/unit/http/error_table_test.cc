#include "http/error_table.h"

#include <gtest/gtest.h>

namespace st::http {
namespace {

constexpr StatusCodeRow kByCode[] = {
    {StatusCode::kNotFound, 404, "Missing"},
    {StatusCode::kConflict, 409, "Clash"},
    {StatusCode::kConflict, 400, "NeverReached"},
};
constexpr HttpStatusRow kByHttpStatus[] = {
    {413, "TooBig"},
    {503, "Busy"},
};
constexpr ErrorTable kTable{kByCode, kByHttpStatus, "ClientSide", "ServerSide"};

WireError Resolve(HttpError error) { return ResolveWireError(kTable, error); }

TEST(ErrorTableTest, StatusCodeRowsFirstMatchWins) {
  WireError wire = Resolve(HttpError(NotFound("x")));
  EXPECT_EQ(wire.http_status, 404);
  EXPECT_EQ(wire.name, "Missing");
  wire = Resolve(HttpError(Conflict("x")));
  EXPECT_EQ(wire.http_status, 409);
  EXPECT_EQ(wire.name, "Clash");
}

TEST(ErrorTableTest, UnlistedStatusCodeIsServerError) {
  WireError wire = Resolve(HttpError(Internal("x")));
  EXPECT_EQ(wire.http_status, 500);
  EXPECT_EQ(wire.name, "ServerSide");
}

TEST(ErrorTableTest, ExplicitHttpStatusPicksNameByStatus) {
  // The StatusCode no longer matters once an HTTP status is given.
  WireError wire = Resolve(HttpError(NotFound("x"), 413, ""));
  EXPECT_EQ(wire.http_status, 413);
  EXPECT_EQ(wire.name, "TooBig");
  wire = Resolve(HttpError(NotFound("x"), 418, ""));
  EXPECT_EQ(wire.http_status, 418);
  EXPECT_EQ(wire.name, "ClientSide");
  wire = Resolve(HttpError(NotFound("x"), 502, ""));
  EXPECT_EQ(wire.http_status, 502);
  EXPECT_EQ(wire.name, "ServerSide");
  wire = Resolve(HttpError(NotFound("x"), 503, ""));
  EXPECT_EQ(wire.name, "Busy");
}

TEST(ErrorTableTest, WireCodeOverridesTheName) {
  WireError wire = Resolve(HttpError(NotFound("x"), 0, "NoSuchThing"));
  EXPECT_EQ(wire.http_status, 404);
  EXPECT_EQ(wire.name, "NoSuchThing");
  wire = Resolve(HttpError(NotFound("x"), 413, "Custom"));
  EXPECT_EQ(wire.http_status, 413);
  EXPECT_EQ(wire.name, "Custom");
}

TEST(ErrorTableTest, AmznJsonEnvelope) {
  Request request = MakeRequest("GET", "/x").value();
  Response response =
      AmznJsonErrorResponse(request, WireError{409, "Clash"}, R"({"m":1})", "application/x-test");
  EXPECT_EQ(response.status, 409);
  EXPECT_EQ(response.body, R"({"m":1})");
  EXPECT_EQ(response.headers.Get("Content-Type"), "application/x-test");
  EXPECT_EQ(response.headers.Get("x-amzn-ErrorType"), "Clash");
  EXPECT_FALSE(response.headers.Has("x-amzn-RequestId"));

  request.request_id = "RID";
  response = AmznJsonErrorResponse(request, WireError{500, "ServerSide"}, "{}");
  EXPECT_EQ(response.headers.Get("Content-Type"), "application/json");
  EXPECT_EQ(response.headers.Get("x-amzn-RequestId"), "RID");
}

}  // namespace
}  // namespace st::http
