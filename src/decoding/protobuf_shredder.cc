// Hostile input: every varint is at most 10 bytes, every length is checked
// against the bytes left before it is used, nothing is allocated from a
// length, nesting (messages and unknown groups) is bounded, so bad bytes end
// as a RecordError.
#include <simdjson.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>

#include "decoding/protobuf_shredder_internal.h"
#include "decoding/typed_values_internal.h"

namespace st::decoding {

static_assert(std::endian::native == std::endian::little,
              "Protobuf fixed values are little-endian");

namespace {

constexpr uint8_t kWireVarint = 0;
constexpr uint8_t kWireFixed64 = 1;
constexpr uint8_t kWireLen = 2;
constexpr uint8_t kWireStartGroup = 3;
constexpr uint8_t kWireEndGroup = 4;
constexpr uint8_t kWireFixed32 = 5;

// The wire type one value of `kind` is sent with.
uint8_t ProtoNativeWire(ProtoKind kind) {
  if (ProtoKindIsVarint(kind)) return kWireVarint;
  if (ProtoKindIsFixed64(kind)) return kWireFixed64;
  if (ProtoKindIsFixed32(kind)) return kWireFixed32;
  return kWireLen;
}

// The value's 64 varint/fixed bits read as the kind's integer, widened to int64.
int64_t ProtoIntegerOf(ProtoKind kind, uint64_t bits) {
  switch (kind) {
    case ProtoKind::kInt32:
    case ProtoKind::kSfixed32:
    case ProtoKind::kEnum:
      return static_cast<int32_t>(static_cast<uint32_t>(bits));
    case ProtoKind::kSint32: {
      const auto u = static_cast<uint32_t>(bits);
      return static_cast<int32_t>((u >> 1) ^ (~(u & 1) + 1));
    }
    case ProtoKind::kUint32:
    case ProtoKind::kFixed32:
      return static_cast<uint32_t>(bits);
    case ProtoKind::kSint64:
      return static_cast<int64_t>((bits >> 1) ^ (~(bits & 1) + 1));
    default:  // int64, sfixed64, uint64 and fixed64 (≥ 2^63 wraps), bool.
      return static_cast<int64_t>(bits);
  }
}

}  // namespace

class ProtobufShredder::Walker {
 public:
  Walker(ProtobufShredder& owner, std::string_view data, ColumnBuffers& out, RecordError* error)
      : owner_(owner),
        base_(reinterpret_cast<const uint8_t*>(data.data())),
        end_(base_ + data.size()),
        out_(out),
        error_(error) {}

  bool Root(const ProtoPlan& proto) { return At(proto, owner_.plan_.root, 1); }

  bool At(const ProtoPlan& proto, const ShredNode& node, int depth) {
    const std::string_view all(reinterpret_cast<const char*>(base_),
                               static_cast<size_t>(end_ - base_));
    return Message(proto.root(), node, &all, 1, 0, depth);
  }

 private:
  using Entry = ProtobufShredder::Entry;

  bool Fail(std::string_view code, std::string message) {
    error_->code = std::string(code);
    error_->message = std::move(message);
    return false;
  }

  std::string At(const uint8_t* p) const { return " at offset " + std::to_string(p - base_); }

  bool Malformed(const uint8_t* p, const std::string& what) {
    return Fail(kMalformedProtobuf,
                "Protobuf payload does not match its writer schema" + At(p) + ": " + what);
  }

  bool TooDeep(const uint8_t* p) {
    return Fail(kNestingTooDeep, "Protobuf value nests messages deeper than " +
                                     std::to_string(kMaxProtobufNesting) + " levels" + At(p));
  }

  // A varint within [*p, end). False (MALFORMED_PROTOBUF) when it runs past
  // the end or beyond 10 bytes.
  bool Varint(const uint8_t** p, const uint8_t* end, uint64_t* out, const char* what) {
    const uint8_t* start = *p;
    uint64_t acc = 0;
    for (int i = 0; i < 10; ++i) {
      if (*p >= end) return Malformed(start, std::string("the payload ends inside ") + what);
      const uint8_t b = *(*p)++;
      if (i == 9 && (b & 0xFE) != 0) return Malformed(start, std::string("an overlong ") + what);
      acc |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        *out = acc;
        return true;
      }
    }
    return Malformed(start, std::string("an overlong ") + what);
  }

