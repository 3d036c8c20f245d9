// Every length and count is checked against the bytes that remain before it
// is used; nothing is allocated from a length field (values are appended to
// the column buffers as they are read), so hostile input ends as a
// RecordError.
#include <simdjson.h>

#include <bit>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_set>

#include "decoding/avro_shredder_internal.h"
#include "decoding/text_scalars_internal.h"
#include "decoding/typed_values_internal.h"

namespace st::decoding {

static_assert(std::endian::native == std::endian::little, "Avro floats are little-endian");

class AvroShredder::Walker {
 public:
  Walker(AvroShredder& owner, std::string_view data, ColumnBuffers& out, RecordError* error)
      : owner_(owner),
        p_(reinterpret_cast<const uint8_t*>(data.data())),
        end_(p_ + data.size()),
        out_(out),
        error_(error) {}

  bool Root(const AvroStep& root) { return At(root, owner_.plan_.root, 0); }

  bool At(const AvroStep& step, const ShredNode& node, int depth) {
    if (!Decode(step, node, 0, depth)) return false;
    if (p_ != end_) {
      return Fail(kMalformedAvro, std::to_string(end_ - p_) +
                                      " bytes follow the Avro value; the payload does not match "
                                      "its writer schema");
    }
    return true;
  }

 private:
  bool Fail(std::string_view code, std::string message) {
    error_->code = std::string(code);
    error_->message = std::move(message);
    return false;
  }

  static std::string Where(const ShredNode& node) {
    return node.path.empty() ? std::string("the record") : "field " + node.path;
  }

  bool Truncated(const ShredNode& node) {
    return Fail(kTruncatedPayload, "Avro payload ends inside " + Where(node));
  }

  bool Malformed(const ShredNode& node, const std::string& what) {
    return Fail(kMalformedAvro,
                "Avro payload does not match its writer schema at " + Where(node) + ": " + what);
  }

  bool ReadLong(const ShredNode& node, int64_t* out) {
    if (p_ < end_ && (*p_ & 0x80) == 0) {  // One byte: most counts, indexes, small values.
      const uint64_t b = *p_++;
      *out = static_cast<int64_t>((b >> 1) ^ (~(b & 1) + 1));
      return true;
    }
    uint64_t acc = 0;
    for (int i = 0; i < 10; ++i) {
      if (p_ >= end_) return Truncated(node);
      const uint8_t b = *p_++;
      if (i == 9 && (b & 0xFE) != 0) return Malformed(node, "a varint longer than 64 bits");
      acc |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        *out = static_cast<int64_t>((acc >> 1) ^ (~(acc & 1) + 1));
        return true;
      }
    }
    return Malformed(node, "a varint longer than 64 bits");
  }

