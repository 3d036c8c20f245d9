// The only file that includes libprotobuf: `.proto` text (compiler::Parser)
// or a serialized FileDescriptorProto → a DescriptorPool → our model.
#include <google/protobuf/compiler/parser.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "common/base64.h"
#include "decoding/protobuf_descriptor_internal.h"
#include "decoding/protobuf_schema.h"

namespace st::decoding {

const char* ProtoKindName(ProtoKind kind) {
  switch (kind) {
    case ProtoKind::kInt32:
      return "int32";
    case ProtoKind::kSint32:
      return "sint32";
    case ProtoKind::kSfixed32:
      return "sfixed32";
    case ProtoKind::kUint32:
      return "uint32";
    case ProtoKind::kFixed32:
      return "fixed32";
    case ProtoKind::kInt64:
      return "int64";
    case ProtoKind::kSint64:
      return "sint64";
    case ProtoKind::kSfixed64:
      return "sfixed64";
    case ProtoKind::kUint64:
      return "uint64";
    case ProtoKind::kFixed64:
      return "fixed64";
    case ProtoKind::kFloat:
      return "float";
    case ProtoKind::kDouble:
      return "double";
    case ProtoKind::kBool:
      return "bool";
    case ProtoKind::kString:
      return "string";
    case ProtoKind::kBytes:
      return "bytes";
    case ProtoKind::kEnum:
      return "enum";
    case ProtoKind::kMessage:
      return "message";
    case ProtoKind::kTimestamp:
      return "google.protobuf.Timestamp";
    case ProtoKind::kWrapper:
      return "wrapper";
  }
  return "?";
}

namespace pb = google::protobuf;

const std::string* ProtoEnum::Find(int32_t number) const {
  auto it = std::lower_bound(values.begin(), values.end(), number,
                             [](const auto& v, int32_t n) { return v.first < n; });
  return it != values.end() && it->first == number ? &it->second : nullptr;
}

bool ProtoKindIsVarint(ProtoKind kind) {
  switch (kind) {
    case ProtoKind::kInt32:
    case ProtoKind::kSint32:
    case ProtoKind::kUint32:
    case ProtoKind::kInt64:
    case ProtoKind::kSint64:
    case ProtoKind::kUint64:
    case ProtoKind::kBool:
    case ProtoKind::kEnum:
      return true;
    default:
      return false;
  }
}

bool ProtoKindIsFixed64(ProtoKind kind) {
  return kind == ProtoKind::kFixed64 || kind == ProtoKind::kSfixed64 || kind == ProtoKind::kDouble;
}

bool ProtoKindIsFixed32(ProtoKind kind) {
  return kind == ProtoKind::kFixed32 || kind == ProtoKind::kSfixed32 || kind == ProtoKind::kFloat;
}

iceberg::TypeId ProtoKindTypeId(ProtoKind kind) {
  using iceberg::TypeId;
  switch (kind) {
    case ProtoKind::kInt32:
    case ProtoKind::kSint32:
    case ProtoKind::kSfixed32:
      return TypeId::kInt;
    case ProtoKind::kFloat:
      return TypeId::kFloat;
    case ProtoKind::kDouble:
      return TypeId::kDouble;
    case ProtoKind::kBool:
      return TypeId::kBoolean;
    case ProtoKind::kString:
    case ProtoKind::kEnum:
      return TypeId::kString;
    case ProtoKind::kBytes:
      return TypeId::kBinary;
    case ProtoKind::kTimestamp:
      return TypeId::kTimestampTz;
    case ProtoKind::kMessage:
    case ProtoKind::kWrapper:
      return TypeId::kStruct;
    default:  // uint32, fixed32 and the 64-bit integers.
      return TypeId::kLong;
  }
}

namespace {

constexpr int kMaxProtoImportDepth = 32;
constexpr int kMaxProtoMessageDepth = 64;

class ProtoTextErrors final : public pb::io::ErrorCollector {
 public:
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    if (first.empty()) {
      first =
          "line " + std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " + message;
    }
  }
  std::string first;
};

class ProtoPoolErrors final : public pb::DescriptorPool::ErrorCollector {
 public:
  void AddError(const std::string& filename, const std::string& element_name,
                const pb::Message* /*descriptor*/, ErrorLocation /*location*/,
                const std::string& message) override {
    if (first.empty()) first = filename + " (" + element_name + "): " + message;
  }
  std::string first;
};

// `.proto` text, or base64 of a serialized FileDescriptorProto.
Result<pb::FileDescriptorProto> ParseProtoFile(const std::string& name, const std::string& text) {
  pb::FileDescriptorProto file;
  const bool base64_chars = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '/' || c == '=';
  });
  std::string decoded;
  if (base64_chars && common::Base64DecodeAppend(text, &decoded) && file.ParseFromString(decoded)) {
    file.set_name(name);
    return file;
  }
  file.Clear();
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  ProtoTextErrors errors;
  pb::io::Tokenizer tokenizer(&input, &errors);
  pb::compiler::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (!parser.Parse(&tokenizer, &file) || !errors.first.empty()) {
    return Err(InvalidArgument(
        "the Protobuf schema " + name +
        " does not parse: " + (errors.first.empty() ? std::string("syntax error") : errors.first)));
  }
  file.set_name(name);
  return file;
}

