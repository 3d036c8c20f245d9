// Murmur3 x86_32 (seed 0) and the spec's Appendix B hash inputs for bucket[N].
#include <cstring>

#include "iceberg/conversions_internal.h"
#include "iceberg/transform.h"

namespace st::iceberg {

namespace {

constexpr uint32_t RotateLeft(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

constexpr uint32_t MixBlock(uint32_t k) {
  k *= 0xcc9e2d51u;
  k = RotateLeft(k, 15);
  k *= 0x1b873593u;
  return k;
}

uint32_t ReadLittleEndian32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

int32_t HashLong(int64_t v) {
  uint8_t bytes[8];
  const auto u = static_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(u >> (8 * i));
  return Murmur3Hash32(bytes, sizeof(bytes));
}

}  // namespace

int32_t Murmur3Hash32(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  uint32_t h = 0;  // seed
  const size_t blocks = size / 4;
  for (size_t i = 0; i < blocks; ++i) {
    h ^= MixBlock(ReadLittleEndian32(bytes + 4 * i));
    h = RotateLeft(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  const uint8_t* tail = bytes + 4 * blocks;
  uint32_t k = 0;
  switch (size & 3) {
    case 3:
      k ^= static_cast<uint32_t>(tail[2]) << 16;
      [[fallthrough]];
    case 2:
      k ^= static_cast<uint32_t>(tail[1]) << 8;
      [[fallthrough]];
    case 1:
      k ^= tail[0];
      h ^= MixBlock(k);
  }
  h ^= static_cast<uint32_t>(size);
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return static_cast<int32_t>(h);
}

Result<int32_t> BucketHash(const Type& type, const Value& value) {
  auto mismatch = [&]() {
    return Err(InvalidArgument("bucket: value does not match source type " + type.ToString()));
  };
  switch (type.id()) {
    case TypeId::kInt:
    case TypeId::kDate:
      if (value.kind() != Value::Kind::kInt32) return mismatch();
      return HashLong(value.int32_value());
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      if (value.kind() != Value::Kind::kInt64) return mismatch();
      return HashLong(value.int64_value());
    case TypeId::kDecimal: {
      if (value.kind() != Value::Kind::kDecimal) return mismatch();
      const std::string bytes = internal::DecimalToMinimalBytes(value.decimal_value());
      return Murmur3Hash32(bytes.data(), bytes.size());
    }
    case TypeId::kString:
      if (value.kind() != Value::Kind::kString) return mismatch();
      return Murmur3Hash32(value.bytes_value().data(), value.bytes_value().size());
    case TypeId::kUuid:
      if (value.kind() != Value::Kind::kBinary || value.bytes_value().size() != 16) {
        return Err(InvalidArgument("bucket: uuid values must be 16 bytes"));
      }
      return Murmur3Hash32(value.bytes_value().data(), 16);
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (value.kind() != Value::Kind::kBinary) return mismatch();
      return Murmur3Hash32(value.bytes_value().data(), value.bytes_value().size());
    default:
      return Err(InvalidArgument("bucket does not accept source type " + type.ToString()));
  }
}

}  // namespace st::iceberg
