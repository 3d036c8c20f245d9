#include "parquet/schema.h"

#include <utility>

#include "common/value.h"

namespace st::parquet {
namespace {

using Kind = LogicalType::Kind;

constexpr int kMaxNestingDepth = 100;

Status Invalid(const std::string& path, const std::string& what) {
  return InvalidArgument("parquet schema node '" + path + "': " + what);
}

Status ValidateLeaf(const Node& node, const std::string& path) {
  const LogicalType& lt = node.logical_type();
  const PhysicalType pt = node.physical_type();
  if (pt == PhysicalType::kFixedLenByteArray && node.type_length() <= 0) {
    return Invalid(path, "FIXED_LEN_BYTE_ARRAY needs a positive type_length");
  }
  auto need = [&](bool ok, const char* expected) -> Status {
    if (ok) return Status::OK();
    return Invalid(path, std::string("logical type requires ") + expected);
  };
  switch (lt.kind) {
    case Kind::kNone:
      return Status::OK();
    case Kind::kString:
      return need(pt == PhysicalType::kByteArray, "BYTE_ARRAY");
    case Kind::kDate:
      return need(pt == PhysicalType::kInt32, "INT32");
    case Kind::kTime:
      if (lt.unit == TimeUnit::kMillis) return need(pt == PhysicalType::kInt32, "INT32 (millis)");
      return need(pt == PhysicalType::kInt64, "INT64 (micros, nanos)");
    case Kind::kTimestamp:
      return need(pt == PhysicalType::kInt64, "INT64");
    case Kind::kUuid:
      return need(pt == PhysicalType::kFixedLenByteArray && node.type_length() == 16,
                  "FIXED_LEN_BYTE_ARRAY(16)");
    case Kind::kDecimal: {
      if (lt.precision < 1 || lt.precision > 38) {
        return Invalid(path, "decimal precision must be in 1..38");
      }
      if (lt.scale < 0 || lt.scale > lt.precision) {
        return Invalid(path, "decimal scale must be in 0..precision");
      }
      if (pt == PhysicalType::kInt32) return need(lt.precision <= 9, "precision <= 9 for INT32");
      if (pt == PhysicalType::kInt64) return need(lt.precision <= 18, "precision <= 18 for INT64");
      if (pt == PhysicalType::kFixedLenByteArray) {
        return need(
            node.type_length() >= DecimalFixedLength(lt.precision) && node.type_length() <= 16,
            "a FIXED length that holds the precision, at most 16");
      }
      return Invalid(path, "decimal must be INT32, INT64 or FIXED_LEN_BYTE_ARRAY");
    }
    case Kind::kList:
    case Kind::kMap:
      return Invalid(path, "LIST/MAP annotate groups, not leaves");
  }
  return Status::OK();
}

struct Walker {
  std::vector<ColumnDescriptor>* columns;
  std::vector<std::string> path;

