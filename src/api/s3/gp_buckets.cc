// General-purpose buckets (dead-letter-queue targets): CreateBucket,
// DeleteBucket, ListBuckets. Bucket rows live in the catalog; objects under
// catalog::GeneralPurposeBucketKeyPrefix, served by the object handlers.
#include "api/s3/object_etag_internal.h"
#include "api/s3/object_headers_internal.h"
#include "api/s3/s3_errors_internal.h"
#include "api/s3/surface_state_internal.h"
#include "api/s3/xml_text_internal.h"
#include "common/utc_time.h"

namespace st::api::s3 {

namespace {

// Names our own key layout or routing would misread; the catalog checks the
// rest of S3's naming rules.
std::optional<std::string> ReservedNameRule(const std::string& bucket) {
  if (IsWarehouseBucket(bucket)) {
    return "names ending in '--table-s3' belong to table buckets' warehouses";
  }
  if (bucket.rfind("s3-buckets", 0) == 0) return "names starting with 's3-buckets' are reserved";
  return std::nullopt;
}

}  // namespace

Result<http::Response> CreateBucket(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, context.request));
  if (auto rule = ReservedNameRule(address.bucket)) {
    return context.Fail(InvalidBucketName(address.bucket, *rule));
  }
  const std::string& body = context.request.body;
  if (!body.empty()) {
    std::optional<std::string> location = ElementText(body, "LocationConstraint");
    if (location.has_value() && !location->empty() && *location != state.region) {
      return context.Fail(BadRequest(
          "IllegalLocationConstraintException",
          "The " + *location + " location constraint is incompatible with this endpoint's region " +
              state.region + "; omit CreateBucketConfiguration or use " + state.region + "."));
    }
  }
  const std::string& caller_account = context.principal.account_id;
  Result<catalog::GeneralPurposeBucket> existing =
      state.store.GetGeneralPurposeBucket(address.bucket);
  if (existing.has_value()) {
    return context.Fail(existing->owner_account_id == caller_account
                            ? BucketAlreadyOwnedByYou(address.bucket)
                            : BucketAlreadyExists(address.bucket));
  }
  if (existing.error().code() != StatusCode::kNotFound) return Err(existing.error());
  Result<catalog::GeneralPurposeBucket> created =
      state.store.CreateGeneralPurposeBucket(caller_account, state.region, address.bucket);
  if (!created.has_value()) {
    switch (created.error().code()) {
      case StatusCode::kInvalidArgument:
        return context.Fail(InvalidBucketName(address.bucket, created.error().message()));
      case StatusCode::kAlreadyExists:  // Lost a race with another CreateBucket.
        return context.Fail(BucketAlreadyExists(address.bucket));
      default:
        return Err(created.error());
    }
  }
  http::Response response = http::Response::Empty(200);
  response.headers.Set("Location", "/" + address.bucket);
  return response;
}

Result<http::Response> DeleteBucket(const S3State& state, http::RouteContext& context) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, context.request));
  ST_TRY(GeneralPurposeBucketOf(state, address.bucket));
  ST_ASSIGN_OR_RETURN(std::vector<storage::ObjectInfo> objects,
                      state.objects.List(BucketRoot(state, address.bucket)));
  if (!objects.empty()) return context.Fail(BucketNotEmpty(address.bucket));
  // An object written between the check and the delete is orphaned under the
  // prefix; a later bucket of this name would show it. Accepted: DLQ writers
  // stop before their bucket is deleted.
  DiscardBucketUploads(state, address.bucket);
  ForgetBucketEtags(state.objects, state.key_root, address.bucket);
  Status deleted = state.store.DeleteGeneralPurposeBucket(address.bucket);
  if (deleted.code() == StatusCode::kNotFound) return context.Fail(NoSuchBucket(address.bucket));
  ST_TRY(deleted);
  return http::Response::Empty(204);
}

Result<http::Response> ListBuckets(const S3State& state, http::RouteContext& context) {
  const std::string& account = context.principal.account_id;
  Result<std::vector<catalog::GeneralPurposeBucket>> buckets =
      state.store.ListGeneralPurposeBuckets(account);
  if (!buckets.has_value() && buckets.error().code() == StatusCode::kUnsupported) {
    buckets = std::vector<catalog::GeneralPurposeBucket>();
  }
  if (!buckets.has_value()) return Err(buckets.error());
  std::string xml = kXmlDeclaration;
  xml += "<ListAllMyBucketsResult xmlns=\"";
  xml += kS3Namespace;
  xml += "\"><Owner>";
  AppendElement(xml, "ID", account);
  AppendElement(xml, "DisplayName", account);
  xml += "</Owner><Buckets>";
  for (const catalog::GeneralPurposeBucket& bucket : *buckets) {
    xml += "<Bucket>";
    AppendElement(xml, "Name", bucket.name);
    AppendElement(xml, "CreationDate", FormatUtcMillis(bucket.created_at));
    AppendElement(xml, "BucketRegion", bucket.region);
    xml += "</Bucket>";
  }
  xml += "</Buckets></ListAllMyBucketsResult>";
  return http::Response::Xml(200, std::move(xml));
}

}  // namespace st::api::s3