class ProtoPoolBuilder {
 public:
  explicit ProtoPoolBuilder(const WriterSchema& writer) {
    for (const auto& [name, text] : writer.references) references_.emplace(name, &text);
  }

  Result<const pb::FileDescriptor*> Build(const pb::FileDescriptorProto& file, int depth) {
    if (depth > kMaxProtoImportDepth) {
      return Err(InvalidArgument("Protobuf imports nest deeper than " +
                                 std::to_string(kMaxProtoImportDepth) + " files"));
    }
    if (!building_.insert(file.name()).second) {
      return Err(InvalidArgument("Protobuf import cycle through " + file.name()));
    }
    for (const std::string& dependency : file.dependency()) {
      if (pool_.FindFileByName(dependency) != nullptr) continue;
      auto ref = references_.find(dependency);
      pb::FileDescriptorProto dep;
      if (ref != references_.end()) {
        ST_ASSIGN_OR_RETURN(dep, ParseProtoFile(dependency, *ref->second));
      } else if (const pb::FileDescriptor* known =
                     pb::DescriptorPool::generated_pool()->FindFileByName(dependency);
                 known != nullptr && dependency.starts_with("google/protobuf/")) {
        known->CopyTo(&dep);
      } else {
        return Err(InvalidArgument("the Protobuf schema imports " + dependency +
                                   ", which is neither a schema reference nor a well-known type"));
      }
      ST_TRY(Build(dep, depth + 1));
    }
    ProtoPoolErrors errors;
    const pb::FileDescriptor* built = pool_.BuildFileCollectingErrors(file, &errors);
    building_.erase(file.name());
    if (built == nullptr) {
      return Err(InvalidArgument("the Protobuf schema is not valid: " + errors.first));
    }
    return built;
  }

 private:
  pb::DescriptorPool pool_;
  std::map<std::string, const std::string*> references_;
  std::set<std::string> building_;
};