  // One field's value after its tag: reads it into `e` (value/data) and
  // advances *p. Groups are skipped (their bytes are not kept).
  bool ReadValue(const uint8_t** p, const uint8_t* end, uint64_t number, uint8_t wire, Entry* e,
                 int depth) {
    e->wire = wire;
    e->data = *p;
    switch (wire) {
      case kWireVarint:
        return Varint(p, end, &e->value, "a varint");
      case kWireFixed64:
        if (end - *p < 8)
          return Malformed(*p, "field " + std::to_string(number) + " needs 8 bytes");
        std::memcpy(&e->value, *p, 8);
        *p += 8;
        return true;
      case kWireFixed32: {
        if (end - *p < 4)
          return Malformed(*p, "field " + std::to_string(number) + " needs 4 bytes");
        uint32_t v = 0;
        std::memcpy(&v, *p, 4);
        e->value = v;
        *p += 4;
        return true;
      }
      case kWireLen: {
        const uint8_t* at = *p;
        if (!Varint(p, end, &e->value, "a length")) return false;
        if (e->value > static_cast<uint64_t>(end - *p)) {
          return Malformed(at, "field " + std::to_string(number) + " has length " +
                                   std::to_string(e->value) + ", past the end (" +
                                   std::to_string(end - *p) + " bytes left)");
        }
        e->data = *p;
        *p += e->value;
        return true;
      }
      case kWireStartGroup:
        return SkipGroup(p, end, number, depth + 1);
      default:
        return Malformed(*p, "field " + std::to_string(number) + " has wire type " +
                                 std::to_string(wire) + ", which does not exist");
    }
  }

  bool SkipGroup(const uint8_t** p, const uint8_t* end, uint64_t number, int depth) {
    if (depth > kMaxProtobufNesting) return TooDeep(*p);
    while (true) {
      if (*p >= end) return Malformed(*p, "group " + std::to_string(number) + " never ends");
      uint64_t tag = 0;
      if (!Varint(p, end, &tag, "a field tag")) return false;
      const auto wire = static_cast<uint8_t>(tag & 7);
      if (wire == kWireEndGroup) {
        if ((tag >> 3) != number) return Malformed(*p, "a group ends with the wrong number");
        return true;
      }
      Entry ignored;
      if (!ReadValue(p, end, tag >> 3, wire, &ignored, depth)) return false;
    }
  }

  // The next field of a message body in [*p, end): its number, wire type and
  // value. False (MALFORMED_PROTOBUF) for a bad tag or value.
  bool NextField(const uint8_t** p, const uint8_t* end, uint64_t* number, uint8_t* wire, Entry* e,
                 int depth) {
    const uint8_t* tag_at = *p;
    uint64_t tag = 0;
    if (!Varint(p, end, &tag, "a field tag")) return false;
    *number = tag >> 3;
    *wire = static_cast<uint8_t>(tag & 7);
    if (*number == 0 || *number > 536870911) {
      return Malformed(tag_at, "field number " + std::to_string(*number) + " is not valid");
    }
    if (*wire == kWireEndGroup) return Malformed(tag_at, "an end-group tag outside a group");
    return ReadValue(p, end, *number, *wire, e, depth);
  }

