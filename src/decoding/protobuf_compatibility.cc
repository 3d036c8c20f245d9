#include "decoding/protobuf_compatibility.h"

#include <map>
#include <set>
#include <utility>

#include "decoding/protobuf_descriptor_internal.h"

namespace st::decoding {

namespace {

constexpr size_t kMaxMessages = 16;

// Scalars that read each other's wire values (the Protobuf language guide's
// "Updating A Message Type"); enums and messages are their own kinds.
enum class WireGroup : uint8_t {
  kVarint,
  kZigzag,
  kFixed32,
  kFixed64,
  kLengthDelimited,
  kFloat,
  kDouble,
  kEnum,
  kMessage
};

WireGroup GroupOf(ProtoKind kind) {
  switch (kind) {
    case ProtoKind::kInt32:
    case ProtoKind::kUint32:
    case ProtoKind::kInt64:
    case ProtoKind::kUint64:
    case ProtoKind::kBool:
      return WireGroup::kVarint;
    case ProtoKind::kSint32:
    case ProtoKind::kSint64:
      return WireGroup::kZigzag;
    case ProtoKind::kFixed32:
    case ProtoKind::kSfixed32:
      return WireGroup::kFixed32;
    case ProtoKind::kFixed64:
    case ProtoKind::kSfixed64:
      return WireGroup::kFixed64;
    case ProtoKind::kString:
    case ProtoKind::kBytes:
      return WireGroup::kLengthDelimited;
    case ProtoKind::kFloat:
      return WireGroup::kFloat;
    case ProtoKind::kDouble:
      return WireGroup::kDouble;
    case ProtoKind::kEnum:
      return WireGroup::kEnum;
    default:
      return WireGroup::kMessage;
  }
}

const char* CardinalityName(ProtoCardinality cardinality) {
  switch (cardinality) {
    case ProtoCardinality::kRepeated:
      return "repeated";
    case ProtoCardinality::kMap:
      return "map";
    default:
      return "singular";
  }
}

std::string TypeText(const ProtoOutlineField& field) {
  return field.type_name.empty() ? ProtoKindName(field.kind) : field.type_name;
}

class OutlineComparer {
 public:
  std::vector<std::string> messages;

  void Compare(const ProtoOutline& reader, const ProtoOutline& writer) {
    if (reader.package != writer.package) {
      Add("PACKAGE_CHANGED, the reader's package is '" + reader.package + "', the writer's '" +
          writer.package + "'");
    }
    for (const std::string& name : writer.top_level) {
      if (!reader.messages.contains(name)) {
        Add("MESSAGE_REMOVED, message " + name + " of the writer is missing from the reader");
      }
    }
    for (const auto& [name, written] : writer.messages) {
      auto read = reader.messages.find(name);
      if (read != reader.messages.end()) CompareMessage(name, read->second, written);
    }
  }

 private:
  void Add(std::string message) {
    if (messages.size() < kMaxMessages) messages.push_back(std::move(message));
  }

  static std::string Where(const std::string& message, const ProtoOutlineField& field) {
    return " at " + message + "." + field.name + " (" + std::to_string(field.number) + ")";
  }

  void CompareMessage(const std::string& name, const ProtoOutlineMessage& reader,
                      const ProtoOutlineMessage& writer) {
    std::map<int32_t, const ProtoOutlineField*> read_by_number;
    for (const ProtoOutlineField& f : reader.fields) read_by_number.emplace(f.number, &f);
    std::set<int32_t> written_numbers;
    std::set<std::string> writer_oneofs;
    for (const ProtoOutlineField& f : writer.fields) {
      written_numbers.insert(f.number);
      if (!f.oneof.empty()) writer_oneofs.insert(f.oneof);
    }
    std::map<std::string, int> moved_into_new_oneof;
    for (const ProtoOutlineField& w : writer.fields) {
      auto found = read_by_number.find(w.number);
      if (found == read_by_number.end()) {
        if (w.required) {
          Add("REQUIRED_FIELD_REMOVED" + Where(name, w) +
              ": the writer's required field is missing from the reader");
        }
        continue;
      }
      const ProtoOutlineField& r = *found->second;
      CompareField(name, r, w);
      if (!r.oneof.empty() && w.oneof.empty()) {
        if (writer_oneofs.contains(r.oneof)) {
          Add("FIELD_MOVED_TO_EXISTING_ONEOF" + Where(name, r) + ": moved into oneof " + r.oneof +
              ", which the writer already had");
        } else {
          ++moved_into_new_oneof[r.oneof];
        }
      }
    }
    for (const auto& [oneof, count] : moved_into_new_oneof) {
      if (count > 1) {
        Add("MULTIPLE_FIELDS_MOVED_TO_ONEOF at " + name + ": " + std::to_string(count) +
            " of the writer's fields are in the reader's new oneof " + oneof);
      }
    }
    for (const ProtoOutlineField& r : reader.fields) {
      if (r.required && !written_numbers.contains(r.number)) {
        Add("REQUIRED_FIELD_ADDED" + Where(name, r) +
            ": the reader requires a field the writer does not have");
      }
    }
  }

  void CompareField(const std::string& name, const ProtoOutlineField& r,
                    const ProtoOutlineField& w) {
    if (r.cardinality != w.cardinality) {
      Add("FIELD_KIND_CHANGED" + Where(name, r) + ": the writer's field is " +
          CardinalityName(w.cardinality) + ", the reader's " + CardinalityName(r.cardinality));
      return;
    }
    const WireGroup rg = GroupOf(r.kind);
    const WireGroup wg = GroupOf(w.kind);
    const bool r_named = rg == WireGroup::kEnum || rg == WireGroup::kMessage;
    const bool w_named = wg == WireGroup::kEnum || wg == WireGroup::kMessage;
    if (rg != wg) {
      Add(std::string(r_named || w_named ? "FIELD_KIND_CHANGED" : "FIELD_SCALAR_KIND_CHANGED") +
          Where(name, r) + ": the writer's " + TypeText(w) + " cannot be read as the reader's " +
          TypeText(r));
    } else if (r_named && r.type_name != w.type_name) {
      Add("FIELD_NAMED_TYPE_CHANGED" + Where(name, r) + ": the writer's " + TypeText(w) +
          ", the reader's " + TypeText(r));
    }
    if (r.required && !w.required) {
      Add("REQUIRED_FIELD_ADDED" + Where(name, r) +
          ": the reader requires a field the writer may omit");
    }
  }
};

}  // namespace

Result<std::vector<std::string>> ProtobufReadIncompatibilities(const WriterSchema& reader,
                                                               const WriterSchema& writer) {
  ST_ASSIGN_OR_RETURN(ProtoOutline r, OutlineProtoSchema(reader));
  ST_ASSIGN_OR_RETURN(ProtoOutline w, OutlineProtoSchema(writer));
  OutlineComparer comparer;
  comparer.Compare(r, w);
  return std::move(comparer.messages);
}

Status ValidateProtobufSchema(const WriterSchema& schema) {
  Result<ProtoOutline> outline = OutlineProtoSchema(schema);
  return outline.has_value() ? Status::OK() : outline.error();
}

}  // namespace st::decoding
