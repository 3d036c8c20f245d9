// The S3 route table. Each route is registered for "/{bucket}/{key+}" (path
// style) and, where a virtual-hosted request for a one-segment key would land
// there, for "/{bucket}" too; the handlers read the address from the request
// itself (AddressOf), so both styles reach the same code.
#include "api/s3/s3_surface.h"

#include <optional>

#include "api/s3/s3_errors_internal.h"
#include "api/s3/surface_state_internal.h"

namespace st::api::s3 {

namespace {

constexpr const char* kReadAction = "s3tables:GetTableData";
constexpr const char* kWriteAction = "s3tables:PutTableData";
constexpr const char* kCreateBucketAction = "s3:CreateBucket";
constexpr const char* kListAllMyBucketsAction = "s3:ListAllMyBuckets";

using Handler = Result<http::Response> (*)(const S3State&, http::RouteContext&);

// The s3:* actions a route needs on a general-purpose bucket: `bucket` when
// the request names no key (on arn:aws:s3:::<bucket>), `object` otherwise (on
// arn:aws:s3:::<bucket>/<key>).
struct GpActions {
  const char* bucket;
  const char* object;
};

// Warehouse buckets: the owning table's ARN and condition keys with the
// route's s3tables action. General-purpose buckets: the s3:* action on the
// bucket or object ARN. A bad key, a reserved name for CreateBucket or an
// unknown bucket is answered before authorization (400 / 404 NoSuchBucket).
http::AccessResolver BucketAccess(SharedState state, GpActions gp) {
  return [state, gp](const http::Request& request, const http::PathParams&,
                     auth::AccessRequest& access) -> Status {
    ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(*state, request));
    const char* gp_action = address.key.empty() ? gp.bucket : gp.object;
    if (IsWarehouseBucket(address.bucket)) {
      if (std::string_view(gp_action) == kCreateBucketAction) {
        return InvalidBucketNameStatus(address.bucket,
                                       "names ending in '--table-s3' belong to table buckets' "
                                       "warehouses");
      }
      ST_ASSIGN_OR_RETURN(catalog::Table table, OwningTable(*state, address.bucket));
      access.resource = table.arn;
      access.condition_keys["s3tables:namespace"] = {table.namespace_name};
      access.condition_keys["s3tables:tableName"] = {table.name};
      return Status::OK();
    }
    access.action = gp_action;
    access.resource = "arn:aws:s3:::" + address.bucket;
    if (!address.key.empty()) access.resource += "/" + address.key;
    if (std::string_view(gp_action) == kCreateBucketAction) return Status::OK();
    return StatusOf(GeneralPurposeBucketOf(*state, address.bucket));
  };
}

// The policy authorizer cannot tell a general-purpose bucket's owner from its
// ARN (arn:aws:s3:::name has no account), so it evaluates as same-account.
// Cross-account access needs a bucket policy, which these buckets never
// have, so every other account is refused here, after authorization and
// before the handler.
std::optional<http::Response> RefuseOtherAccounts(const S3State& state,
                                                  http::RouteContext& context) {
  const std::string& action = context.access.action;
  if (action.rfind("s3:", 0) != 0 || action == kCreateBucketAction ||
      action == kListAllMyBucketsAction) {
    return std::nullopt;
  }
  Result<ObjectAddress> address = AddressOf(state, context.request);
  if (!address.has_value()) return context.Fail(address.error());
  Result<catalog::GeneralPurposeBucket> bucket = GeneralPurposeBucketOf(state, address->bucket);
  if (!bucket.has_value()) return context.Fail(bucket.error());
  if (bucket->owner_account_id == context.principal.account_id) return std::nullopt;
  return context.Fail(
      AccessDenied("User: " + context.principal.arn + " is not authorized to perform: " + action +
                   " on resource: " + context.access.resource + " because the bucket belongs to " +
                   "another account and has no bucket policy"));
}

// GET /<x>: a one-segment object when virtual-hosted; ListObjects (v1) when
// path style, which we do not serve.
Result<http::Response> GetObjectOrListV1(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, context.request));
  if (address.key.empty()) {
    return context.Fail(
        NotImplemented("ListObjects (v1) is not supported; use ListObjectsV2 "
                       "(list-type=2)."));
  }
  return GetObject(state, context);
}

// GET /: ListBuckets, or ListObjects (v1) of a virtual-hosted bucket.
Result<http::Response> ListBucketsOrListV1(const S3State& state, http::RouteContext& context) {
  if (context.access.action == kListAllMyBucketsAction) return ListBuckets(state, context);
  return GetObjectOrListV1(state, context);
}

// HEAD /<bucket> (HeadBucket) or a virtual-hosted HEAD of an object.
Result<http::Response> HeadBucketOrObject(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, context.request));
  if (!address.key.empty()) return HeadObject(state, context);
  ST_TRY(CheckBucketExists(state, address.bucket));
  http::Response response = http::Response::Empty(200);
  if (!IsWarehouseBucket(address.bucket)) response.headers.Set("x-amz-bucket-region", state.region);
  return response;
}

// PUT /<bucket> is CreateBucket; with a key it is PutObject.
Result<http::Response> PutObjectOrCreateBucket(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, context.request));
  if (address.key.empty() && !IsWarehouseBucket(address.bucket)) {
    return CreateBucket(state, context);
  }
  return PutObject(state, context);
}

