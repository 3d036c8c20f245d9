#include "decoding/avro_decode_plan_internal.h"
#include "decoding/avro_schema_mapping.h"
#include "decoding/avro_union_internal.h"
#include "iceberg/type_nesting.h"

namespace st::decoding {
namespace {

using iceberg::TypeId;

std::string WriterTypeName(const avro::Node& w) {
  if (auto mapped = AvroPrimitiveToIceberg(w)) return (*mapped)->ToString();
  if (w.type == avro::Type::kRecord) return "record " + w.full_name;
  return std::string(avro::TypeName(w.type));
}

Status Incompatible(const ShredNode& target, const avro::Node& w, std::string_view why = "") {
  std::string message = "schema incompatible: field " + target.path + " has table type " +
                        target.type->ToString() + " and writer type " + WriterTypeName(w);
  if (!why.empty()) message += " (" + std::string(why) + ")";
  return FailedPrecondition(std::move(message));
}

// The conversion of a primitive writer value into the target's column.
Result<AvroOp> PrimitiveOp(const avro::Node& w, const ShredNode& target) {
  auto mapped = AvroPrimitiveToIceberg(w);
  if (!mapped) return Err(Incompatible(target, w, mapped.error().message()));
  if (!AvroResolves(**mapped, *target.type)) return Err(Incompatible(target, w));
  const TypeId t = target.type_id;
  switch (w.type) {
    case avro::Type::kBoolean:
      return AvroOp::kBool;
    case avro::Type::kInt:
      if (w.logical_type == "time-millis") return AvroOp::kTimeMillis;
      if (t == TypeId::kLong) return AvroOp::kIntToLong;
      if (t == TypeId::kFloat) return AvroOp::kIntToFloat;
      if (t == TypeId::kDouble) return AvroOp::kIntToDouble;
      return AvroOp::kIntToInt;
    case avro::Type::kLong:
      if (w.logical_type == "timestamp-millis" || w.logical_type == "local-timestamp-millis") {
        return AvroOp::kMillisToMicros;
      }
      if (t == TypeId::kFloat) return AvroOp::kLongToFloat;
      if (t == TypeId::kDouble) return AvroOp::kLongToDouble;
      return AvroOp::kLong;
    case avro::Type::kFloat:
      return t == TypeId::kDouble ? AvroOp::kFloatToDouble : AvroOp::kFloat;
    case avro::Type::kDouble:
      return AvroOp::kDouble;
    case avro::Type::kString:
      if (t == TypeId::kUuid) return AvroOp::kStringUuid;
      return t == TypeId::kBinary ? AvroOp::kBytes : AvroOp::kString;
    case avro::Type::kBytes:
      if (t == TypeId::kDecimal) return AvroOp::kDecimalBytes;
      return t == TypeId::kString ? AvroOp::kBytesToString : AvroOp::kBytes;
    case avro::Type::kFixed:
      return t == TypeId::kDecimal ? AvroOp::kDecimalFixed : AvroOp::kFixed;
    case avro::Type::kEnum:
      return AvroOp::kEnum;
    default:
      return Err(Incompatible(target, w));
  }
}

class Compiler {
 public:
  Result<AvroStep> Compile(const avro::Node& writer, const ShredNode& target, int depth) {
    const avro::Node& w = writer.Resolve();
    if (depth > iceberg::kMaxTypeNesting + 1) {
      return Err(Internal("avro plan deeper than the table schema allows at " + target.path));
    }
    AvroStep step;
    step.writer = &w;
    if (w.type == avro::Type::kNull) {
      step.op = AvroOp::kNull;
      return step;
    }
    if (w.type == avro::Type::kUnion) return Union(w, target, depth);
    switch (target.kind) {
      case ShredNode::Kind::kStruct: {
        if (w.type != avro::Type::kRecord) return Err(Incompatible(target, w));
        step.op = AvroOp::kRecord;
        std::vector<int> writer_to_target(w.fields.size(), -1);
        for (size_t c = 0; c < target.children.size(); ++c) {
          const int match = FindWriterField(w, target.children[c].name);
          if (match >= 0 && writer_to_target[match] < 0) {
            writer_to_target[match] = static_cast<int>(c);
            continue;
          }
          const ShredNode& child = target.children[c];
          if (child.required) {
            return Err(FailedPrecondition("schema incompatible: field " + child.path + " (" +
                                          child.type->ToString() +
                                          ") is required in the table and missing from writer "
                                          "record " +
                                          w.full_name));
          }
          step.missing.push_back(static_cast<int>(c));
        }
        for (size_t i = 0; i < w.fields.size(); ++i) {
          const int c = writer_to_target[i];
          if (c < 0) {
            AvroStep skip;
            skip.op = AvroOp::kSkip;
            skip.writer = &w.fields[i].type->Resolve();
            step.children.push_back(std::move(skip));
            continue;
          }
          ST_ASSIGN_OR_RETURN(AvroStep child,
                              Compile(*w.fields[i].type, target.children[c], depth + 1));
          child.target = c;
          step.children.push_back(std::move(child));
        }
        return step;
      }
      case ShredNode::Kind::kList: {
        if (w.type != avro::Type::kArray) return Err(Incompatible(target, w));
        step.op = AvroOp::kArray;
        ST_ASSIGN_OR_RETURN(AvroStep items, Compile(*w.items, target.children[0], depth + 1));
        step.children.push_back(std::move(items));
        return step;
      }
      case ShredNode::Kind::kMap: {
        if (w.type != avro::Type::kMap) return Err(Incompatible(target, w));
        if (target.children[0].type_id != TypeId::kString) {
          return Err(Incompatible(target, w, "Avro map keys are strings"));
        }
        step.op = AvroOp::kMap;
        ST_ASSIGN_OR_RETURN(AvroStep values, Compile(*w.values, target.children[1], depth + 1));
        step.children.push_back(std::move(values));
        return step;
      }
      case ShredNode::Kind::kPrimitive:
        break;
    }
    ST_ASSIGN_OR_RETURN(step.op, PrimitiveOp(w, target));
    return step;
  }

