#include <algorithm>

#include "decoding/protobuf_decode_plan_internal.h"

namespace st::decoding {

int ProtoMessagePlan::Slot(uint64_t number) const {
  if (number < slot_by_number.size()) return slot_by_number[number];
  auto it = std::lower_bound(fields.begin(), fields.end(), number,
                             [](const ProtoFieldPlan& f, uint64_t n) {
                               return static_cast<uint64_t>(f.field->number) < n;
                             });
  return it != fields.end() && static_cast<uint64_t>(it->field->number) == number
             ? static_cast<int>(it - fields.begin())
             : -1;
}

namespace {

constexpr int32_t kMaxProtoDenseNumber = 1024;
constexpr int kMaxProtoPlanDepth = 64;

// Whether a scalar of `kind` can be written into a primitive column of `id`:
// the type it maps to, or one Iceberg promotes that type to (the table may
// have been evolved by a wider writer), string and binary either way.
bool ProtoScalarFits(ProtoKind kind, iceberg::TypeId id) {
  using iceberg::TypeId;
  const TypeId mapped = ProtoKindTypeId(kind);
  if (mapped == TypeId::kStruct) return false;
  if (mapped == id) return true;
  switch (mapped) {
    case TypeId::kInt:
      return id == TypeId::kLong || id == TypeId::kFloat || id == TypeId::kDouble;
    case TypeId::kLong:
      return id == TypeId::kFloat || id == TypeId::kDouble;
    case TypeId::kFloat:
      return id == TypeId::kDouble;
    case TypeId::kString:
      return id == TypeId::kBinary && kind != ProtoKind::kEnum;
    case TypeId::kBinary:
      return id == TypeId::kString;
    case TypeId::kTimestampTz:
      return id == TypeId::kTimestamp;
    default:
      return false;
  }
}

class ProtoPlanCompiler {
 public:
  explicit ProtoPlanCompiler(ProtoPlan& out) : out_(out) {}

  Result<const ProtoMessagePlan*> Message(const ProtoMessage& m, const ShredNode& node, int depth) {
    if (depth > kMaxProtoPlanDepth) {
      return Err(FailedPrecondition("schema incompatible: " + node.path + " nests too deep"));
    }
    auto owned = std::make_unique<ProtoMessagePlan>();
    ProtoMessagePlan* plan = owned.get();
    out_.messages.push_back(std::move(owned));
    std::vector<uint8_t> filled(node.children.size(), 0);
    for (const ProtoField& f : m.fields) {
      ProtoFieldPlan fp;
      fp.field = &f;
      const int target = node.FindChild(f.name);
      if (target >= 0) {
        ST_TRY(Field(f, node.children[target], depth, &fp));
        fp.target = target;
        filled[target] = 1;
      }
      plan->fields.push_back(fp);
    }
    std::sort(plan->fields.begin(), plan->fields.end(),
              [](const ProtoFieldPlan& a, const ProtoFieldPlan& b) {
                return a.field->number < b.field->number;
              });
    int32_t max_number = 0;
    for (const ProtoFieldPlan& f : plan->fields) max_number = std::max(max_number, f.field->number);
    plan->slot_by_number.assign(std::min(max_number, kMaxProtoDenseNumber) + 1, -1);
    for (size_t i = 0; i < plan->fields.size(); ++i) {
      const int32_t n = plan->fields[i].field->number;
      if (n <= kMaxProtoDenseNumber) plan->slot_by_number[n] = static_cast<int16_t>(i);
    }
    for (size_t c = 0; c < node.children.size(); ++c) {
      if (filled[c] != 0) continue;
      const ShredNode& child = node.children[c];
      if (child.required) {
        return Err(FailedPrecondition("schema incompatible: the table's required field " +
                                      child.path + " (" + child.type->ToString() +
                                      ") is not in the Protobuf message " + m.full_name));
      }
      plan->missing.push_back(static_cast<int>(c));
    }
    return plan;
  }

 private:
  static Status Mismatch(const ProtoField& f, const ShredNode& node, const std::string& what) {
    return FailedPrecondition("schema incompatible: field " + node.path + " is " +
                              node.type->ToString() + " in the table but " + what + " (" +
                              ProtoKindName(f.kind) + " " + f.name + ") in the writer schema");
  }

  // A single value of `f` (not its repetition) onto `node`.
  Status Value(const ProtoField& f, const ShredNode& node, int depth, ProtoFieldPlan* fp) {
    if (f.kind == ProtoKind::kMessage) {
      if (node.kind != ShredNode::Kind::kStruct) return Mismatch(f, node, "a message");
      ST_ASSIGN_OR_RETURN(fp->message, Message(*f.message, node, depth + 1));
      return Status::OK();
    }
    const ProtoKind kind = f.kind == ProtoKind::kWrapper ? f.wrapped : f.kind;
    if (node.kind != ShredNode::Kind::kPrimitive || !ProtoScalarFits(kind, node.type_id)) {
      return Mismatch(f, node, ProtoKindName(kind));
    }
    return Status::OK();
  }

  Status Field(const ProtoField& f, const ShredNode& node, int depth, ProtoFieldPlan* fp) {
    if (f.is_map) {
      if (node.kind != ShredNode::Kind::kMap) return Mismatch(f, node, "a map");
      const ProtoField* value = nullptr;
      for (const ProtoField& e : f.message->fields) {
        if (e.number == 2) value = &e;
      }
      if (value == nullptr) return Mismatch(f, node, "a map without values");
      if (node.children[0].type_id != iceberg::TypeId::kString) {
        return Mismatch(f, node, "a map (keys are written as strings)");
      }
      return Value(*value, node.children[1], depth, fp);
    }
    if (f.repeated) {
      if (node.kind != ShredNode::Kind::kList) return Mismatch(f, node, "a repeated field");
      return Value(f, node.children[0], depth, fp);
    }
    return Value(f, node, depth, fp);
  }

  ProtoPlan& out_;
};

}  // namespace

Result<ProtoPlan> CompileProtoPlan(std::unique_ptr<ProtoSchema> schema, const ShredPlan& plan) {
  ProtoPlan out;
  const ProtoMessage& root = *schema->root;
  out.schema = std::move(schema);
  ProtoPlanCompiler compiler(out);
  ST_TRY(compiler.Message(root, plan.root, 0));
  return out;
}

Result<ProtoPlan> CompileProtoPlanOnto(std::unique_ptr<ProtoSchema> schema,
                                       const ShredNode& target) {
  if (target.kind != ShredNode::Kind::kStruct) {
    return Err(FailedPrecondition("schema incompatible: field " + target.path + " has table type " +
                                  target.type->ToString() + " and writer type message"));
  }
  ProtoPlan out;
  const ProtoMessage& root = *schema->root;
  out.schema = std::move(schema);
  ProtoPlanCompiler compiler(out);
  ST_TRY(compiler.Message(root, target, 1));
  return out;
}

}  // namespace st::decoding