  // The fields of `plan`'s message in `span` → entries_ (those the table
  // takes; the others, and unknown fields, are skipped).
  bool Scan(const ProtoMessagePlan& plan, std::string_view span, int depth) {
    const auto* p = reinterpret_cast<const uint8_t*>(span.data());
    const uint8_t* end = p + span.size();
    while (p < end) {
      const uint8_t* tag_at = p;
      uint64_t number = 0;
      uint8_t wire = 0;
      Entry e;
      if (!NextField(&p, end, &number, &wire, &e, depth)) return false;
      const int slot = plan.Slot(number);
      if (slot < 0 || plan.fields[slot].target < 0) continue;
      const ProtoField& f = *plan.fields[slot].field;
      const ProtoKind kind = f.is_map ? ProtoKind::kMessage : f.kind;
      const uint8_t native = ProtoNativeWire(kind);
      const bool packed = f.repeated && !f.is_map && native != kWireLen && wire == kWireLen;
      if (wire != native && !packed) {
        return Malformed(tag_at, "field " + std::to_string(number) + " (" + f.name +
                                     ") has wire type " + std::to_string(wire) +
                                     "; its type is sent with wire type " + std::to_string(native));
      }
      e.slot = slot;
      owner_.entries_.push_back(e);
    }
    return true;
  }

  bool Message(const ProtoMessagePlan& plan, const ShredNode& node, const std::string_view* spans,
               size_t span_count, int16_t rep, int depth) {
    if (depth > kMaxProtobufNesting) {
      return TooDeep(reinterpret_cast<const uint8_t*>(spans[0].data()));
    }
    std::vector<Entry>& entries = owner_.entries_;
    const size_t base = entries.size();
    for (size_t s = 0; s < span_count; ++s) {
      if (!Scan(plan, spans[s], depth)) return false;
    }
    auto by_slot = [](const Entry& a, const Entry& b) { return a.slot < b.slot; };
    if (!std::is_sorted(entries.begin() + static_cast<ptrdiff_t>(base), entries.end(), by_slot)) {
      std::stable_sort(entries.begin() + static_cast<ptrdiff_t>(base), entries.end(), by_slot);
    }
    const size_t scanned_end = entries.size();
    size_t i = base;
    bool ok = true;
    for (size_t slot = 0; ok && slot < plan.fields.size(); ++slot) {
      const ProtoFieldPlan& fp = plan.fields[slot];
      size_t j = i;
      while (j < scanned_end && entries[j].slot == static_cast<int32_t>(slot)) ++j;
      if (fp.target >= 0) ok = Field(fp, node.children[fp.target], i, j - i, rep, depth);
      i = j;
    }
    for (size_t m = 0; ok && m < plan.missing.size(); ++m) {
      ok = PushMissing(node.children[plan.missing[m]], rep, out_, error_);
    }
    entries.resize(base);
    return ok;
  }

  // Field `fp` from entries_[first, first + count) (its occurrences).
  bool Field(const ProtoFieldPlan& fp, const ShredNode& node, size_t first, size_t count,
             int16_t rep, int depth) {
    const ProtoField& f = *fp.field;
    if (f.is_map) return Map(fp, node, first, count, rep, depth);
    if (f.repeated) return Repeated(fp, node, first, count, rep, depth);
    if (count == 0) return Absent(f, node, rep);
    return Single(f, fp.message, node, &owner_.entries_[first], count, rep, depth);
  }

  bool Absent(const ProtoField& f, const ShredNode& node, int16_t rep) {
    if (f.presence || f.kind == ProtoKind::kMessage || f.kind == ProtoKind::kTimestamp ||
        f.kind == ProtoKind::kWrapper) {
      return PushMissing(node, rep, out_, error_);
    }
    return Default(f.kind, f.enumeration, node, rep);
  }

  bool Default(ProtoKind kind, const ProtoEnum* enumeration, const ShredNode& node, int16_t rep) {
    if (kind == ProtoKind::kString || kind == ProtoKind::kBytes) {
      return Bytes(node, std::string_view(), rep);
    }
    if (kind == ProtoKind::kEnum) return EnumValue(enumeration, 0, node, rep);
    return Scalar(kind, 0, node, rep);
  }

