// Test-side Dremel shredding of st::Value rows into per-leaf column arrays
// (levels plus dense values), written through FileWriter's batch API. It is
// written independently of the writer's RowShredder so the two check each
// other: a file written row by row and one written in batches must agree.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/value.h"
#include "parquet/file_writer.h"
#include "parquet/schema.h"

namespace st::parquet::testing {

class ValueColumnizer {
 public:
  explicit ValueColumnizer(const Schema& schema) : schema_(schema) {
    leaves_.resize(static_cast<size_t>(schema.num_columns()));
  }

  void Add(const Value& row) {
    size_t leaf = 0;
    const auto& fields = row.struct_value();
    for (size_t i = 0; i < fields.size(); ++i) {
      Shred(schema_.fields()[i], fields[i], 0, 0, 0, &leaf);
    }
    ++rows_;
  }

  // Writes the rows added since the last call as one batch per column, then
  // EndRows.
  Status WriteTo(FileWriter* w) {
    for (size_t c = 0; c < leaves_.size(); ++c) {
      Leaf& l = leaves_[c];
      const ColumnDescriptor& d = schema_.columns()[c];
      const int col = static_cast<int>(c);
      const auto n = static_cast<int64_t>(l.def.size());
      const int16_t* def = d.max_def_level > 0 ? l.def.data() : nullptr;
      const int16_t* rep = d.max_rep_level > 0 ? l.rep.data() : nullptr;
      switch (d.physical_type) {
        case PhysicalType::kBoolean:
          ST_TRY(w->WriteBoolBatch(col, l.bools.data(), n, def, rep));
          break;
        case PhysicalType::kInt32:
          ST_TRY(w->WriteInt32Batch(col, l.i32.data(), n, def, rep));
          break;
        case PhysicalType::kInt64:
          ST_TRY(w->WriteInt64Batch(col, l.i64.data(), n, def, rep));
          break;
        case PhysicalType::kFloat:
          ST_TRY(w->WriteFloatBatch(col, l.f32.data(), n, def, rep));
          break;
        case PhysicalType::kDouble:
          ST_TRY(w->WriteDoubleBatch(col, l.f64.data(), n, def, rep));
          break;
        default: {
          std::vector<std::string_view> views(l.bytes.begin(), l.bytes.end());
          ST_TRY(w->WriteBytesBatch(col, views.data(), n, def, rep));
          break;
        }
      }
      l = Leaf{};
    }
    const int64_t rows = rows_;
    rows_ = 0;
    return w->EndRows(rows);
  }

 private:
  struct Leaf {
    std::vector<int16_t> def;
    std::vector<int16_t> rep;
    std::vector<uint8_t> bools;
    std::vector<int32_t> i32;
    std::vector<int64_t> i64;
    std::vector<float> f32;
    std::vector<double> f64;
    std::vector<std::string> bytes;
  };

  static size_t CountLeaves(const Node& node) {
    if (node.is_leaf()) return 1;
    size_t n = 0;
    for (const Node& c : node.children()) n += CountLeaves(c);
    return n;
  }

  void PushNulls(const Node& node, int16_t def, int16_t rep, size_t* leaf) {
    for (size_t k = CountLeaves(node); k > 0; --k, ++*leaf) {
      leaves_[*leaf].def.push_back(def);
      leaves_[*leaf].rep.push_back(rep);
    }
  }

  void Shred(const Node& node, const Value& v, int16_t parent_def, int16_t rep, int16_t depth,
             size_t* leaf) {
    if (v.is_null()) return PushNulls(node, parent_def, rep, leaf);
    const auto def =
        static_cast<int16_t>(parent_def + (node.repetition() == Repetition::kOptional ? 1 : 0));
    if (node.is_leaf()) return PushValue(v, def, rep, leaf);
    const LogicalType::Kind kind = node.logical_type().kind;
    if (kind != LogicalType::Kind::kList && kind != LogicalType::Kind::kMap) {
      for (size_t i = 0; i < node.children().size(); ++i) {
        Shred(node.children()[i], v.struct_value()[i], def, rep, depth, leaf);
      }
      return;
    }
    const Node& middle = node.children()[0];
    const size_t entries =
        kind == LogicalType::Kind::kList ? v.list_value().size() : v.map_value().size();
    if (entries == 0) return PushNulls(node, def, rep, leaf);
    const size_t first_leaf = *leaf;
    const auto inner = static_cast<int16_t>(depth + 1);
    for (size_t k = 0; k < entries; ++k) {
      *leaf = first_leaf;
      const int16_t r = k == 0 ? rep : inner;
      const auto entry_def = static_cast<int16_t>(def + 1);
      if (kind == LogicalType::Kind::kList) {
        Shred(middle.children()[0], v.list_value()[k], entry_def, r, inner, leaf);
      } else {
        Shred(middle.children()[0], v.map_value()[k].first, entry_def, r, inner, leaf);
        Shred(middle.children()[1], v.map_value()[k].second, entry_def, r, inner, leaf);
      }
    }
  }

  void PushValue(const Value& v, int16_t def, int16_t rep, size_t* leaf) {
    const ColumnDescriptor& d = schema_.columns()[*leaf];
    Leaf& l = leaves_[(*leaf)++];
    l.def.push_back(def);
    l.rep.push_back(rep);
    const bool decimal = v.kind() == Value::Kind::kDecimal;
    switch (d.physical_type) {
      case PhysicalType::kBoolean:
        l.bools.push_back(v.bool_value() ? 1 : 0);
        return;
      case PhysicalType::kInt32:
        l.i32.push_back(decimal ? static_cast<int32_t>(v.decimal_value()) : v.int32_value());
        return;
      case PhysicalType::kInt64:
        l.i64.push_back(decimal ? static_cast<int64_t>(v.decimal_value()) : v.int64_value());
        return;
      case PhysicalType::kFloat:
        l.f32.push_back(v.float_value());
        return;
      case PhysicalType::kDouble:
        l.f64.push_back(v.double_value());
        return;
      default:
        if (decimal) {
          std::string be(static_cast<size_t>(d.type_length), '\0');
          for (int i = 0; i < d.type_length; ++i) {
            be[static_cast<size_t>(d.type_length - 1 - i)] =
                static_cast<char>(v.decimal_value() >> (8 * i));
          }
          l.bytes.push_back(std::move(be));
        } else {
          l.bytes.emplace_back(v.bytes_value());
        }
        return;
    }
  }

  const Schema& schema_;
  std::vector<Leaf> leaves_;
  int64_t rows_ = 0;
};

}  // namespace st::parquet::testing