 private:
  Result<AvroStep> Union(const avro::Node& w, const ShredNode& target, int depth) {
    AvroUnionShape shape = ShapeOf(w);
    AvroStep step;
    step.writer = &w;
    const bool as_struct = shape.branches.size() > 1 && target.kind == ShredNode::Kind::kStruct;
    step.op = as_struct ? AvroOp::kUnionStruct : AvroOp::kUnion;
    std::optional<Status> first_error;
    bool any = false;
    for (const auto& branch_ptr : w.branches) {
      const avro::Node& branch = branch_ptr->Resolve();
      AvroStep child;
      child.writer = &branch;
      if (branch.type == avro::Type::kNull) {
        child.op = AvroOp::kNull;
        step.children.push_back(std::move(child));
        continue;
      }
      Result<AvroStep> compiled = Err(Internal("unset"));
      if (as_struct) {
        const int member = target.FindChild(AvroBranchName(branch));
        if (member < 0) {
          compiled = Err(FailedPrecondition(
              "schema incompatible: field " + target.path + " has no member " +
              AvroBranchName(branch) + " for the writer's union branch " + WriterTypeName(branch)));
        } else {
          compiled = Compile(branch, target.children[member], depth + 1);
          if (compiled) compiled->target = member;
        }
      } else {
        compiled = Compile(branch, target, depth);
      }
      if (compiled) {
        any = true;
        step.children.push_back(std::move(*compiled));
        continue;
      }
      if (!first_error) first_error = compiled.error();
      child.op = AvroOp::kMismatch;
      child.mismatch = compiled.error().message();
      step.children.push_back(std::move(child));
    }
    if (!any && first_error) return Err(*first_error);
    return step;
  }
};

}  // namespace

Result<AvroStep> CompileAvroPlan(const avro::Schema& writer, const ShredPlan& plan) {
  const avro::Node& root = writer.root().Resolve();
  if (root.type != avro::Type::kRecord) {
    return Err(FailedPrecondition("schema incompatible: the writer schema is " +
                                  std::string(avro::TypeName(root.type)) +
                                  ", not a record; a table row needs a record"));
  }
  Compiler compiler;
  return compiler.Compile(root, plan.root, 0);
}

Result<AvroStep> CompileAvroPlanOnto(const avro::Schema& writer, const ShredNode& target) {
  Compiler compiler;
  return compiler.Compile(writer.root(), target, 1);
}

}  // namespace st::decoding