  // A singular value from its occurrences `es` (count ≥ 1): the last wins,
  // messages merge. `es` may point into entries_: it is not used after a
  // nested Message call.
  bool Single(const ProtoField& f, const ProtoMessagePlan* sub, const ShredNode& node,
              const Entry* es, size_t count, int16_t rep, int depth) {
    const Entry& last = es[count - 1];
    switch (f.kind) {
      case ProtoKind::kMessage: {
        if (count == 1) {
          const std::string_view span(reinterpret_cast<const char*>(last.data), last.value);
          return Message(*sub, node, &span, 1, rep, depth + 1);
        }
        std::vector<std::string_view> spans;
        spans.reserve(count);
        for (size_t k = 0; k < count; ++k) {
          spans.emplace_back(reinterpret_cast<const char*>(es[k].data), es[k].value);
        }
        return Message(*sub, node, spans.data(), spans.size(), rep, depth + 1);
      }
      case ProtoKind::kTimestamp:
        return Timestamp(node, es, count, rep);
      case ProtoKind::kWrapper:
        return Wrapper(f.wrapped, node, es, count, rep);
      case ProtoKind::kString:
      case ProtoKind::kBytes:
        return StringOrBytes(f.kind, node, last, rep);
      case ProtoKind::kEnum:
        return EnumValue(f.enumeration, ProtoIntegerOf(ProtoKind::kEnum, last.value), node, rep);
      default:
        return Scalar(f.kind, last.value, node, rep);
    }
  }

  bool StringOrBytes(ProtoKind kind, const ShredNode& node, const Entry& e, int16_t rep) {
    const std::string_view bytes(reinterpret_cast<const char*>(e.data), e.value);
    if ((kind == ProtoKind::kString || node.type_id == iceberg::TypeId::kString) &&
        !simdjson::validate_utf8(bytes.data(), bytes.size())) {
      return Malformed(e.data, "field " + node.path + " is a string that is not valid UTF-8");
    }
    return Bytes(node, bytes, rep);
  }

  bool Bytes(const ShredNode& node, std::string_view bytes, int16_t rep) {
    ColumnBuffer& c = out_.column(node.column);
    c.PushLevels(node.def_level, rep);
    c.arena.append(bytes);
    c.EndBytes();
    return Partition(node, c);
  }

  bool EnumValue(const ProtoEnum* enumeration, int64_t number, const ShredNode& node, int16_t rep) {
    const std::string* name =
        enumeration == nullptr ? nullptr : enumeration->Find(static_cast<int32_t>(number));
    if (name != nullptr) return Bytes(node, *name, rep);
    return Bytes(node, std::to_string(number), rep);
  }

  // A numeric or bool scalar (its raw varint/fixed bits) into the node's column.
  bool Scalar(ProtoKind kind, uint64_t bits, const ShredNode& node, int16_t rep) {
    ColumnBuffer& c = out_.column(node.column);
    c.PushLevels(node.def_level, rep);
    if (kind == ProtoKind::kBool) {
      c.bools.push_back(bits != 0 ? 1 : 0);
    } else if (kind == ProtoKind::kFloat || kind == ProtoKind::kDouble) {
      double d = 0;
      if (kind == ProtoKind::kFloat) {
        const auto b32 = static_cast<uint32_t>(bits);
        float f = 0;
        std::memcpy(&f, &b32, 4);
        if (node.type_id == iceberg::TypeId::kFloat) {
          c.f32.push_back(f);
          return Partition(node, c);
        }
        d = f;
      } else {
        std::memcpy(&d, &bits, 8);
      }
      c.f64.push_back(d);
    } else {
      const int64_t v = ProtoIntegerOf(kind, bits);
      switch (node.type_id) {
        case iceberg::TypeId::kInt:
          c.i32.push_back(static_cast<int32_t>(v));
          break;
        case iceberg::TypeId::kFloat:
          c.f32.push_back(static_cast<float>(v));
          break;
        case iceberg::TypeId::kDouble:
          c.f64.push_back(static_cast<double>(v));
          break;
        default:
          c.i64.push_back(v);
          break;
      }
    }
    return Partition(node, c);
  }

  bool Partition(const ShredNode& node, const ColumnBuffer& c) {
    if (node.partition_slot >= 0)
      owner_.partition_values_[node.partition_slot] = LastValue(node, c);
    return true;
  }

