#include "parquet/row_shredder_internal.h"

namespace st::parquet::internal {
namespace {

using VKind = Value::Kind;

const char* KindName(VKind k) {
  switch (k) {
    case VKind::kNull:
      return "Null";
    case VKind::kBool:
      return "Bool";
    case VKind::kInt32:
      return "Int32";
    case VKind::kInt64:
      return "Int64";
    case VKind::kFloat:
      return "Float";
    case VKind::kDouble:
      return "Double";
    case VKind::kDecimal:
      return "Decimal";
    case VKind::kString:
      return "String";
    case VKind::kBinary:
      return "Binary";
    case VKind::kList:
      return "List";
    case VKind::kMap:
      return "Map";
    case VKind::kStruct:
      return "Struct";
  }
  return "?";
}

Status WrongKind(const std::string& path, const char* expected, VKind got) {
  return InvalidArgument("parquet column '" + path + "': expected " + expected + ", got " +
                         KindName(got));
}

}  // namespace

RowShredder::RowShredder(const Schema& schema) {
  int next_leaf = 0;
  for (const Node& field : schema.fields()) {
    roots_.push_back(Plan(field, "", 0, 0, &next_leaf, schema));
  }
}

int RowShredder::Plan(const Node& node, const std::string& parent_path, uint16_t def, uint16_t rep,
                      int* next_leaf, const Schema& schema) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  PlanNode n;
  n.path = parent_path.empty() ? node.name() : parent_path + "." + node.name();
  n.optional = node.repetition() == Repetition::kOptional;
  n.def = static_cast<uint16_t>(def + (n.optional ? 1 : 0));
  n.first_leaf = *next_leaf;
  const LogicalType::Kind lk = node.logical_type().kind;
  if (node.is_leaf()) {
    n.kind = Kind::kLeaf;
    n.column = &schema.columns()[*next_leaf];
    ++*next_leaf;
    if (lk == LogicalType::Kind::kDecimal) {
      Int128 max = 1;
      for (int i = 0; i < node.logical_type().precision; ++i) max *= 10;
      n.max_unscaled = max - 1;
    }
  } else if (lk == LogicalType::Kind::kList || lk == LogicalType::Kind::kMap) {
    n.kind = lk == LogicalType::Kind::kList ? Kind::kList : Kind::kMap;
    const Node& middle = node.children()[0];
    n.rep_child = static_cast<uint16_t>(rep + 1);
    const std::string middle_path = n.path + "." + middle.name();
    for (const Node& child : middle.children()) {
      n.children.push_back(Plan(child, middle_path, static_cast<uint16_t>(n.def + 1), n.rep_child,
                                next_leaf, schema));
    }
  } else {
    n.kind = Kind::kStruct;
    for (const Node& child : node.children()) {
      n.children.push_back(Plan(child, n.path, n.def, rep, next_leaf, schema));
    }
  }
  n.leaf_end = *next_leaf;
  nodes_[index] = std::move(n);
  return index;
}

Status RowShredder::Validate(const Value& row) const {
  if (row.kind() != VKind::kStruct) {
    return InvalidArgument(
        std::string("parquet row: expected a Struct of the schema's fields, got ") +
        KindName(row.kind()));
  }
  const Value::Struct& fields = row.struct_value();
  if (fields.size() != roots_.size()) {
    return InvalidArgument("parquet row: has " + std::to_string(fields.size()) +
                           " fields, the schema has " + std::to_string(roots_.size()));
  }
  for (size_t i = 0; i < roots_.size(); ++i) ST_TRY(ValidateNode(roots_[i], fields[i]));
  return Status::OK();
}

Status RowShredder::ValidateNode(int index, const Value& v) const {
  const PlanNode& n = nodes_[index];
  if (v.is_null()) {
    if (n.optional) return Status::OK();
    return InvalidArgument("parquet column '" + n.path + "': null for a required field");
  }
  switch (n.kind) {
    case Kind::kLeaf:
      return ValidateLeaf(n, v);
    case Kind::kStruct: {
      if (v.kind() != VKind::kStruct) return WrongKind(n.path, "Struct", v.kind());
      const Value::Struct& s = v.struct_value();
      if (s.size() != n.children.size()) {
        return InvalidArgument("parquet column '" + n.path + "': struct has " +
                               std::to_string(s.size()) + " fields, the schema has " +
                               std::to_string(n.children.size()));
      }
      for (size_t i = 0; i < s.size(); ++i) ST_TRY(ValidateNode(n.children[i], s[i]));
      return Status::OK();
    }
    case Kind::kList:
      if (v.kind() != VKind::kList) return WrongKind(n.path, "List", v.kind());
      for (const Value& item : v.list_value()) ST_TRY(ValidateNode(n.children[0], item));
      return Status::OK();
    case Kind::kMap:
      if (v.kind() != VKind::kMap) return WrongKind(n.path, "Map", v.kind());
      for (const auto& [key, value] : v.map_value()) {
        ST_TRY(ValidateNode(n.children[0], key));
        ST_TRY(ValidateNode(n.children[1], value));
      }
      return Status::OK();
  }
  return Status::OK();
}

