// Dremel record assembly for the shapes Schema allows (structs, 3-level
// lists, key_value maps): a recursive walk of the schema that consumes level
// entries from every leaf under a node, bounds-checked throughout since the
// levels come from the file.
#include <string>
#include <unordered_map>

#include "parquet/file_reader.h"

namespace st::parquet {
namespace {

using Kind = LogicalType::Kind;
__extension__ typedef unsigned __int128 UInt128;

class Assembler {
 public:
  Assembler(const Schema& schema, const std::vector<ColumnBatch>& batches)
      : schema_(schema), batches_(batches) {
    int leaf = 0;
    for (const Node& f : schema.fields()) leaf += Index(f, leaf);
  }

  Result<std::vector<Value>> Run(int64_t num_rows) {
    if (batches_.size() != static_cast<size_t>(schema_.num_columns())) {
      return Err(InvalidArgument("parquet assembly: one batch per column is needed"));
    }
    cursors_.assign(batches_.size(), Cursor{});
    std::vector<Value> rows;
    rows.reserve(static_cast<size_t>(std::min<int64_t>(num_rows, 1 << 20)));
    for (int64_t r = 0; r < num_rows; ++r) {
      for (size_t c = 0; c < batches_.size(); ++c) {
        const ColumnBatch& b = batches_[c];
        if (cursors_[c].level >= static_cast<size_t>(b.num_levels)) {
          return Err(Fail("column " + Path(c) + " ends before row " + std::to_string(r)));
        }
        if (!b.rep_levels.empty() && b.rep_levels[cursors_[c].level] != 0) {
          return Err(Fail("column " + Path(c) + " does not start row " + std::to_string(r)));
        }
      }
      Value::Struct fields;
      fields.reserve(schema_.fields().size());
      for (const Node& f : schema_.fields()) {
        Value v;
        ST_TRY(Read(f, 0, 0, &v));
        fields.push_back(std::move(v));
      }
      rows.push_back(Value::MakeStruct(std::move(fields)));
    }
    for (size_t c = 0; c < batches_.size(); ++c) {
      if (cursors_[c].level != static_cast<size_t>(batches_[c].num_levels) ||
          cursors_[c].value != static_cast<size_t>(batches_[c].num_values())) {
        return Err(Fail("column " + Path(c) + " holds entries beyond its rows"));
      }
    }
    return rows;
  }

 private:
  struct Cursor {
    size_t level = 0;
    size_t value = 0;
  };

  // Records the first leaf and leaf count of `node`; returns the count.
  int Index(const Node& node, int first) {
    int count = 0;
    if (node.is_leaf()) {
      count = 1;
    } else {
      for (const Node& child : node.children()) count += Index(child, first + count);
    }
    first_leaf_[&node] = first;
    leaf_count_[&node] = count;
    return count;
  }

  static Status Fail(const std::string& why) { return Corruption("parquet row assembly: " + why); }
  std::string Path(size_t c) const { return schema_.columns()[c].DottedPath(); }

  Status Def(size_t leaf, int16_t* d) const {
    const ColumnBatch& b = batches_[leaf];
    const size_t at = cursors_[leaf].level;
    if (at >= static_cast<size_t>(b.num_levels)) return Fail("column " + Path(leaf) + " ran out");
    *d = b.def_levels.empty() ? schema_.columns()[leaf].max_def_level : b.def_levels[at];
    return Status::OK();
  }

  // Consumes one entry without a value from every leaf under `node`.
  Status SkipEntry(const Node& node) {
    const int first = first_leaf_.at(&node);
    const int count = leaf_count_.at(&node);
    for (int i = first; i < first + count; ++i) {
      const auto leaf = static_cast<size_t>(i);
      int16_t d = 0;
      ST_TRY(Def(leaf, &d));
      if (d == schema_.columns()[leaf].max_def_level) {
        return Fail("column " + Path(leaf) + " has a value where an ancestor is null or empty");
      }
      ++cursors_[leaf].level;
    }
    return Status::OK();
  }