  // The fields 1..2 of small well-known messages, across occurrences (merge,
  // last wins). `want[n]` is the wire type of field n.
  bool SmallFields(const Entry* es, size_t count, const uint8_t want[3], uint64_t bits[3],
                   bool seen[3]) {
    for (size_t k = 0; k < count; ++k) {
      const uint8_t* p = es[k].data;
      const uint8_t* end = p + es[k].value;
      while (p < end) {
        const uint8_t* tag_at = p;
        uint64_t number = 0;
        uint8_t wire = 0;
        Entry e;
        if (!NextField(&p, end, &number, &wire, &e, 1)) return false;
        if (number > 2) continue;
        if (wire != want[number]) {
          return Malformed(tag_at, "field " + std::to_string(number) + " has wire type " +
                                       std::to_string(wire) + "; expected " +
                                       std::to_string(want[number]));
        }
        bits[number] = wire == kWireLen ? static_cast<uint64_t>(e.data - base_) : e.value;
        if (wire == kWireLen) last_len_ = e.value;
        seen[number] = true;
      }
    }
    return true;
  }

  bool Timestamp(const ShredNode& node, const Entry* es, size_t count, int16_t rep) {
    const uint8_t want[3] = {0, kWireVarint, kWireVarint};
    uint64_t bits[3] = {0, 0, 0};
    bool seen[3] = {false, false, false};
    if (!SmallFields(es, count, want, bits, seen)) return false;
    const auto seconds = static_cast<int64_t>(bits[1]);
    const auto nanos = static_cast<int32_t>(static_cast<uint32_t>(bits[2]));
    constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 1000000 - 1;
    if (seconds > kLimit || seconds < -kLimit || nanos < 0 || nanos > 999999999) {
      return Fail(kTypeMismatch, "field " + node.path + ": Timestamp " + std::to_string(seconds) +
                                     "s " + std::to_string(nanos) +
                                     "ns is outside the µs range or not normalized");
    }
    ColumnBuffer& c = out_.column(node.column);
    c.PushLevels(node.def_level, rep);
    c.i64.push_back(seconds * 1000000 + nanos / 1000);
    return Partition(node, c);
  }

  bool Wrapper(ProtoKind kind, const ShredNode& node, const Entry* es, size_t count, int16_t rep) {
    const uint8_t want[3] = {0, ProtoNativeWire(kind), 0};
    uint64_t bits[3] = {0, 0, 0};
    bool seen[3] = {false, false, false};
    if (!SmallFields(es, count, want, bits, seen)) return false;
    if (!seen[1]) return Default(kind, nullptr, node, rep);
    if (kind == ProtoKind::kString || kind == ProtoKind::kBytes) {
      Entry e;
      e.data = base_ + bits[1];
      e.value = last_len_;
      return StringOrBytes(kind, node, e, rep);
    }
    return Scalar(kind, bits[1], node, rep);
  }

  bool Repeated(const ProtoFieldPlan& fp, const ShredNode& node, size_t first, size_t count,
                int16_t rep, int depth) {
    const ProtoField& f = *fp.field;
    const ShredNode& element = node.children[0];
    bool any = false;
    if (f.kind == ProtoKind::kMessage) {
      if (depth + 1 > kMaxProtobufNesting) return TooDeep(owner_.entries_[first].data);
      for (size_t k = 0; k < count; ++k) {
        const Entry e = owner_.entries_[first + k];  // Copy: Message grows entries_.
        const std::string_view span(reinterpret_cast<const char*>(e.data), e.value);
        if (!Message(*fp.message, element, &span, 1, any ? node.repeated_level : rep, depth + 1)) {
          return false;
        }
        any = true;
      }
    } else {
      const uint8_t native = ProtoNativeWire(f.kind);
      for (size_t k = 0; k < count; ++k) {
        const Entry e = owner_.entries_[first + k];
        if (e.wire == native) {
          if (!Single(f, nullptr, element, &e, 1, any ? node.repeated_level : rep, depth)) {
            return false;
          }
          any = true;
          continue;
        }
        // Packed: consecutive values without tags.
        const uint8_t* p = e.data;
        const uint8_t* end = p + e.value;
        const size_t width = native == kWireFixed64 ? 8 : native == kWireFixed32 ? 4 : 0;
        if (width != 0 && e.value % width != 0) {
          return Malformed(p, "packed field " + std::to_string(f.number) + " (" + f.name +
                                  ") has " + std::to_string(e.value) +
                                  " bytes, not a multiple of " + std::to_string(width));
        }
        while (p < end) {
          Entry v;
          v.wire = native;
          v.data = p;
          if (width == 0) {
            if (!Varint(&p, end, &v.value, "a packed varint")) return false;
          } else {
            v.value = 0;
            std::memcpy(&v.value, p, width);
            p += width;
          }
          if (!Single(f, nullptr, element, &v, 1, any ? node.repeated_level : rep, depth)) {
            return false;
          }
          any = true;
        }
      }
    }
    if (!any) PushNulls(node, node.def_level, rep, out_);  // Empty list.
    return true;
  }