// DELETE /<bucket> is DeleteBucket for a general-purpose bucket; warehouse
// buckets go with their table (DeleteObject refuses them).
Result<http::Response> DeleteObjectOrBucket(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, context.request));
  if (address.key.empty() && !IsWarehouseBucket(address.bucket)) {
    return DeleteBucket(state, context);
  }
  return DeleteObject(state, context);
}

// GET / names no bucket when path style: ListBuckets on "*".
http::AccessResolver RootAccess(SharedState state) {
  http::AccessResolver bucket_access = BucketAccess(state, {"s3:ListBucket", "s3:GetObject"});
  return [state, bucket_access](const http::Request& request, const http::PathParams& params,
                                auth::AccessRequest& access) -> Status {
    Result<ObjectAddress> address = AddressOf(*state, request);
    if (address.has_value()) return bucket_access(request, params, access);
    access.action = kListAllMyBucketsAction;
    access.resource = "*";
    return Status::OK();
  };
}

}  // namespace

http::Surface MakeS3Surface(const S3Deps& deps) {
  std::unique_ptr<const auth::SigV4Verifier> chunk_verifier;
  if (deps.secrets != nullptr && deps.clock != nullptr) {
    chunk_verifier = std::make_unique<const auth::SigV4Verifier>(*deps.secrets, *deps.clock);
  }
  auto state = std::make_shared<const S3State>(
      S3State{deps.store, deps.objects, deps.object_key_root, deps.random, deps.region,
              deps.local_object_dir, std::move(chunk_verifier), deps.authorizer});
  std::vector<http::Route> routes;
  auto guarded = [state](Handler handler) {
    return [state, handler](http::RouteContext& context) -> Result<http::Response> {
      if (auto refused = RefuseOtherAccounts(*state, context)) return std::move(*refused);
      return handler(*state, context);
    };
  };
  auto add = [&](const char* method, const char* path, std::vector<http::QueryRule> query,
                 const char* operation, const char* action, GpActions gp, Handler handler) {
    routes.push_back({method, path, std::move(query), operation,
                      http::Requires(action, BucketAccess(state, gp)), guarded(handler)});
  };
  const GpActions kList{"s3:ListBucket", "s3:ListBucket"};
  const GpActions kGet{"s3:ListBucket", "s3:GetObject"};
  const GpActions kPut{"s3:PutObject", "s3:PutObject"};
  const GpActions kListParts{"s3:ListMultipartUploadParts", "s3:ListMultipartUploadParts"};
  const GpActions kAbort{"s3:AbortMultipartUpload", "s3:AbortMultipartUpload"};
  add("GET", "/", {{"list-type", "2"}}, "ListObjectsV2", kReadAction, kList, ListObjectsV2);
  add("GET", "/{bucket}", {{"list-type", "2"}}, "ListObjectsV2", kReadAction, kList, ListObjectsV2);
  routes.push_back({"GET",
                    "/",
                    {},
                    "ListBuckets",
                    http::Requires(kReadAction, RootAccess(state)),
                    guarded(ListBucketsOrListV1)});
  add("HEAD", "/", {}, "HeadBucket", kReadAction, kGet, HeadBucketOrObject);
  add("HEAD", "/{bucket}", {}, "HeadBucket", kReadAction, kGet, HeadBucketOrObject);
  add("GET", "/{bucket}", {}, "GetObject", kReadAction, kGet, GetObjectOrListV1);
  add("GET", "/{bucket}/{key+}", {}, "GetObject", kReadAction, kGet, GetObject);
  add("HEAD", "/{bucket}/{key+}", {}, "HeadObject", kReadAction, kGet, HeadObject);
  // Virtual-hosted CreateBucket / DeleteBucket.
  add("PUT", "/", {}, "CreateBucket", kWriteAction, {kCreateBucketAction, "s3:PutObject"},
      PutObjectOrCreateBucket);
  add("DELETE", "/", {}, "DeleteBucket", kWriteAction, {"s3:DeleteBucket", "s3:DeleteObject"},
      DeleteObjectOrBucket);
  for (const char* path : {"/{bucket}", "/{bucket}/{key+}"}) {
    add("GET", path, {{"uploadId", std::nullopt}}, "ListParts", kReadAction, kListParts, ListParts);
    add("PUT", path, {}, "PutObject", kWriteAction, {kCreateBucketAction, "s3:PutObject"},
        PutObjectOrCreateBucket);
    add("PUT", path, {{"partNumber", std::nullopt}, {"uploadId", std::nullopt}}, "UploadPart",
        kWriteAction, kPut, UploadPart);
    add("DELETE", path, {}, "DeleteObject", kWriteAction, {"s3:DeleteBucket", "s3:DeleteObject"},
        DeleteObjectOrBucket);
    add("DELETE", path, {{"uploadId", std::nullopt}}, "AbortMultipartUpload", kWriteAction, kAbort,
        AbortMultipartUpload);
    add("POST", path, {{"uploads", std::nullopt}}, "CreateMultipartUpload", kWriteAction, kPut,
        CreateMultipartUpload);
    add("POST", path, {{"uploadId", std::nullopt}}, "CompleteMultipartUpload", kWriteAction, kPut,
        CompleteMultipartUpload);
  }
  return http::Surface{"s3", "", std::make_shared<S3SurfaceErrorWriter>(), std::move(routes)};
}

}  // namespace st::api::s3