ProtoKind KindOf(const pb::FieldDescriptor& f) {
  switch (f.type()) {
    case pb::FieldDescriptor::TYPE_INT32:
      return ProtoKind::kInt32;
    case pb::FieldDescriptor::TYPE_SINT32:
      return ProtoKind::kSint32;
    case pb::FieldDescriptor::TYPE_SFIXED32:
      return ProtoKind::kSfixed32;
    case pb::FieldDescriptor::TYPE_UINT32:
      return ProtoKind::kUint32;
    case pb::FieldDescriptor::TYPE_FIXED32:
      return ProtoKind::kFixed32;
    case pb::FieldDescriptor::TYPE_INT64:
      return ProtoKind::kInt64;
    case pb::FieldDescriptor::TYPE_SINT64:
      return ProtoKind::kSint64;
    case pb::FieldDescriptor::TYPE_SFIXED64:
      return ProtoKind::kSfixed64;
    case pb::FieldDescriptor::TYPE_UINT64:
      return ProtoKind::kUint64;
    case pb::FieldDescriptor::TYPE_FIXED64:
      return ProtoKind::kFixed64;
    case pb::FieldDescriptor::TYPE_FLOAT:
      return ProtoKind::kFloat;
    case pb::FieldDescriptor::TYPE_DOUBLE:
      return ProtoKind::kDouble;
    case pb::FieldDescriptor::TYPE_BOOL:
      return ProtoKind::kBool;
    case pb::FieldDescriptor::TYPE_STRING:
      return ProtoKind::kString;
    case pb::FieldDescriptor::TYPE_BYTES:
      return ProtoKind::kBytes;
    case pb::FieldDescriptor::TYPE_ENUM:
      return ProtoKind::kEnum;
    default:
      return ProtoKind::kMessage;  // MESSAGE; GROUP is refused by the caller.
  }
}

class ProtoModelBuilder {
 public:
  explicit ProtoModelBuilder(ProtoSchema& out) : out_(out) {}

  // `depth`: message types nest at most kMaxProtoMessageDepth deep (a
  // hostile schema chains as many as its megabyte holds; the recursion here
  // must stay bounded).
  Result<const ProtoMessage*> Message(const pb::Descriptor& d, int depth) {
    if (auto it = messages_.find(&d); it != messages_.end()) return it->second;
    if (depth > kMaxProtoMessageDepth) {
      return Err(InvalidArgument("Protobuf message " + d.full_name() + " nests deeper than " +
                                 std::to_string(kMaxProtoMessageDepth) + " message levels"));
    }
    ProtoMessage& m = out_.messages.emplace_back();
    m.full_name = d.full_name();
    messages_.emplace(&d, &m);  // Before the fields: recursive messages end here.
    for (int i = 0; i < d.field_count(); ++i) {
      const pb::FieldDescriptor& f = *d.field(i);
      if (f.type() == pb::FieldDescriptor::TYPE_GROUP) {
        return Err(InvalidArgument("field " + f.full_name() + " is a proto2 group (unsupported)"));
      }
      ProtoField field;
      field.name = f.name();
      field.number = f.number();
      field.kind = KindOf(f);
      field.repeated = f.is_repeated();
      field.is_map = f.is_map();
      field.presence = f.has_presence() && !f.is_repeated();
      if (field.kind == ProtoKind::kEnum) field.enumeration = Enum(*f.enum_type());
      if (field.kind == ProtoKind::kMessage) {
        const pb::Descriptor& sub = *f.message_type();
        const std::string& name = sub.full_name();
        if (name == "google.protobuf.Timestamp") {
          field.kind = ProtoKind::kTimestamp;
        } else if (name.starts_with("google.protobuf.") && name.ends_with("Value") &&
                   sub.field_count() == 1 && sub.field(0)->number() == 1 &&
                   sub.field(0)->name() == "value" && !sub.field(0)->is_repeated() &&
                   sub.field(0)->type() != pb::FieldDescriptor::TYPE_MESSAGE &&
                   sub.field(0)->type() != pb::FieldDescriptor::TYPE_ENUM) {
          field.kind = ProtoKind::kWrapper;
          field.wrapped = KindOf(*sub.field(0));
        } else {
          ST_ASSIGN_OR_RETURN(field.message, Message(sub, depth + 1));
        }
      }
      m.fields.push_back(std::move(field));
    }
    return &m;
  }