  // A map key's text form (table keys are strings) into `slot`: string keys
  // stay in the payload, others are written to map_key_arena_.
  bool MapKey(const ProtoField& key, const Entry* e, MapSlot* slot) {
    if (e != nullptr && key.kind == ProtoKind::kString) {
      if (!simdjson::validate_utf8(reinterpret_cast<const char*>(e->data), e->value)) {
        return Malformed(e->data, "a map key that is not valid UTF-8");
      }
      slot->key_in_payload = true;
      slot->key_offset = static_cast<size_t>(e->data - base_);
      slot->key_len = static_cast<size_t>(e->value);
      return true;
    }
    std::string& arena = owner_.map_key_arena_;
    slot->key_in_payload = false;
    slot->key_offset = arena.size();
    if (key.kind == ProtoKind::kString) {
      // No key field: the empty string.
    } else if (key.kind == ProtoKind::kBool) {
      arena.append(e != nullptr && e->value != 0 ? "true" : "false");
    } else if (key.kind == ProtoKind::kUint64 || key.kind == ProtoKind::kFixed64) {
      arena.append(std::to_string(e == nullptr ? 0 : e->value));
    } else {
      arena.append(std::to_string(e == nullptr ? 0 : ProtoIntegerOf(key.kind, e->value)));
    }
    slot->key_len = arena.size() - slot->key_offset;
    return true;
  }

  // A slot's key; valid until map_key_arena_ grows.
  std::string_view KeyOf(const MapSlot& slot) const {
    const char* data =
        slot.key_in_payload ? reinterpret_cast<const char*>(base_) : owner_.map_key_arena_.data();
    return {data + slot.key_offset, slot.key_len};
  }