Status RowShredder::ValidateLeaf(const PlanNode& n, const Value& v) const {
  const ColumnDescriptor& c = *n.column;
  const bool decimal = c.logical_type.kind == LogicalType::Kind::kDecimal;
  if (decimal && v.kind() == VKind::kDecimal) {
    const Int128 u = v.decimal_value();
    if (u > n.max_unscaled || u < -n.max_unscaled) {
      return InvalidArgument("parquet column '" + n.path +
                             "': unscaled decimal exceeds precision " +
                             std::to_string(c.logical_type.precision));
    }
    return Status::OK();
  }
  switch (c.physical_type) {
    case PhysicalType::kBoolean:
      if (v.kind() != VKind::kBool) return WrongKind(n.path, "Bool", v.kind());
      break;
    case PhysicalType::kInt32:
      if (v.kind() != VKind::kInt32)
        return WrongKind(n.path, decimal ? "Decimal" : "Int32", v.kind());
      if (decimal && (v.int32_value() > n.max_unscaled || v.int32_value() < -n.max_unscaled)) {
        return InvalidArgument("parquet column '" + n.path +
                               "': unscaled decimal exceeds precision");
      }
      break;
    case PhysicalType::kInt64:
      if (v.kind() != VKind::kInt64)
        return WrongKind(n.path, decimal ? "Decimal" : "Int64", v.kind());
      if (decimal && (v.int64_value() > n.max_unscaled || v.int64_value() < -n.max_unscaled)) {
        return InvalidArgument("parquet column '" + n.path +
                               "': unscaled decimal exceeds precision");
      }
      break;
    case PhysicalType::kFloat:
      if (v.kind() != VKind::kFloat) return WrongKind(n.path, "Float", v.kind());
      break;
    case PhysicalType::kDouble:
      if (v.kind() != VKind::kDouble) return WrongKind(n.path, "Double", v.kind());
      break;
    case PhysicalType::kByteArray:
      if (v.kind() != VKind::kString && v.kind() != VKind::kBinary) {
        return WrongKind(n.path, "String or Binary", v.kind());
      }
      break;
    case PhysicalType::kFixedLenByteArray:
      if (v.kind() != VKind::kBinary)
        return WrongKind(n.path, decimal ? "Decimal" : "Binary", v.kind());
      if (v.bytes_value().size() != static_cast<size_t>(c.type_length)) {
        return InvalidArgument("parquet column '" + n.path + "': expected " +
                               std::to_string(c.type_length) + " bytes, got " +
                               std::to_string(v.bytes_value().size()));
      }
      break;
  }
  return Status::OK();
}

void RowShredder::Shred(const Value& row, ColumnWriter* columns) const {
  const Value::Struct& fields = row.struct_value();
  for (size_t i = 0; i < roots_.size(); ++i) ShredNode(roots_[i], fields[i], 0, 0, columns);
}

void RowShredder::ShredNode(int index, const Value& v, uint16_t parent_def, uint16_t rep,
                            ColumnWriter* columns) const {
  const PlanNode& n = nodes_[index];
  if (v.is_null()) {
    for (int c = n.first_leaf; c < n.leaf_end; ++c) columns[c].AppendNull(parent_def, rep);
    return;
  }
  switch (n.kind) {
    case Kind::kLeaf:
      ShredLeaf(n, v, rep, &columns[n.first_leaf]);
      return;
    case Kind::kStruct: {
      const Value::Struct& s = v.struct_value();
      for (size_t i = 0; i < s.size(); ++i) ShredNode(n.children[i], s[i], n.def, rep, columns);
      return;
    }
    case Kind::kList: {
      const Value::List& items = v.list_value();
      if (items.empty()) {
        for (int c = n.first_leaf; c < n.leaf_end; ++c) columns[c].AppendNull(n.def, rep);
        return;
      }
      const auto entry_def = static_cast<uint16_t>(n.def + 1);
      for (size_t k = 0; k < items.size(); ++k) {
        ShredNode(n.children[0], items[k], entry_def, k == 0 ? rep : n.rep_child, columns);
      }
      return;
    }
    case Kind::kMap: {
      const Value::Map& entries = v.map_value();
      if (entries.empty()) {
        for (int c = n.first_leaf; c < n.leaf_end; ++c) columns[c].AppendNull(n.def, rep);
        return;
      }
      const auto entry_def = static_cast<uint16_t>(n.def + 1);
      for (size_t k = 0; k < entries.size(); ++k) {
        const uint16_t r = k == 0 ? rep : n.rep_child;
        ShredNode(n.children[0], entries[k].first, entry_def, r, columns);
        ShredNode(n.children[1], entries[k].second, entry_def, r, columns);
      }
      return;
    }
  }
}

void RowShredder::ShredLeaf(const PlanNode& n, const Value& v, uint16_t rep, ColumnWriter* column) {
  const ColumnDescriptor& c = *n.column;
  const bool decimal_value = v.kind() == VKind::kDecimal;
  switch (c.physical_type) {
    case PhysicalType::kBoolean:
      column->AppendBool(v.bool_value(), rep);
      return;
    case PhysicalType::kInt32:
      column->AppendFixed(decimal_value ? static_cast<int32_t>(v.decimal_value()) : v.int32_value(),
                          rep);
      return;
    case PhysicalType::kInt64:
      column->AppendFixed(decimal_value ? static_cast<int64_t>(v.decimal_value()) : v.int64_value(),
                          rep);
      return;
    case PhysicalType::kFloat:
      column->AppendFixed(v.float_value(), rep);
      return;
    case PhysicalType::kDouble:
      column->AppendFixed(v.double_value(), rep);
      return;
    case PhysicalType::kByteArray:
      column->AppendBytes(v.bytes_value(), rep);
      return;
    case PhysicalType::kFixedLenByteArray:
      if (decimal_value) {
        column->AppendDecimalFixed(v.decimal_value(), rep);
      } else {
        column->AppendBytes(v.bytes_value(), rep);
      }
      return;
  }
}

}  // namespace st::parquet::internal