  Status Walk(const Node& node, int16_t def, int16_t rep, bool inside_collection) {
    path.push_back(node.name());
    ColumnDescriptor scratch;
    scratch.path = path;
    const std::string dotted = scratch.DottedPath();
    if (node.name().empty()) return Invalid(dotted, "name must not be empty");
    if (path.size() > kMaxNestingDepth) return Invalid(dotted, "nesting is too deep");
    if (node.repetition() == Repetition::kOptional) ++def;
    if (node.repetition() == Repetition::kRepeated) {
      if (!inside_collection) {
        return Status(StatusCode::kUnsupported,
                      "parquet schema node '" + dotted +
                          "': repeated fields are only supported as the middle group of "
                          "LIST/MAP; use Node::List or Node::Map");
      }
      ++def;
      ++rep;
    }
    if (node.is_leaf()) {
      ST_TRY(ValidateLeaf(node, dotted));
      ColumnDescriptor col;
      col.path = path;
      col.physical_type = node.physical_type();
      col.logical_type = node.logical_type();
      col.type_length = node.type_length();
      col.field_id = node.field_id();
      col.max_def_level = def;
      col.max_rep_level = rep;
      columns->push_back(std::move(col));
      path.pop_back();
      return Status::OK();
    }
    if (node.children().empty()) return Invalid(dotted, "a group needs at least one child");
    const Kind kind = node.logical_type().kind;
    if (kind != Kind::kNone && kind != Kind::kList && kind != Kind::kMap) {
      return Invalid(dotted, "groups take only LIST or MAP logical types");
    }
    if (kind == Kind::kList || kind == Kind::kMap) {
      const size_t arity = kind == Kind::kList ? 1 : 2;
      if (node.repetition() == Repetition::kRepeated || node.children().size() != 1 ||
          node.children()[0].is_leaf() ||
          node.children()[0].repetition() != Repetition::kRepeated ||
          node.children()[0].children().size() != arity) {
        return Invalid(dotted, "LIST/MAP groups must have the 3-level shape (use Node::List/Map)");
      }
      if (kind == Kind::kMap &&
          node.children()[0].children()[0].repetition() != Repetition::kRequired) {
        return Invalid(dotted, "map keys must be required");
      }
      const Node& middle = node.children()[0];
      path.push_back(middle.name());
      for (const Node& child : middle.children()) {
        ST_TRY(Walk(child, static_cast<int16_t>(def + 1), static_cast<int16_t>(rep + 1), false));
      }
      path.pop_back();
      path.pop_back();
      return Status::OK();
    }
    for (const Node& child : node.children()) ST_TRY(Walk(child, def, rep, false));
    path.pop_back();
    return Status::OK();
  }
};

}  // namespace

int32_t DecimalFixedLength(int32_t precision) {
  if (precision > 38) return 16;  // Invalid; Schema::Make rejects it.
  Int128 max_unscaled = 1;
  for (int32_t i = 0; i < precision; ++i) max_unscaled *= 10;
  max_unscaled -= 1;
  for (int32_t bytes = 1; bytes < 16; ++bytes) {
    const Int128 limit = (static_cast<Int128>(1) << (8 * bytes - 1)) - 1;
    if (max_unscaled <= limit) return bytes;
  }
  return 16;
}

Node Node::Leaf(std::string name, Repetition repetition, PhysicalType type, LogicalType logical,
                std::optional<int32_t> field_id, int32_t type_length) {
  Node n;
  n.name_ = std::move(name);
  n.repetition_ = repetition;
  n.is_leaf_ = true;
  n.physical_type_ = type;
  n.logical_type_ = logical;
  n.field_id_ = field_id;
  n.type_length_ = type_length;
  return n;
}

Node Node::Group(std::string name, Repetition repetition, std::vector<Node> children,
                 std::optional<int32_t> field_id, LogicalType logical) {
  Node n;
  n.name_ = std::move(name);
  n.repetition_ = repetition;
  n.is_leaf_ = false;
  n.logical_type_ = logical;
  n.field_id_ = field_id;
  n.children_ = std::move(children);
  return n;
}

Node Node::Boolean(std::string name, Repetition rep, std::optional<int32_t> id) {
  return Leaf(std::move(name), rep, PhysicalType::kBoolean, LogicalType::None(), id);
}
Node Node::Int32(std::string name, Repetition rep, std::optional<int32_t> id) {
  return Leaf(std::move(name), rep, PhysicalType::kInt32, LogicalType::None(), id);
}
Node Node::Int64(std::string name, Repetition rep, std::optional<int32_t> id) {
  return Leaf(std::move(name), rep, PhysicalType::kInt64, LogicalType::None(), id);
}
Node Node::Float(std::string name, Repetition rep, std::optional<int32_t> id) {
  return Leaf(std::move(name), rep, PhysicalType::kFloat, LogicalType::None(), id);
}
Node Node::Double(std::string name, Repetition rep, std::optional<int32_t> id) {
  return Leaf(std::move(name), rep, PhysicalType::kDouble, LogicalType::None(), id);
}
Node Node::Date(std::string name, Repetition rep, std::optional<int32_t> id) {
  return Leaf(std::move(name), rep, PhysicalType::kInt32, LogicalType::Date(), id);
}
Node Node::Time(std::string name, Repetition rep, std::optional<int32_t> id) {
  return Leaf(std::move(name), rep, PhysicalType::kInt64, LogicalType::Time(), id);
}
Node Node::Timestamp(std::string name, Repetition rep, std::optional<int32_t> id, bool utc) {
  return Leaf(std::move(name), rep, PhysicalType::kInt64, LogicalType::Timestamp(utc), id);
}
Node Node::Decimal(std::string name, Repetition rep, std::optional<int32_t> id, int32_t precision,
                   int32_t scale) {
  const LogicalType lt = LogicalType::Decimal(precision, scale);
  if (precision <= 9) return Leaf(std::move(name), rep, PhysicalType::kInt32, lt, id);
  if (precision <= 18) return Leaf(std::move(name), rep, PhysicalType::kInt64, lt, id);
  return Leaf(std::move(name), rep, PhysicalType::kFixedLenByteArray, lt, id,
              DecimalFixedLength(precision));
}
Node Node::String(std::string name, Repetition rep, std::optional<int32_t> id) {
  return Leaf(std::move(name), rep, PhysicalType::kByteArray, LogicalType::String(), id);
}
Node Node::Binary(std::string name, Repetition rep, std::optional<int32_t> id) {
  return Leaf(std::move(name), rep, PhysicalType::kByteArray, LogicalType::None(), id);
}
Node Node::Uuid(std::string name, Repetition rep, std::optional<int32_t> id) {
  return Leaf(std::move(name), rep, PhysicalType::kFixedLenByteArray, LogicalType::Uuid(), id, 16);
}
Node Node::Fixed(std::string name, Repetition rep, std::optional<int32_t> id, int32_t length) {
  return Leaf(std::move(name), rep, PhysicalType::kFixedLenByteArray, LogicalType::None(), id,
              length);
}
Node Node::Struct(std::string name, Repetition rep, std::optional<int32_t> id,
                  std::vector<Node> fields) {
  return Group(std::move(name), rep, std::move(fields), id);
}
Node Node::List(std::string name, Repetition rep, std::optional<int32_t> id, Node element) {
  element.name_ = "element";
  std::vector<Node> middle_children;
  middle_children.push_back(std::move(element));
  std::vector<Node> outer_children;
  outer_children.push_back(Group("list", Repetition::kRepeated, std::move(middle_children)));
  return Group(std::move(name), rep, std::move(outer_children), id, LogicalType::List());
}
Node Node::Map(std::string name, Repetition rep, std::optional<int32_t> id, Node key, Node value) {
  key.name_ = "key";
  key.repetition_ = Repetition::kRequired;
  value.name_ = "value";
  std::vector<Node> middle_children;
  middle_children.push_back(std::move(key));
  middle_children.push_back(std::move(value));
  std::vector<Node> outer_children;
  outer_children.push_back(Group("key_value", Repetition::kRepeated, std::move(middle_children)));
  return Group(std::move(name), rep, std::move(outer_children), id, LogicalType::Map());
}

std::string ColumnDescriptor::DottedPath() const {
  std::string out;
  for (const std::string& part : path) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

Result<Schema> Schema::Make(std::vector<Node> fields) {
  if (fields.empty()) return Err(InvalidArgument("parquet schema needs at least one field"));
  Schema schema;
  Walker walker{&schema.columns_, {}};
  for (const Node& field : fields) ST_TRY(walker.Walk(field, 0, 0, false));
  schema.fields_ = std::move(fields);
  return schema;
}

}  // namespace st::parquet
