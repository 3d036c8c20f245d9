// Avro binary encoding of Values; see encoding.h for the Value mapping.
#include <cstring>

#include "avro/binary_reader_internal.h"
#include "avro/encoding.h"

namespace st::avro {
namespace internal {

void AppendLong(int64_t value, std::string* out) {
  uint64_t zigzag = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  char buf[10];
  size_t n = 0;
  while (zigzag >= 0x80) {
    buf[n++] = static_cast<char>((zigzag & 0x7F) | 0x80);
    zigzag >>= 7;
  }
  buf[n++] = static_cast<char>(zigzag);
  out->append(buf, n);
}

}  // namespace internal

namespace {

using internal::AppendLong;

const char* KindName(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kNull:
      return "Null";
    case Value::Kind::kBool:
      return "Bool";
    case Value::Kind::kInt32:
      return "Int32";
    case Value::Kind::kInt64:
      return "Int64";
    case Value::Kind::kFloat:
      return "Float";
    case Value::Kind::kDouble:
      return "Double";
    case Value::Kind::kDecimal:
      return "Decimal";
    case Value::Kind::kString:
      return "String";
    case Value::Kind::kBinary:
      return "Binary";
    case Value::Kind::kList:
      return "List";
    case Value::Kind::kMap:
      return "Map";
    case Value::Kind::kStruct:
      return "Struct";
  }
  return "?";
}

Status Mismatch(const Node& node, const Value& value) {
  std::string type = node.full_name.empty() ? std::string(TypeName(node.type)) : node.full_name;
  return InvalidArgument("avro encode: a " + std::string(KindName(value.kind())) +
                         " value does not fit schema type '" + type + "'");
}

// Big-endian two's complement of `v` in exactly `size` bytes, or false if it does not fit.
bool DecimalBytes(Int128 v, size_t size, std::string* out) {
  internal::UInt128 u = static_cast<internal::UInt128>(v);
  char full[16];
  for (int i = 15; i >= 0; --i) {
    full[i] = static_cast<char>(u & 0xFF);
    u >>= 8;
  }
  char sign = v < 0 ? static_cast<char>(0xFF) : 0;
  if (size >= 16) {
    out->append(size - 16, sign);
    out->append(full, 16);
    return true;
  }
  size_t skip = 16 - size;
  for (size_t i = 0; i < skip; ++i) {
    if (full[i] != sign) return false;
  }
  // The kept top bit must still carry the sign.
  if (size > 0 && ((full[skip] & 0x80) != 0) != (v < 0)) return false;
  if (size == 0 && v != 0) return false;
  out->append(full + skip, size);
  return true;
}

// Minimal-length two's complement (what Java's BigInteger.toByteArray gives).
std::string MinimalDecimalBytes(Int128 v) {
  for (size_t size = 1; size <= 16; ++size) {
    std::string out;
    if (DecimalBytes(v, size, &out)) return out;
  }
  return {};
}

bool BranchMatches(const Node& b, const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return b.type == Type::kNull;
    case Value::Kind::kBool:
      return b.type == Type::kBoolean;
    case Value::Kind::kInt32:
      return b.type == Type::kInt;
    case Value::Kind::kInt64:
      return b.type == Type::kLong;
    case Value::Kind::kFloat:
      return b.type == Type::kFloat;
    case Value::Kind::kDouble:
      return b.type == Type::kDouble;
    case Value::Kind::kDecimal:
      return b.is_decimal;
    case Value::Kind::kString:
      return b.type == Type::kString;
    case Value::Kind::kBinary:
      return (b.type == Type::kBytes && !b.is_decimal) ||
             (b.type == Type::kFixed &&
              static_cast<size_t>(b.fixed_size) == value.bytes_value().size());
    case Value::Kind::kList:
      return b.type == Type::kArray && !b.is_logical_map;
    case Value::Kind::kMap:
      return b.type == Type::kMap;
    case Value::Kind::kStruct:
      return b.type == Type::kRecord && b.fields.size() == value.struct_value().size();
  }
  return false;
}

