// Request → (bucket, key) → table and object-store key.
#include "api/s3/s3_errors_internal.h"
#include "api/s3/surface_state_internal.h"
#include "catalog/table_guard.h"

namespace st::api::s3 {

namespace {

constexpr std::string_view kWarehouseSuffix = "--table-s3";
constexpr size_t kMaxKeyBytes = 1024;

// The bucket named by a virtual-hosted Host header, or "".
std::string VirtualHostBucket(const http::Request& request) {
  std::optional<std::string_view> host = request.headers.Get("Host");
  if (!host.has_value() || host->empty() || host->front() == '[') return "";
  size_t dot = host->find('.');
  if (dot == std::string_view::npos) return "";
  std::string_view label = host->substr(0, dot);
  if (label.size() <= kWarehouseSuffix.size() ||
      label.substr(label.size() - kWarehouseSuffix.size()) != kWarehouseSuffix) {
    return "";
  }
  return std::string(label);
}

Status BadKey(const std::string& why) {
  return InvalidArgument("Invalid object key: " + why +
                         ". Keys are relative paths inside the bucket.");
}

}  // namespace

Result<ObjectAddress> AddressOf(const http::Request& request) {
  ObjectAddress address;
  const std::vector<std::string>& segments = request.segments();
  size_t first_key_segment = 0;
  address.bucket = VirtualHostBucket(request);
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
  if (bucket.size() <= kWarehouseSuffix.size() ||
      bucket.substr(bucket.size() - kWarehouseSuffix.size()) != kWarehouseSuffix ||
      bucket.find('/') != std::string::npos) {
    return Err(NoSuchBucketStatus(bucket));
  }
  Result<catalog::Table> table = state.store.GetTableByWarehouseLocation("s3://" + bucket);
  if (!table.has_value() && table.error().code() == StatusCode::kNotFound) {
    return Err(NoSuchBucketStatus(bucket));
  }
  return table;
}

std::string BucketRoot(const S3State& state, const std::string& bucket) {
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
