// Avro binary decoding. Every length and count is checked against the bytes
// that remain before anything is allocated, so hostile input yields
// Corruption, never a crash or an outsized allocation.
#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "avro/binary_reader_internal.h"
#include "avro/encoding.h"

namespace st::avro {
namespace internal {
namespace {

static_assert(std::endian::native == std::endian::little, "Avro floats are little-endian");

// Never reserve more than this many elements up front: a hostile count that
// passes the byte check must still be paid for by actual items.
constexpr int64_t kMaxReserve = 4096;

Result<Value> DecimalFromBytes(std::string_view bytes, const BinaryReader& reader) {
  if (bytes.empty()) return Value::Decimal(0);
  bool negative = (static_cast<uint8_t>(bytes[0]) & 0x80) != 0;
  uint8_t sign_byte = negative ? 0xFF : 0x00;
  size_t extra = bytes.size() > 16 ? bytes.size() - 16 : 0;
  for (size_t i = 0; i < extra; ++i) {
    if (static_cast<uint8_t>(bytes[i]) != sign_byte) {
      return Err(reader.Corrupt("decimal wider than 128 bits"));
    }
  }
  bytes.remove_prefix(extra);
  if (extra > 0 && bytes.size() == 16 &&
      ((static_cast<uint8_t>(bytes[0]) & 0x80) != 0) != negative) {
    return Err(reader.Corrupt("decimal wider than 128 bits"));
  }
  UInt128 acc = negative ? ~static_cast<UInt128>(0) : 0;
  for (char c : bytes) acc = (acc << 8) | static_cast<uint8_t>(c);
  return Value::Decimal(static_cast<Int128>(acc));
}

}  // namespace

Status BinaryReader::Corrupt(std::string_view what) const {
  return Corruption("avro: " + std::string(what) + " at byte offset " +
                    std::to_string(file_offset()));
}

Result<int64_t> BinaryReader::ReadLong(const char* what) {
  uint64_t result = 0;
  for (int i = 0; i < 10; ++i) {
    if (pos_ >= data_.size()) {
      return Err(Corrupt(std::string("input ends inside ") + what));
    }
    uint8_t b = static_cast<uint8_t>(data_[pos_++]);
    if (i == 9 && (b & 0xFE) != 0) {
      return Err(Corrupt(std::string("varint of ") + what + " overflows 64 bits"));
    }
    result |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
    if ((b & 0x80) == 0) {
      return static_cast<int64_t>((result >> 1) ^ (~(result & 1) + 1));
    }
  }
  return Err(Corrupt(std::string("unreachable varint state in ") + what));
}

Result<int32_t> BinaryReader::ReadInt(const char* what) {
  ST_ASSIGN_OR_RETURN(int64_t v, ReadLong(what));
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return Err(Corrupt(std::string(what) + " " + std::to_string(v) + " does not fit an int"));
  }
  return static_cast<int32_t>(v);
}

Result<std::string_view> BinaryReader::ReadFixed(size_t size, const char* what) {
  if (size > remaining()) {
    return Err(Corrupt(std::string(what) + " of " + std::to_string(size) +
                       " bytes runs past the end (" + std::to_string(remaining()) + " left)"));
  }
  std::string_view out = data_.substr(pos_, size);
  pos_ += size;
  return out;
}

Result<std::string_view> BinaryReader::ReadBytes(const char* what) {
  ST_ASSIGN_OR_RETURN(int64_t length, ReadLong(what));
  if (length < 0) {
    return Err(Corrupt(std::string("negative length ") + std::to_string(length) + " of " + what));
  }
  if (static_cast<uint64_t>(length) > remaining()) {
    return Err(Corrupt(std::string(what) + " length " + std::to_string(length) + " exceeds the " +
                       std::to_string(remaining()) + " bytes left"));
  }
  return ReadFixed(static_cast<size_t>(length), what);
}

Result<int64_t> BinaryReader::ReadBlockCount(int64_t min_item_bytes, const char* what) {
  ST_ASSIGN_OR_RETURN(int64_t count, ReadLong(what));
  if (count < 0) {
    if (count == std::numeric_limits<int64_t>::min()) {
      return Err(Corrupt(std::string("invalid ") + what));
    }
    count = -count;
    ST_ASSIGN_OR_RETURN(int64_t size, ReadLong("block byte size"));
    if (size < 0 || static_cast<uint64_t>(size) > remaining()) {
      return Err(Corrupt("block byte size " + std::to_string(size) + " exceeds the " +
                         std::to_string(remaining()) + " bytes left"));
    }
  }
  if (min_item_bytes > 0) {
    if (count > static_cast<int64_t>(remaining()) / min_item_bytes) {
      return Err(Corrupt(std::string(what) + " " + std::to_string(count) + " needs more than the " +
                         std::to_string(remaining()) + " bytes left"));
    }
  } else {
    if (count > zero_width_left_) {
      return Err(Corrupt(std::string(what) + " " + std::to_string(count) +
                         " of zero-width items exceeds the limit"));
    }
    zero_width_left_ -= count;
  }
  return count;
}

Result<Value> BinaryReader::ReadArray(const Node& node, int depth) {
  const Node& items = node.items->Resolve();
  if (node.is_logical_map) {
    Value::Map entries;
    const Node& key = items.fields[0].type->Resolve();
    const Node& value = items.fields[1].type->Resolve();
    while (true) {
      ST_ASSIGN_OR_RETURN(int64_t count,
                          ReadBlockCount(items.min_encoded_bytes, "array block count"));
      if (count == 0) break;
      entries.reserve(entries.size() + static_cast<size_t>(std::min(count, kMaxReserve)));
      for (int64_t i = 0; i < count; ++i) {
        ST_ASSIGN_OR_RETURN(Value k, Read(key, depth + 2));
        ST_ASSIGN_OR_RETURN(Value v, Read(value, depth + 2));
        entries.emplace_back(std::move(k), std::move(v));
      }
    }
    return Value::MakeMap(std::move(entries));
  }
  Value::List list;
  while (true) {
    ST_ASSIGN_OR_RETURN(int64_t count,
                        ReadBlockCount(items.min_encoded_bytes, "array block count"));
    if (count == 0) break;
    list.reserve(list.size() + static_cast<size_t>(std::min(count, kMaxReserve)));
    for (int64_t i = 0; i < count; ++i) {
      ST_ASSIGN_OR_RETURN(Value v, Read(items, depth + 1));
      list.push_back(std::move(v));
    }
  }
  return Value::MakeList(std::move(list));
}

Result<Value> BinaryReader::ReadMap(const Node& node, int depth) {
  const Node& values = node.values->Resolve();
  Value::Map entries;
  while (true) {
    ST_ASSIGN_OR_RETURN(int64_t count,
                        ReadBlockCount(1 + values.min_encoded_bytes, "map block count"));
    if (count == 0) break;
    entries.reserve(entries.size() + static_cast<size_t>(std::min(count, kMaxReserve)));
    for (int64_t i = 0; i < count; ++i) {
      ST_ASSIGN_OR_RETURN(std::string_view key, ReadBytes("map key"));
      ST_ASSIGN_OR_RETURN(Value v, Read(values, depth + 1));
      entries.emplace_back(Value::String(std::string(key)), std::move(v));
    }
  }
  return Value::MakeMap(std::move(entries));
}

Result<Value> BinaryReader::Read(const Node& node, int depth) {
  if (depth > limits_.max_depth) {
    return Err(
        Corrupt("value nested deeper than " + std::to_string(limits_.max_depth) + " levels"));
  }
  switch (node.type) {
    case Type::kNull:
      return Value::Null();
    case Type::kBoolean: {
      ST_ASSIGN_OR_RETURN(std::string_view b, ReadFixed(1, "boolean"));
      if (b[0] != 0 && b[0] != 1) return Err(Corrupt("boolean byte is neither 0 nor 1"));
      return Value::Bool(b[0] == 1);
    }
    case Type::kInt: {
      ST_ASSIGN_OR_RETURN(int32_t v, ReadInt("int"));
      return Value::Int32(v);
    }
    case Type::kLong: {
      ST_ASSIGN_OR_RETURN(int64_t v, ReadLong("long"));
      return Value::Int64(v);
    }
    case Type::kFloat: {
      ST_ASSIGN_OR_RETURN(std::string_view b, ReadFixed(4, "float"));
      float f;
      std::memcpy(&f, b.data(), 4);
      return Value::Float(f);
    }
    case Type::kDouble: {
      ST_ASSIGN_OR_RETURN(std::string_view b, ReadFixed(8, "double"));
      double d;
      std::memcpy(&d, b.data(), 8);
      return Value::Double(d);
    }
    case Type::kBytes: {
      ST_ASSIGN_OR_RETURN(std::string_view b, ReadBytes("bytes"));
      if (node.is_decimal) return DecimalFromBytes(b, *this);
      return Value::Binary(std::string(b));
    }
    case Type::kString: {
      ST_ASSIGN_OR_RETURN(std::string_view b, ReadBytes("string"));
      return Value::String(std::string(b));
    }
    case Type::kFixed: {
      ST_ASSIGN_OR_RETURN(std::string_view b,
                          ReadFixed(static_cast<size_t>(node.fixed_size), "fixed"));
      if (node.is_decimal) return DecimalFromBytes(b, *this);
      return Value::Binary(std::string(b));
    }
    case Type::kEnum: {
      ST_ASSIGN_OR_RETURN(int64_t index, ReadLong("enum index"));
      if (index < 0 || static_cast<uint64_t>(index) >= node.symbols.size()) {
        return Err(Corrupt("enum index " + std::to_string(index) + " out of range for '" +
                           node.full_name + "'"));
      }
      return Value::String(node.symbols[static_cast<size_t>(index)]);
    }
    case Type::kUnion: {
      ST_ASSIGN_OR_RETURN(int64_t index, ReadLong("union branch index"));
      if (index < 0 || static_cast<uint64_t>(index) >= node.branches.size()) {
        return Err(Corrupt("union branch index " + std::to_string(index) + " out of range (" +
                           std::to_string(node.branches.size()) + " branches)"));
      }
      return Read(node.branches[static_cast<size_t>(index)]->Resolve(), depth + 1);
    }
    case Type::kRecord: {
      Value::Struct fields;
      fields.reserve(node.fields.size());
      for (const Field& field : node.fields) {
        ST_ASSIGN_OR_RETURN(Value v, Read(field.type->Resolve(), depth + 1));
        fields.push_back(std::move(v));
      }
      return Value::MakeStruct(std::move(fields));
    }
    case Type::kArray:
      return ReadArray(node, depth);
    case Type::kMap:
      return ReadMap(node, depth);
    case Type::kReference:
      return Read(node.Resolve(), depth);
  }
  return Err(Internal("avro: unknown schema node type"));
}

Result<Value> BinaryReader::ReadValue(const Node& node) {
  zero_width_left_ = limits_.max_zero_width_items;
  return Read(node.Resolve(), 0);
}

}  // namespace internal

Result<Value> Decode(const Schema& schema, std::string_view data, size_t* offset,
                     const DecodeLimits& limits) {
  if (*offset > data.size()) return Err(InvalidArgument("avro: decode offset past the end"));
  internal::BinaryReader reader(data.substr(*offset), static_cast<int64_t>(*offset), limits);
  ST_ASSIGN_OR_RETURN(Value v, reader.ReadValue(schema.root()));
  *offset += reader.position();
  return v;
}

}  // namespace st::avro