// Second choice: promotions and alternative representations.
bool BranchAccepts(const Node& b, const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kInt32:
      return b.type == Type::kLong;
    case Value::Kind::kFloat:
      return b.type == Type::kDouble;
    case Value::Kind::kString:
      return b.type == Type::kEnum;
    case Value::Kind::kBinary:
      return b.type == Type::kBytes || b.type == Type::kFixed;
    case Value::Kind::kList:
      return b.type == Type::kArray;
    case Value::Kind::kMap:
      return b.type == Type::kArray && b.is_logical_map;
    case Value::Kind::kStruct:
      return b.type == Type::kRecord;
    default:
      return false;
  }
}

Status EncodeImpl(const Node& node, const Value& value, std::string* out);

Status EncodeLogicalMapEntry(const Node& record, const Value& key, const Value& value,
                             std::string* out) {
  ST_TRY(EncodeImpl(record.fields[0].type->Resolve(), key, out));
  return EncodeImpl(record.fields[1].type->Resolve(), value, out);
}

Status EncodeImpl(const Node& node, const Value& value, std::string* out) {
  Value::Kind kind = value.kind();
  switch (node.type) {
    case Type::kNull:
      if (kind != Value::Kind::kNull) return Mismatch(node, value);
      return Status::OK();
    case Type::kBoolean:
      if (kind != Value::Kind::kBool) return Mismatch(node, value);
      out->push_back(value.bool_value() ? 1 : 0);
      return Status::OK();
    case Type::kInt:
      if (kind != Value::Kind::kInt32) return Mismatch(node, value);
      AppendLong(value.int32_value(), out);
      return Status::OK();
    case Type::kLong:
      if (kind == Value::Kind::kInt64) {
        AppendLong(value.int64_value(), out);
      } else if (kind == Value::Kind::kInt32) {
        AppendLong(value.int32_value(), out);
      } else {
        return Mismatch(node, value);
      }
      return Status::OK();
    case Type::kFloat: {
      if (kind != Value::Kind::kFloat) return Mismatch(node, value);
      float f = value.float_value();
      char buf[4];
      std::memcpy(buf, &f, 4);
      out->append(buf, 4);
      return Status::OK();
    }
    case Type::kDouble: {
      double d;
      if (kind == Value::Kind::kDouble) {
        d = value.double_value();
      } else if (kind == Value::Kind::kFloat) {
        d = value.float_value();
      } else {
        return Mismatch(node, value);
      }
      char buf[8];
      std::memcpy(buf, &d, 8);
      out->append(buf, 8);
      return Status::OK();
    }
    case Type::kBytes:
      if (kind == Value::Kind::kDecimal && node.is_decimal) {
        std::string bytes = MinimalDecimalBytes(value.decimal_value());
        AppendLong(static_cast<int64_t>(bytes.size()), out);
        out->append(bytes);
        return Status::OK();
      }
      if (kind != Value::Kind::kBinary) return Mismatch(node, value);
      AppendLong(static_cast<int64_t>(value.bytes_value().size()), out);
      out->append(value.bytes_value());
      return Status::OK();
    case Type::kString:
      if (kind != Value::Kind::kString) return Mismatch(node, value);
      AppendLong(static_cast<int64_t>(value.bytes_value().size()), out);
      out->append(value.bytes_value());
      return Status::OK();
    case Type::kFixed:
      if (kind == Value::Kind::kDecimal && node.is_decimal) {
        if (!DecimalBytes(value.decimal_value(), static_cast<size_t>(node.fixed_size), out)) {
          return InvalidArgument("avro encode: decimal does not fit fixed '" + node.full_name +
                                 "' of " + std::to_string(node.fixed_size) + " bytes");
        }
        return Status::OK();
      }
      if (kind != Value::Kind::kBinary) return Mismatch(node, value);
      if (value.bytes_value().size() != static_cast<size_t>(node.fixed_size)) {
        return InvalidArgument("avro encode: fixed '" + node.full_name + "' needs " +
                               std::to_string(node.fixed_size) + " bytes, got " +
                               std::to_string(value.bytes_value().size()));
      }
      out->append(value.bytes_value());
      return Status::OK();
    case Type::kEnum: {
      if (kind == Value::Kind::kInt32) {
        int32_t index = value.int32_value();
        if (index < 0 || static_cast<size_t>(index) >= node.symbols.size()) {
          return InvalidArgument("avro encode: enum index " + std::to_string(index) +
                                 " out of range for '" + node.full_name + "'");
        }
        AppendLong(index, out);
        return Status::OK();
      }
      if (kind != Value::Kind::kString) return Mismatch(node, value);
      for (size_t i = 0; i < node.symbols.size(); ++i) {
        if (node.symbols[i] == value.bytes_value()) {
          AppendLong(static_cast<int64_t>(i), out);
          return Status::OK();
        }
      }
      return InvalidArgument("avro encode: '" + value.bytes_value() +
                             "' is not a symbol of enum '" + node.full_name + "'");
    }
    case Type::kUnion: {
      const auto& branches = node.branches;
      for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < branches.size(); ++i) {
          const Node& b = branches[i]->Resolve();
          if (pass == 0 ? BranchMatches(b, value) : BranchAccepts(b, value)) {
            AppendLong(static_cast<int64_t>(i), out);
            return EncodeImpl(b, value, out);
          }
        }
      }
      return InvalidArgument("avro encode: no union branch takes a " + std::string(KindName(kind)) +
                             " value");
    }
    case Type::kRecord: {
      if (kind != Value::Kind::kStruct) return Mismatch(node, value);
      const Value::Struct& fields = value.struct_value();
      if (fields.size() != node.fields.size()) {
        return InvalidArgument("avro encode: record '" + node.full_name + "' has " +
                               std::to_string(node.fields.size()) + " fields, the value " +
                               std::to_string(fields.size()));
      }
      for (size_t i = 0; i < fields.size(); ++i) {
        Status s = EncodeImpl(node.fields[i].type->Resolve(), fields[i], out);
        if (!s.ok()) return s.WithContext("field '" + node.fields[i].name + "'");
      }
      return Status::OK();
    }
    case Type::kArray: {
      const Node& items = node.items->Resolve();
      if (kind == Value::Kind::kMap && node.is_logical_map) {
        const Value::Map& entries = value.map_value();
        if (!entries.empty()) AppendLong(static_cast<int64_t>(entries.size()), out);
        for (const auto& [k, v] : entries) ST_TRY(EncodeLogicalMapEntry(items, k, v, out));
        out->push_back(0);
        return Status::OK();
      }
      if (kind != Value::Kind::kList) return Mismatch(node, value);
      const Value::List& list = value.list_value();
      if (!list.empty()) AppendLong(static_cast<int64_t>(list.size()), out);
      for (size_t i = 0; i < list.size(); ++i) {
        Status s = EncodeImpl(items, list[i], out);
        if (!s.ok()) return s.WithContext("element " + std::to_string(i));
      }
      out->push_back(0);
      return Status::OK();
    }
    case Type::kMap: {
      if (kind != Value::Kind::kMap) return Mismatch(node, value);
      const Node& values = node.values->Resolve();
      const Value::Map& entries = value.map_value();
      if (!entries.empty()) AppendLong(static_cast<int64_t>(entries.size()), out);
      for (const auto& [k, v] : entries) {
        if (k.kind() != Value::Kind::kString) {
          return InvalidArgument("avro encode: map keys must be String values, got " +
                                 std::string(KindName(k.kind())));
        }
        AppendLong(static_cast<int64_t>(k.bytes_value().size()), out);
        out->append(k.bytes_value());
        Status s = EncodeImpl(values, v, out);
        if (!s.ok()) return s.WithContext("map value '" + k.bytes_value() + "'");
      }
      out->push_back(0);
      return Status::OK();
    }
    case Type::kReference:
      return EncodeImpl(node.Resolve(), value, out);
  }
  return Internal("avro encode: unknown schema node type");
}

}  // namespace

Status EncodeNode(const Node& node, const Value& value, std::string* out) {
  return EncodeImpl(node.Resolve(), value, out);
}

Status Encode(const Schema& schema, const Value& value, std::string* out) {
  return EncodeImpl(schema.root(), value, out);
}

}  // namespace st::avro