  bool Map(const ProtoFieldPlan& fp, const ShredNode& node, size_t first, size_t count, int16_t rep,
           int depth) {
    if (depth + 1 > kMaxProtobufNesting && count > 0) {
      return TooDeep(owner_.entries_[first].data);
    }
    const ProtoField* key_field = nullptr;
    const ProtoField* value_field = nullptr;
    for (const ProtoField& e : fp.field->message->fields) {
      if (e.number == 1) key_field = &e;
      if (e.number == 2) value_field = &e;
    }
    // Entries are parsed first into the owner's scratch (a stack: nested maps
    // push above and pop back), so no allocation per record once warm.
    std::vector<MapSlot>& slots = owner_.map_slots_;
    std::vector<Entry>& values = owner_.map_values_;
    const size_t slot_base = slots.size();
    const size_t value_base = values.size();
    const size_t arena_base = owner_.map_key_arena_.size();
    auto pop = [&] {
      slots.resize(slot_base);
      values.resize(value_base);
      owner_.map_key_arena_.resize(arena_base);
    };
    for (size_t k = 0; k < count; ++k) {
      const Entry e = owner_.entries_[first + k];
      const uint8_t* p = e.data;
      const uint8_t* end = p + e.value;
      std::optional<Entry> key;
      MapSlot slot;
      slot.value_begin = values.size();
      while (p < end) {
        const uint8_t* tag_at = p;
        uint64_t number = 0;
        uint8_t wire = 0;
        Entry v;
        if (!NextField(&p, end, &number, &wire, &v, depth + 1)) {
          pop();
          return false;
        }
        const ProtoField* f = number == 1 ? key_field : number == 2 ? value_field : nullptr;
        if (f == nullptr) continue;
        const uint8_t native = ProtoNativeWire(f->kind);
        if (wire != native) {
          pop();
          return Malformed(tag_at, "map " + fp.field->name + (number == 1 ? " key" : " value") +
                                       " has wire type " + std::to_string(wire) +
                                       "; its type is sent with wire type " +
                                       std::to_string(native));
        }
        if (number == 1) {
          key = v;
        } else {
          values.push_back(v);
        }
      }
      slot.value_count = values.size() - slot.value_begin;
      if (!MapKey(*key_field, key ? &*key : nullptr, &slot)) {
        pop();
        return false;
      }
      slots.push_back(slot);
    }
    // Duplicate keys: the last entry wins.
    if (count > 16) {
      std::unordered_map<std::string_view, size_t> last;
      for (size_t k = 0; k < count; ++k) last[KeyOf(slots[slot_base + k])] = k;
      for (size_t k = 0; k < count; ++k) {
        slots[slot_base + k].duplicate = last[KeyOf(slots[slot_base + k])] != k;
      }
    } else {
      for (size_t k = 0; k < count; ++k) {
        const std::string_view key = KeyOf(slots[slot_base + k]);
        for (size_t m = k + 1; m < count; ++m) {
          if (KeyOf(slots[slot_base + m]) == key) {
            slots[slot_base + k].duplicate = true;
            break;
          }
        }
      }
    }
    const ShredNode& key_node = node.children[0];
    const ShredNode& value_node = node.children[1];
    bool any = false;
    bool ok = true;
    for (size_t k = 0; ok && k < count; ++k) {
      const MapSlot slot = slots[slot_base + k];  // Copy: nested maps grow the scratch.
      if (slot.duplicate) continue;
      const int16_t entry_rep = any ? node.repeated_level : rep;
      any = true;
      ColumnBuffer& keys = out_.column(key_node.column);
      keys.PushLevels(key_node.def_level, entry_rep);
      keys.arena.append(KeyOf(slot));
      keys.EndBytes();
      if (slot.value_count == 0) {
        ok = Absent(*value_field, value_node, entry_rep);
      } else {
        ok = Single(*value_field, fp.message, value_node, &values[slot.value_begin],
                    slot.value_count, entry_rep, depth + 1);
      }
    }
    pop();
    if (!ok) return false;
    if (!any) PushNulls(node, node.def_level, rep, out_);  // Empty map.
    return true;
  }

  ProtobufShredder& owner_;
  const uint8_t* base_;
  const uint8_t* end_;
  ColumnBuffers& out_;
  RecordError* error_;
  uint64_t last_len_ = 0;
};

ProtobufShredder::ProtobufShredder(const ShredPlan& plan, int partition_slots)
    : plan_(plan), partition_values_(partition_slots) {}

bool ProtobufShredder::Shred(const ProtoPlan& proto, std::string_view payload, ColumnBuffers& out,
                             RecordError* error) {
  std::fill(partition_values_.begin(), partition_values_.end(), Value());
  entries_.clear();
  map_slots_.clear();
  map_values_.clear();
  map_key_arena_.clear();
  Walker walker(*this, payload, out, error);
  return walker.Root(proto);
}

bool ProtobufShredder::ShredInto(const ProtoPlan& proto, const ShredNode& node,
                                 std::string_view payload, ColumnBuffers& out, RecordError* error) {
  entries_.clear();
  map_slots_.clear();
  map_values_.clear();
  map_key_arena_.clear();
  Walker walker(*this, payload, out, error);
  return walker.At(proto, node, 2);
}

}  // namespace st::decoding
