// Request → (bucket, key) → table or general-purpose bucket, and object-store key.
#include "api/s3/s3_errors_internal.h"
#include "api/s3/surface_state_internal.h"
#include "catalog/table_guard.h"

namespace st::api::s3 {

namespace {

constexpr std::string_view kWarehouseSuffix = "--table-s3";
constexpr size_t kMaxKeyBytes = 1024;

bool IsIpv4Host(std::string_view host) {
  size_t colon = host.find(':');
  if (colon != std::string_view::npos) host = host.substr(0, colon);
  for (char c : host) {
    if (!(c == '.' || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// The bucket named by a virtual-hosted Host header, or "". A warehouse
// bucket is recognised by its `--table-s3` suffix alone; any other first
// label only when a general-purpose bucket of that name exists, because the
// server does not know which host names are its own (`api.example.com` must
// not become bucket "api"). IP literals are never virtual-hosted.
std::string VirtualHostBucket(const S3State& state, const http::Request& request) {
  std::optional<std::string_view> host = request.headers.Get("Host");
  if (!host.has_value() || host->empty() || host->front() == '[' || IsIpv4Host(*host)) return "";
  size_t dot = host->find('.');
  if (dot == std::string_view::npos) return "";
  std::string label(host->substr(0, dot));
  if (IsWarehouseBucket(label)) return label;
  if (label.size() < 3) return "";
  // CreateBucket (PUT /) names a bucket that does not exist yet.
  if (request.method == "PUT" && request.raw_path() == "/" && request.raw_query().empty()) {
    return label;
  }
  return state.store.GetGeneralPurposeBucket(label).has_value() ? label : "";
}

Status BadKey(const std::string& why) {
  return InvalidArgument("Invalid object key: " + why +
                         ". Keys are relative paths inside the bucket.");
}

}  // namespace

bool IsWarehouseBucket(std::string_view bucket) {
  return bucket.size() > kWarehouseSuffix.size() &&
         bucket.substr(bucket.size() - kWarehouseSuffix.size()) == kWarehouseSuffix;
}

Result<ObjectAddress> AddressOf(const S3State& state, const http::Request& request) {
  ObjectAddress address;
  const std::vector<std::string>& segments = request.segments();
  size_t first_key_segment = 0;
  address.bucket = VirtualHostBucket(state, request);
  address.virtual_hosted = !address.bucket.empty();
  if (!address.virtual_hosted) {
    if (segments.empty() || segments[0].empty()) {
      return Err(InvalidArgument("The request names no bucket; use /<bucket>/<key>."));
    }
    address.bucket = segments[0];
    first_key_segment = 1;
  }
  // "/" and "/<bucket>" (path style) address the bucket itself.
  if (segments.size() == first_key_segment ||
      (segments.size() == first_key_segment + 1 && segments.back().empty() &&
       !address.virtual_hosted)) {
    return address;
  }
  if (address.virtual_hosted && segments.size() == 1 && segments[0].empty()) return address;
  for (size_t i = first_key_segment; i < segments.size(); ++i) {
    const std::string& segment = segments[i];
    if (segment.empty()) return Err(BadKey("empty path segment (a '//' or a leading '/')"));
    if (segment == "." || segment == "..") return Err(BadKey("'.' or '..' segment"));
    if (segment.find('/') != std::string::npos) return Err(BadKey("encoded '/' (%2F)"));
    if (!address.key.empty()) address.key += '/';
    address.key += segment;
  }
  if (address.key.size() > kMaxKeyBytes) {
    return Err(BadKey("longer than " + std::to_string(kMaxKeyBytes) + " bytes"));
  }
  return address;
}

Result<catalog::Table> OwningTable(const S3State& state, const std::string& bucket) {
  if (!IsWarehouseBucket(bucket) || bucket.find('/') != std::string::npos) {
    return Err(NoSuchBucketStatus(bucket));
  }
  Result<catalog::Table> table = state.store.GetTableByWarehouseLocation("s3://" + bucket);
  if (!table.has_value() && table.error().code() == StatusCode::kNotFound) {
    return Err(NoSuchBucketStatus(bucket));
  }
  return table;
}

Result<catalog::GeneralPurposeBucket> GeneralPurposeBucketOf(const S3State& state,
                                                             const std::string& bucket) {
  if (IsWarehouseBucket(bucket) || bucket.find('/') != std::string::npos) {
    return Err(NoSuchBucketStatus(bucket));
  }
  Result<catalog::GeneralPurposeBucket> found = state.store.GetGeneralPurposeBucket(bucket);
  // A store without general-purpose buckets (Unsupported) simply has none.
  if (!found.has_value() && (found.error().code() == StatusCode::kNotFound ||
                             found.error().code() == StatusCode::kUnsupported)) {
    return Err(NoSuchBucketStatus(bucket));
  }
  return found;
}

Status CheckBucketExists(const S3State& state, const std::string& bucket) {
  if (IsWarehouseBucket(bucket)) return StatusOf(OwningTable(state, bucket));
  return StatusOf(GeneralPurposeBucketOf(state, bucket));
}

Status CheckBucketWritable(const S3State& state, const ObjectAddress& address,
                           std::string_view operation) {
  if (!IsWarehouseBucket(address.bucket)) return CheckBucketExists(state, address.bucket);
  return StatusOf(WritableTable(state, address, operation));
}

std::string BucketRoot(const S3State& state, const std::string& bucket) {
  if (!IsWarehouseBucket(bucket)) {
    return state.key_root + catalog::GeneralPurposeBucketKeyPrefix(bucket);
  }
  return state.key_root + bucket + "/";
}

std::string StoreKey(const S3State& state, const std::string& bucket, const std::string& key) {
  return BucketRoot(state, bucket) + key;
}

Result<catalog::Table> WritableTable(const S3State& state, const ObjectAddress& address,
                                     std::string_view operation) {
  ST_ASSIGN_OR_RETURN(catalog::Table table, OwningTable(state, address.bucket));
  ST_TRY(catalog::CheckTableWritable(table, std::nullopt, operation));
  return table;
}

}  // namespace st::api::s3