  Status Leaf(size_t leaf, Value* out) {
    const ColumnDescriptor& col = schema_.columns()[leaf];
    const ColumnBatch& b = batches_[leaf];
    Cursor& cur = cursors_[leaf];
    if (cur.value >= static_cast<size_t>(b.num_values())) {
      return Fail("column " + Path(leaf) + " has fewer values than its levels say");
    }
    const size_t i = cur.value++;
    ++cur.level;
    const bool decimal = col.logical_type.kind == Kind::kDecimal;
    switch (b.physical_type) {
      case PhysicalType::kBoolean:
        *out = Value::Bool(b.bools[i] != 0);
        return Status::OK();
      case PhysicalType::kInt32:
        *out = decimal ? Value::Decimal(b.int32s[i]) : Value::Int32(b.int32s[i]);
        return Status::OK();
      case PhysicalType::kInt64:
        *out = decimal ? Value::Decimal(b.int64s[i]) : Value::Int64(b.int64s[i]);
        return Status::OK();
      case PhysicalType::kFloat:
        *out = Value::Float(b.floats[i]);
        return Status::OK();
      case PhysicalType::kDouble:
        *out = Value::Double(b.doubles[i]);
        return Status::OK();
      case PhysicalType::kByteArray:
      case PhysicalType::kFixedLenByteArray: {
        const std::string_view v = b.bytes[i];
        if (decimal) {
          if (v.empty() || v.size() > 16) {
            return Fail("column " + Path(leaf) + ": a decimal of " + std::to_string(v.size()) +
                        " bytes");
          }
          // Big-endian two's complement, sign-extended from the first byte.
          auto bits = static_cast<UInt128>(static_cast<Int128>(static_cast<int8_t>(v[0])));
          for (size_t k = 1; k < v.size(); ++k) bits = (bits << 8) | static_cast<uint8_t>(v[k]);
          *out = Value::Decimal(static_cast<Int128>(bits));
        } else if (col.logical_type.kind == Kind::kString) {
          *out = Value::String(std::string(v));
        } else {
          *out = Value::Binary(std::string(v));
        }
        return Status::OK();
      }
    }
    return Fail("unknown physical type");
  }

  // `def` and `rep`: the levels of the context `node` sits in.
  Status Read(const Node& node, int16_t def, int16_t rep, Value* out) {
    const auto first = static_cast<size_t>(first_leaf_.at(&node));
    const int16_t node_def =
        static_cast<int16_t>(def + (node.repetition() == Repetition::kOptional ? 1 : 0));
    int16_t d = 0;
    ST_TRY(Def(first, &d));
    if (d < node_def) {
      *out = Value::Null();
      return SkipEntry(node);
    }
    if (node.is_leaf()) {
      if (d != schema_.columns()[first].max_def_level) {
        return Fail("column " + Path(first) + " has an inconsistent definition level");
      }
      return Leaf(first, out);
    }
    const Kind kind = node.logical_type().kind;
    if (kind != Kind::kList && kind != Kind::kMap) {
      Value::Struct fields;
      fields.reserve(node.children().size());
      for (const Node& child : node.children()) {
        Value v;
        ST_TRY(Read(child, node_def, rep, &v));
        fields.push_back(std::move(v));
      }
      *out = Value::MakeStruct(std::move(fields));
      return Status::OK();
    }
    const Node& middle = node.children()[0];
    const auto entry_def = static_cast<int16_t>(node_def + 1);
    const auto entry_rep = static_cast<int16_t>(rep + 1);
    if (d < entry_def) {
      ST_TRY(SkipEntry(node));
      *out = kind == Kind::kList ? Value::MakeList({}) : Value::MakeMap({});
      return Status::OK();
    }
    Value::List items;
    Value::Map entries;
    const ColumnBatch& lead = batches_[first];
    while (true) {
      if (kind == Kind::kList) {
        Value v;
        ST_TRY(Read(middle.children()[0], entry_def, entry_rep, &v));
        items.push_back(std::move(v));
      } else {
        Value k, v;
        ST_TRY(Read(middle.children()[0], entry_def, entry_rep, &k));
        ST_TRY(Read(middle.children()[1], entry_def, entry_rep, &v));
        entries.emplace_back(std::move(k), std::move(v));
      }
      const size_t at = cursors_[first].level;
      if (at >= static_cast<size_t>(lead.num_levels) || lead.rep_levels.empty() ||
          lead.rep_levels[at] < entry_rep) {
        break;
      }
    }
    *out = kind == Kind::kList ? Value::MakeList(std::move(items))
                               : Value::MakeMap(std::move(entries));
    return Status::OK();
  }

  const Schema& schema_;
  const std::vector<ColumnBatch>& batches_;
  std::vector<Cursor> cursors_;
  std::unordered_map<const Node*, int> first_leaf_;
  std::unordered_map<const Node*, int> leaf_count_;
};

}  // namespace

Result<std::vector<Value>> AssembleRows(const Schema& schema,
                                        const std::vector<ColumnBatch>& batches, int64_t num_rows) {
  Assembler assembler(schema, batches);
  return assembler.Run(num_rows);
}

}  // namespace st::parquet
