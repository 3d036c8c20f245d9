// The S3 route table. Each route is registered for "/{bucket}/{key+}" (path
// style) and, where a virtual-hosted request for a one-segment key would land
// there, for "/{bucket}" too; the handlers read the address from the request
// itself (AddressOf), so both styles reach the same code.
#include "api/s3/s3_surface.h"

#include "api/s3/s3_errors_internal.h"
#include "api/s3/surface_state_internal.h"

namespace st::api::s3 {

namespace {

constexpr const char* kReadAction = "s3tables:GetTableData";
constexpr const char* kWriteAction = "s3tables:PutTableData";

using Handler = Result<http::Response> (*)(const S3State&, http::RouteContext&);

// The owning table's ARN and condition keys; a bad key or unknown bucket is
// answered before authorization (400 / 404 NoSuchBucket).
http::AccessResolver TableAccess(SharedState state) {
  return [state](const http::Request& request, const http::PathParams&,
                 http::AccessRequest& access) -> Status {
    ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(request));
    ST_ASSIGN_OR_RETURN(catalog::Table table, OwningTable(*state, address.bucket));
    access.resource = table.arn;
    access.condition_keys["s3tables:namespace"] = {table.namespace_name};
    access.condition_keys["s3tables:tableName"] = {table.name};
    return Status::OK();
  };
}

// GET /<x>: a one-segment object when virtual-hosted; ListObjects (v1) when
// path style, which we do not serve.
Result<http::Response> GetObjectOrListV1(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(context.request));
  if (address.key.empty()) {
    return context.Fail(
        NotImplemented("ListObjects (v1) is not supported; use ListObjectsV2 "
                       "(list-type=2)."));
  }
  return GetObject(state, context);
}

// HEAD /<bucket> (HeadBucket) or a virtual-hosted HEAD of an object.
Result<http::Response> HeadBucketOrObject(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(context.request));
  if (!address.key.empty()) return HeadObject(state, context);
  ST_TRY(OwningTable(state, address.bucket));
  return http::Response::Empty(200);
}

}  // namespace

http::Surface MakeS3Surface(const S3Deps& deps) {
  std::unique_ptr<const auth::SigV4Verifier> chunk_verifier;
  if (deps.secrets != nullptr && deps.clock != nullptr) {
    chunk_verifier = std::make_unique<const auth::SigV4Verifier>(*deps.secrets, *deps.clock);
  }
  auto state = std::make_shared<const S3State>(S3State{
      deps.store, deps.objects, deps.object_key_root, deps.random, std::move(chunk_verifier)});
  std::vector<http::Route> routes;
  auto add = [&](const char* method, const char* path, std::vector<http::QueryRule> query,
                 const char* operation, const char* action, Handler handler) {
    routes.push_back(
        {method, path, std::move(query), operation, http::Requires(action, TableAccess(state)),
         [state, handler](http::RouteContext& context) { return handler(*state, context); }});
  };
  add("GET", "/", {{"list-type", "2"}}, "ListObjectsV2", kReadAction, ListObjectsV2);
  add("GET", "/{bucket}", {{"list-type", "2"}}, "ListObjectsV2", kReadAction, ListObjectsV2);
  add("HEAD", "/", {}, "HeadBucket", kReadAction, HeadBucketOrObject);
  add("HEAD", "/{bucket}", {}, "HeadBucket", kReadAction, HeadBucketOrObject);
  add("GET", "/{bucket}", {}, "GetObject", kReadAction, GetObjectOrListV1);
  add("GET", "/{bucket}/{key+}", {}, "GetObject", kReadAction, GetObject);
  add("HEAD", "/{bucket}/{key+}", {}, "HeadObject", kReadAction, HeadObject);
  for (const char* path : {"/{bucket}", "/{bucket}/{key+}"}) {
    add("GET", path, {{"uploadId", std::nullopt}}, "ListParts", kReadAction, ListParts);
    add("PUT", path, {}, "PutObject", kWriteAction, PutObject);
    add("PUT", path, {{"partNumber", std::nullopt}, {"uploadId", std::nullopt}}, "UploadPart",
        kWriteAction, UploadPart);
    add("DELETE", path, {}, "DeleteObject", kWriteAction, DeleteObject);
    add("DELETE", path, {{"uploadId", std::nullopt}}, "AbortMultipartUpload", kWriteAction,
        AbortMultipartUpload);
    add("POST", path, {{"uploads", std::nullopt}}, "CreateMultipartUpload", kWriteAction,
        CreateMultipartUpload);
    add("POST", path, {{"uploadId", std::nullopt}}, "CompleteMultipartUpload", kWriteAction,
        CompleteMultipartUpload);
  }
  return http::Surface{"s3", "", std::make_shared<S3SurfaceErrorWriter>(), std::move(routes)};
}

}  // namespace st::api::s3
