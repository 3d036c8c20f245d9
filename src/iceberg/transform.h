// Partition transforms (spec "Partition Transforms", Appendix B hashing).
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "common/value.h"
#include "iceberg/types.h"

namespace st::iceberg {

class Transform {
 public:
  enum class Kind { kIdentity, kBucket, kTruncate, kYear, kMonth, kDay, kHour, kVoid };

  static Transform Identity() { return Transform(Kind::kIdentity, 0); }
  static Transform Bucket(int32_t n) { return Transform(Kind::kBucket, n); }
  static Transform Truncate(int32_t width) { return Transform(Kind::kTruncate, width); }
  static Transform Year() { return Transform(Kind::kYear, 0); }
  static Transform Month() { return Transform(Kind::kMonth, 0); }
  static Transform Day() { return Transform(Kind::kDay, 0); }
  static Transform Hour() { return Transform(Kind::kHour, 0); }
  static Transform Void() { return Transform(Kind::kVoid, 0); }

  // Parses "identity", "bucket[16]", "truncate[4]", "year", ... Errors:
  // InvalidArgument for unknown names or non-positive parameters.
  static Result<Transform> Parse(const std::string& text);
  // The metadata JSON string ("bucket[16]", "day").
  std::string ToString() const;

  Kind kind() const { return kind_; }
  int32_t param() const { return param_; }  // N of bucket, W of truncate, else 0.

  // Whether this transform accepts a source of this type (spec table).
  bool CanTransform(const Type& source) const;
  // The partition value type for a source type (day → date, bucket → int, ...).
  // Precondition: CanTransform(source).
  TypePtr ResultType(const TypePtr& source) const;
  // Applies the transform to a value of `source` type (st::Value mapping in
  // types.h). Null → Null. Errors: InvalidArgument when the value's kind does
  // not match the source type.
  Result<Value> Apply(const Type& source, const Value& value) const;
  // Human-readable partition value for file paths: yyyy, yyyy-MM, yyyy-MM-dd,
  // yyyy-MM-dd-HH for time transforms, "null" for null, else the value's text.
  std::string ToHumanString(const Type& result_type, const Value& partition_value) const;
  // Default partition field name suffix per Java convention ("year", "bucket",
  // "trunc", "day", ...); identity → "" (the field keeps the column name).
  std::string DefaultNameSuffix() const;

  friend bool operator==(const Transform&, const Transform&) = default;

 private:
  Transform(Kind kind, int32_t param) : kind_(kind), param_(param) {}
  Kind kind_;
  int32_t param_;
};

// Murmur3 x86 32-bit hash with seed 0 over the spec's byte inputs for bucket
// (Appendix B): int/long/date/time/timestamp hash the 8-byte little-endian
// long; decimal the minimal big-endian two's complement unscaled bytes;
// string the UTF-8 bytes; uuid the 16 big-endian bytes; fixed/binary the bytes.
int32_t Murmur3Hash32(const void* data, size_t size);
// The spec's hash of a value of `type` (for bucket), as above. Errors as Apply.
Result<int32_t> BucketHash(const Type& type, const Value& value);

}  // namespace st::iceberg