 private:
  const ProtoEnum* Enum(const pb::EnumDescriptor& d) {
    if (auto it = enums_.find(&d); it != enums_.end()) return it->second;
    ProtoEnum& e = out_.enums.emplace_back();
    e.full_name = d.full_name();
    for (int i = 0; i < d.value_count(); ++i) {
      const int32_t n = d.value(i)->number();
      if (e.Find(n) != nullptr) continue;  // allow_alias: the first name.
      e.values.emplace_back(n, d.value(i)->name());
      std::sort(e.values.begin(), e.values.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    enums_.emplace(&d, &e);
    return &e;
  }

  ProtoSchema& out_;
  std::unordered_map<const pb::Descriptor*, const ProtoMessage*> messages_;
  std::unordered_map<const pb::EnumDescriptor*, const ProtoEnum*> enums_;
};

class ProtoOutlineBuilder {
 public:
  ProtoOutlineBuilder(ProtoOutline& out, std::string package)
      : out_(out), prefix_(package.empty() ? "" : package + ".") {
    out_.package = std::move(package);
  }

  std::string Relative(const std::string& full_name) const {
    return !prefix_.empty() && full_name.starts_with(prefix_) ? full_name.substr(prefix_.size())
                                                              : full_name;
  }

  // `depth`: nested message declarations, at most kMaxProtoMessageDepth.
  Status Message(const pb::Descriptor& d, int depth) {
    if (depth > kMaxProtoMessageDepth) {
      return InvalidArgument("Protobuf message " + d.full_name() + " nests deeper than " +
                             std::to_string(kMaxProtoMessageDepth) + " message levels");
    }
    ProtoOutlineMessage& m = out_.messages[Relative(d.full_name())];
    for (int i = 0; i < d.field_count(); ++i) {
      const pb::FieldDescriptor& f = *d.field(i);
      ProtoOutlineField field;
      field.name = f.name();
      field.number = f.number();
      field.kind = KindOf(f);
      if (f.message_type() != nullptr) field.type_name = Relative(f.message_type()->full_name());
      if (f.enum_type() != nullptr) field.type_name = Relative(f.enum_type()->full_name());
      field.cardinality = f.is_map()        ? ProtoCardinality::kMap
                          : f.is_repeated() ? ProtoCardinality::kRepeated
                                            : ProtoCardinality::kSingular;
      field.required = f.is_required();
      if (const pb::OneofDescriptor* oneof = f.real_containing_oneof(); oneof != nullptr) {
        field.oneof = oneof->name();
      }
      m.fields.push_back(std::move(field));
    }
    for (int i = 0; i < d.nested_type_count(); ++i) ST_TRY(Message(*d.nested_type(i), depth + 1));
    return Status::OK();
  }

 private:
  ProtoOutline& out_;
  std::string prefix_;
};

}  // namespace

Result<ProtoOutline> OutlineProtoSchema(const WriterSchema& writer) {
  try {
    ST_ASSIGN_OR_RETURN(pb::FileDescriptorProto root_file,
                        ParseProtoFile("schema.proto", writer.text));
    ProtoPoolBuilder pool(writer);
    ST_ASSIGN_OR_RETURN(const pb::FileDescriptor* file, pool.Build(root_file, 0));
    ProtoOutline out;
    ProtoOutlineBuilder builder(out, file->package());
    for (int i = 0; i < file->message_type_count(); ++i) {
      out.top_level.push_back(builder.Relative(file->message_type(i)->full_name()));
    }
    // The file and its imports (each once; the pool has refused cycles).
    std::vector<const pb::FileDescriptor*> pending{file};
    std::set<const pb::FileDescriptor*> seen{file};
    while (!pending.empty()) {
      const pb::FileDescriptor* next = pending.back();
      pending.pop_back();
      for (int i = 0; i < next->message_type_count(); ++i) {
        ST_TRY(builder.Message(*next->message_type(i), 1));
      }
      for (int i = 0; i < next->dependency_count(); ++i) {
        const pb::FileDescriptor* dep = next->dependency(i);
        if (dep->name().starts_with("google/protobuf/") || !seen.insert(dep).second) continue;
        pending.push_back(dep);
      }
    }
    return out;
  } catch (const std::exception& e) {
    return Err(InvalidArgument(std::string("the Protobuf schema could not be read: ") + e.what()));
  }
}

Result<std::unique_ptr<ProtoSchema>> ParseProtoSchema(const WriterSchema& writer,
                                                      const std::vector<int32_t>& message_indexes) {
  try {
    ST_ASSIGN_OR_RETURN(pb::FileDescriptorProto root_file,
                        ParseProtoFile("schema.proto", writer.text));
    ProtoPoolBuilder pool(writer);
    ST_ASSIGN_OR_RETURN(const pb::FileDescriptor* file, pool.Build(root_file, 0));
    std::vector<int32_t> path = message_indexes;
    if (path.empty()) path.push_back(0);
    const pb::Descriptor* d = nullptr;
    for (size_t i = 0; i < path.size(); ++i) {
      const int count = i == 0 ? file->message_type_count() : d->nested_type_count();
      if (path[i] < 0 || path[i] >= count) {
        std::string text;
        for (int32_t index : message_indexes)
          text += (text.empty() ? "" : ",") + std::to_string(index);
        return Err(NotFound("the message index [" + text + "] names no message of the schema"));
      }
      d = i == 0 ? file->message_type(path[i]) : d->nested_type(path[i]);
    }
    auto schema = std::make_unique<ProtoSchema>();
    ProtoModelBuilder builder(*schema);
    ST_ASSIGN_OR_RETURN(schema->root, builder.Message(*d, 1));
    return schema;
  } catch (const std::exception& e) {
    return Err(InvalidArgument(std::string("the Protobuf schema could not be read: ") + e.what()));
  }
}

Result<std::vector<int32_t>> GsrProtobufMessagePath(const WriterSchema& writer,
                                                    uint32_t message_index) {
  try {
    ST_ASSIGN_OR_RETURN(pb::FileDescriptorProto root_file,
                        ParseProtoFile("schema.proto", writer.text));
    ProtoPoolBuilder pool(writer);
    ST_ASSIGN_OR_RETURN(const pb::FileDescriptor* file, pool.Build(root_file, 0));
    // Every message type with its path; the order of the walk does not
    // matter, the sort below decides. libprotobuf's nested_type() lists map
    // entries as Java's getNestedTypes() does.
    std::vector<std::pair<std::string, std::vector<int32_t>>> all;
    std::vector<std::pair<const pb::Descriptor*, std::vector<int32_t>>> pending;
    for (int i = 0; i < file->message_type_count(); ++i) {
      pending.push_back({file->message_type(i), {i}});
    }
    while (!pending.empty()) {
      auto [d, path] = std::move(pending.back());
      pending.pop_back();
      if (path.size() > static_cast<size_t>(kMaxProtoMessageDepth)) {
        return Err(InvalidArgument("Protobuf message " + d->full_name() + " nests deeper than " +
                                   std::to_string(kMaxProtoMessageDepth) + " message levels"));
      }
      for (int i = 0; i < d->nested_type_count(); ++i) {
        std::vector<int32_t> nested = path;
        nested.push_back(i);
        pending.push_back({d->nested_type(i), std::move(nested)});
      }
      all.emplace_back(d->full_name(), std::move(path));
    }
    if (message_index >= all.size()) {
      return Err(NotFound("the GSR message index " + std::to_string(message_index) +
                          " names no message type: the schema has " + std::to_string(all.size())));
    }
    std::sort(all.begin(), all.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return std::move(all[message_index].second);
  } catch (const std::exception& e) {
    return Err(InvalidArgument(std::string("the Protobuf schema could not be read: ") + e.what()));
  }
}

}  // namespace st::decoding