  bool ReadInt(const ShredNode& node, int32_t* out) {
    int64_t v = 0;
    if (!ReadLong(node, &v)) return false;
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      return Malformed(node, "int " + std::to_string(v) + " outside 32 bits");
    }
    *out = static_cast<int32_t>(v);
    return true;
  }

  // A length-prefixed byte string, viewed in place.
  bool ReadBytes(const ShredNode& node, std::string_view* out) {
    int64_t length = 0;
    if (!ReadLong(node, &length)) return false;
    if (length < 0) return Malformed(node, "negative length " + std::to_string(length));
    if (static_cast<uint64_t>(length) > static_cast<uint64_t>(end_ - p_)) {
      return Malformed(node, "length " + std::to_string(length) + " runs past the end (" +
                                 std::to_string(end_ - p_) + " bytes left)");
    }
    *out = std::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(length));
    p_ += length;
    return true;
  }

  bool ReadString(const ShredNode& node, std::string_view* out) {
    if (!ReadBytes(node, out)) return false;
    if (!simdjson::validate_utf8(out->data(), out->size())) {
      return Malformed(node, "a string that is not valid UTF-8");
    }
    return true;
  }

  bool ReadFixed(const ShredNode& node, size_t size, std::string_view* out) {
    if (size > static_cast<size_t>(end_ - p_)) return Truncated(node);
    *out = std::string_view(reinterpret_cast<const char*>(p_), size);
    p_ += size;
    return true;
  }

  // A block item count (Avro arrays and maps), bounded by the bytes left or
  // the zero-width budget. 0 ends the array or map.
  bool ReadBlockCount(const ShredNode& node, int64_t min_item_bytes, int64_t* count) {
    if (!ReadLong(node, count)) return false;
    if (*count < 0) {
      if (*count == std::numeric_limits<int64_t>::min()) return Malformed(node, "a block count");
      *count = -*count;
      int64_t size = 0;
      if (!ReadLong(node, &size)) return false;
      if (size < 0 || size > end_ - p_) return Malformed(node, "a block byte size past the end");
    }
    if (min_item_bytes > 0) {
      if (*count > (end_ - p_) / min_item_bytes) {
        return Malformed(node, std::to_string(*count) + " items cannot fit the " +
                                   std::to_string(end_ - p_) + " bytes left");
      }
    } else {
      if (*count > zero_width_left_) {
        return Fail(kRecordTooLarge, "Avro payload at " + Where(node) + " holds more than " +
                                         std::to_string(kMaxAvroZeroWidthItems) +
                                         " items that take no bytes");
      }
      zero_width_left_ -= *count;
    }
    return true;
  }

  bool TooDeep(const ShredNode& node) {
    return Fail(kNestingTooDeep, "Avro value nests records/arrays/maps deeper than " +
                                     std::to_string(kMaxAvroNesting) + " levels (at " +
                                     Where(node) + ")");
  }

  void EmitNulls(const ShredNode& node, int16_t def, int16_t rep) {
    PushNulls(node, def, rep, out_);
  }

  bool Missing(const ShredNode& node, int16_t rep) { return PushMissing(node, rep, out_, error_); }

  bool Decode(const AvroStep& step, const ShredNode& node, int16_t rep, int depth) {
    switch (step.op) {
      case AvroOp::kNull:
        return Missing(node, rep);
      case AvroOp::kSkip:
        return Skip(*step.writer, node, depth);
      case AvroOp::kMismatch:
        return Fail(kTypeMismatch, step.mismatch);
      case AvroOp::kRecord: {
        if (depth + 1 > kMaxAvroNesting) return TooDeep(node);
        for (const AvroStep& child : step.children) {
          if (child.op == AvroOp::kSkip) {
            if (!Skip(*child.writer, node, depth + 1)) return false;
          } else if (!Decode(child, node.children[child.target], rep, depth + 1)) {
            return false;
          }
        }
        for (int m : step.missing) {
          if (!Missing(node.children[m], rep)) return false;
        }
        return true;
      }
      case AvroOp::kArray:
        return Array(step, node, rep, depth);
      case AvroOp::kMap:
        return Map(step, node, rep, depth);
      case AvroOp::kUnion: {
        int64_t index = 0;
        if (!ReadLong(node, &index)) return false;
        if (index < 0 || index >= static_cast<int64_t>(step.children.size())) {
          return Malformed(node, "union branch " + std::to_string(index) + " of " +
                                     std::to_string(step.children.size()));
        }
        return Decode(step.children[index], node, rep, depth);
      }
      case AvroOp::kUnionStruct: {
        int64_t index = 0;
        if (!ReadLong(node, &index)) return false;
        if (index < 0 || index >= static_cast<int64_t>(step.children.size())) {
          return Malformed(node, "union branch " + std::to_string(index) + " of " +
                                     std::to_string(step.children.size()));
        }
        const AvroStep& branch = step.children[index];
        if (branch.op == AvroOp::kNull || branch.op == AvroOp::kMismatch) {
          return Decode(branch, node, rep, depth);
        }
        if (depth + 1 > kMaxAvroNesting) return TooDeep(node);
        for (size_t m = 0; m < node.children.size(); ++m) {
          if (static_cast<int>(m) == branch.target) {
            if (!Decode(branch, node.children[m], rep, depth + 1)) return false;
          } else if (!Missing(node.children[m], rep)) {
            return false;
          }
        }
        return true;
      }
      default:
        break;
    }
    if (!Primitive(step, node, rep)) return false;
    if (node.partition_slot >= 0) {
      owner_.partition_values_[node.partition_slot] = LastValue(node, out_.column(node.column));
    }
    return true;
  }

  bool Array(const AvroStep& step, const ShredNode& node, int16_t rep, int depth) {
    if (depth + 1 > kMaxAvroNesting) return TooDeep(node);
    const AvroStep& items = step.children[0];
    const ShredNode& element = node.children[0];
    const int64_t min_bytes = step.writer->items->min_encoded_bytes;
    bool first = true;
    while (true) {
      int64_t count = 0;
      if (!ReadBlockCount(node, min_bytes, &count)) return false;
      if (count == 0) break;
      for (int64_t i = 0; i < count; ++i) {
        if (!Decode(items, element, first ? rep : node.repeated_level, depth + 1)) return false;
        first = false;
      }
    }
    if (first) EmitNulls(node, node.def_level, rep);  // Empty list.
    return true;
  }

  bool Map(const AvroStep& step, const ShredNode& node, int16_t rep, int depth) {
    if (depth + 1 > kMaxAvroNesting) return TooDeep(node);
    const AvroStep& values = step.children[0];
    const ShredNode& key_node = node.children[0];
    const ShredNode& value_node = node.children[1];
    const int64_t min_bytes = 1 + step.writer->values->min_encoded_bytes;  // Key length byte.
    // Readers reject maps with duplicate keys; keys are views into the payload.
    constexpr size_t kScanKeys = 16;
    std::string_view few_keys[kScanKeys];
    size_t key_count = 0;
    std::unordered_set<std::string_view> many_keys;
    bool first = true;
    while (true) {
      int64_t count = 0;
      if (!ReadBlockCount(node, min_bytes, &count)) return false;
      if (count == 0) break;
      for (int64_t i = 0; i < count; ++i) {
        std::string_view key;
        if (!ReadString(key_node, &key)) return false;
        bool duplicate = false;
        if (key_count < kScanKeys) {
          for (size_t k = 0; k < key_count; ++k) duplicate |= few_keys[k] == key;
          few_keys[key_count] = key;
        } else {
          if (key_count == kScanKeys) many_keys.insert(few_keys, few_keys + kScanKeys);
          duplicate = !many_keys.insert(key).second;
        }
        ++key_count;
        if (duplicate) {
          return Malformed(node, "the key \"" + std::string(key.substr(0, 40)) + "\" twice");
        }
        const int16_t entry_rep = first ? rep : node.repeated_level;
        ColumnBuffer& keys = out_.column(key_node.column);
        keys.PushLevels(key_node.def_level, entry_rep);
        keys.arena.append(key);
        keys.EndBytes();
        if (!Decode(values, value_node, entry_rep, depth + 1)) return false;
        first = false;
      }
    }
    if (first) EmitNulls(node, node.def_level, rep);  // Empty map.
    return true;
  }

  bool Primitive(const AvroStep& step, const ShredNode& node, int16_t rep) {
    ColumnBuffer& c = out_.column(node.column);
    const int16_t def = node.def_level;
    switch (step.op) {
      case AvroOp::kBool: {
        if (p_ >= end_) return Truncated(node);
        const uint8_t b = *p_++;
        if (b > 1) return Malformed(node, "boolean byte " + std::to_string(b));
        c.PushLevels(def, rep);
        c.bools.push_back(b);
        return true;
      }
      case AvroOp::kIntToInt:
      case AvroOp::kIntToLong:
      case AvroOp::kIntToFloat:
      case AvroOp::kIntToDouble:
      case AvroOp::kTimeMillis: {
        int32_t v = 0;
        if (!ReadInt(node, &v)) return false;
        c.PushLevels(def, rep);
        if (step.op == AvroOp::kIntToInt) {
          c.i32.push_back(v);
        } else if (step.op == AvroOp::kIntToLong) {
          c.i64.push_back(v);
        } else if (step.op == AvroOp::kTimeMillis) {
          c.i64.push_back(int64_t{v} * 1000);
        } else if (step.op == AvroOp::kIntToFloat) {
          c.f32.push_back(static_cast<float>(v));
        } else {
          c.f64.push_back(v);
        }
        return true;
      }
      case AvroOp::kLong:
      case AvroOp::kLongToFloat:
      case AvroOp::kLongToDouble:
      case AvroOp::kMillisToMicros: {
        int64_t v = 0;
        if (!ReadLong(node, &v)) return false;
        if (step.op == AvroOp::kMillisToMicros) {
          constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 1000;
          if (v > kLimit || v < -kLimit) {
            return Fail(kTypeMismatch, "field " + node.path + ": timestamp-millis " +
                                           std::to_string(v) + " is outside the µs range");
          }
          v *= 1000;
        }
        c.PushLevels(def, rep);
        if (step.op == AvroOp::kLongToFloat) {
          c.f32.push_back(static_cast<float>(v));
        } else if (step.op == AvroOp::kLongToDouble) {
          c.f64.push_back(static_cast<double>(v));
        } else {
          c.i64.push_back(v);
        }
        return true;
      }
      case AvroOp::kFloat:
      case AvroOp::kFloatToDouble: {
        std::string_view raw;
        if (!ReadFixed(node, 4, &raw)) return false;
        float f = 0;
        std::memcpy(&f, raw.data(), 4);
        c.PushLevels(def, rep);
        if (step.op == AvroOp::kFloat) {
          c.f32.push_back(f);
        } else {
          c.f64.push_back(f);
        }
        return true;
      }
      case AvroOp::kDouble: {
        std::string_view raw;
        if (!ReadFixed(node, 8, &raw)) return false;
        double d = 0;
        std::memcpy(&d, raw.data(), 8);
        c.PushLevels(def, rep);
        c.f64.push_back(d);
        return true;
      }
      case AvroOp::kString:
      case AvroOp::kBytesToString:
      case AvroOp::kBytes: {
        std::string_view bytes;
        if (!(step.op == AvroOp::kBytes ? ReadBytes(node, &bytes) : ReadString(node, &bytes))) {
          return false;
        }
        c.PushLevels(def, rep);
        c.arena.append(bytes);
        c.EndBytes();
        return true;
      }
      case AvroOp::kStringUuid: {
        std::string_view text;
        if (!ReadString(node, &text)) return false;
        if (!ParseUuidText(text, &c.arena)) {
          return Fail(kTypeMismatch, "field " + node.path + " must be a canonical UUID; got " +
                                         QuoteForMessage(text));
        }
        c.PushLevels(def, rep);
        c.EndBytes();
        return true;
      }
      case AvroOp::kFixed: {
        std::string_view bytes;
        if (!ReadFixed(node, static_cast<size_t>(step.writer->fixed_size), &bytes)) return false;
        c.PushLevels(def, rep);
        c.arena.append(bytes);
        c.EndBytes();
        return true;
      }
      case AvroOp::kDecimalBytes:
      case AvroOp::kDecimalFixed: {
        std::string_view bytes;
        if (step.op == AvroOp::kDecimalBytes) {
          if (!ReadBytes(node, &bytes)) return false;
        } else if (!ReadFixed(node, static_cast<size_t>(step.writer->fixed_size), &bytes)) {
          return false;
        }
        Int128 unscaled = 0;
        if (!Unscaled(bytes, node.type->precision(), &unscaled)) {
          return Fail(kTypeMismatch, "field " + node.path +
                                         ": decimal value has more digits than " +
                                         node.type->ToString() + " allows");
        }
        PushDecimalUnscaled(node, unscaled, rep, c);
        return true;
      }
      case AvroOp::kEnum: {
        int64_t index = 0;
        if (!ReadLong(node, &index)) return false;
        const auto& symbols = step.writer->symbols;
        if (index < 0 || index >= static_cast<int64_t>(symbols.size())) {
          return Malformed(node, "enum index " + std::to_string(index) + " of " +
                                     std::to_string(symbols.size()) + " symbols");
        }
        c.PushLevels(def, rep);
        c.arena.append(symbols[index]);
        c.EndBytes();
        return true;
      }
      default:
        return Fail(kTypeMismatch, "internal: unexpected Avro step at " + Where(node));
    }
  }

  // Big-endian two's complement → Int128, false when wider than 128 bits or
  // |value| >= 10^precision.
  static bool Unscaled(std::string_view bytes, int precision, Int128* out) {
    if (bytes.empty()) {
      *out = 0;
      return true;
    }
    const bool negative = (static_cast<uint8_t>(bytes[0]) & 0x80) != 0;
    const auto sign = static_cast<uint8_t>(negative ? 0xFF : 0x00);
    while (bytes.size() > 16) {
      if (static_cast<uint8_t>(bytes[0]) != sign) return false;
      bytes.remove_prefix(1);
    }
    if (((static_cast<uint8_t>(bytes[0]) & 0x80) != 0) != negative) return false;
    __extension__ using UInt128 = unsigned __int128;
    UInt128 acc = negative ? ~static_cast<UInt128>(0) : 0;
    for (char ch : bytes) acc = (acc << 8) | static_cast<uint8_t>(ch);
    const auto value = static_cast<Int128>(acc);
    Int128 limit = 1;
    for (int i = 0; i < precision; ++i) limit *= 10;
    if (value >= limit || value <= -limit) return false;
    *out = value;
    return true;
  }

  // Reads and drops one value of writer node `w` (resolved or not).
  bool Skip(const avro::Node& writer, const ShredNode& at, int depth) {
    const avro::Node& w = writer.Resolve();
    int64_t v = 0;
    std::string_view bytes;
    switch (w.type) {
      case avro::Type::kNull:
        return true;
      case avro::Type::kBoolean:
        if (p_ >= end_) return Truncated(at);
        if (*p_++ > 1) return Malformed(at, "a boolean byte other than 0 or 1");
        return true;
      case avro::Type::kInt:
      case avro::Type::kLong:
        return ReadLong(at, &v);
      case avro::Type::kEnum:
        if (!ReadLong(at, &v)) return false;
        if (v < 0 || v >= static_cast<int64_t>(w.symbols.size())) {
          return Malformed(at, "enum index " + std::to_string(v));
        }
        return true;
      case avro::Type::kFloat:
        return ReadFixed(at, 4, &bytes);
      case avro::Type::kDouble:
        return ReadFixed(at, 8, &bytes);
      case avro::Type::kBytes:
        return ReadBytes(at, &bytes);
      case avro::Type::kString:
        return ReadString(at, &bytes);
      case avro::Type::kFixed:
        return ReadFixed(at, static_cast<size_t>(w.fixed_size), &bytes);
      case avro::Type::kRecord:
        if (depth + 1 > kMaxAvroNesting) return TooDeep(at);
        for (const avro::Field& f : w.fields) {
          if (!Skip(*f.type, at, depth + 1)) return false;
        }
        return true;
      case avro::Type::kUnion:
        if (!ReadLong(at, &v)) return false;
        if (v < 0 || v >= static_cast<int64_t>(w.branches.size())) {
          return Malformed(at, "union branch " + std::to_string(v));
        }
        return Skip(*w.branches[v], at, depth);
      case avro::Type::kArray:
      case avro::Type::kMap: {
        if (depth + 1 > kMaxAvroNesting) return TooDeep(at);
        const bool is_map = w.type == avro::Type::kMap;
        const avro::Node& item = is_map ? *w.values : *w.items;
        const int64_t min_bytes = item.min_encoded_bytes + (is_map ? 1 : 0);
        while (true) {
          int64_t count = 0;
          if (!ReadBlockCount(at, min_bytes, &count)) return false;
          if (count == 0) return true;
          for (int64_t i = 0; i < count; ++i) {
            if (is_map && !ReadString(at, &bytes)) return false;
            if (!Skip(item, at, depth + 1)) return false;
          }
        }
      }
      case avro::Type::kReference:
        return Skip(w.Resolve(), at, depth);
    }
    return true;
  }

  AvroShredder& owner_;
  const uint8_t* p_;
  const uint8_t* end_;
  ColumnBuffers& out_;
  RecordError* error_;
  int64_t zero_width_left_ = kMaxAvroZeroWidthItems;
};

AvroShredder::AvroShredder(const ShredPlan& plan, int partition_slots)
    : plan_(plan), partition_values_(partition_slots) {}

bool AvroShredder::Shred(const AvroStep& root, std::string_view payload, ColumnBuffers& out,
                         RecordError* error) {
  std::fill(partition_values_.begin(), partition_values_.end(), Value());
  Walker walker(*this, payload, out, error);
  return walker.Root(root);
}

bool AvroShredder::ShredInto(const AvroStep& step, const ShredNode& node, std::string_view payload,
                             ColumnBuffers& out, RecordError* error) {
  Walker walker(*this, payload, out, error);
  return walker.At(step, node, 1);
}

}  // namespace st::decoding
