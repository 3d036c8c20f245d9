// Dremel-style shredding of a st::Value row (a Struct in schema field order;
// Null = missing) into the leaf ColumnWriters, computing definition and
// repetition levels. LIST groups take Value lists, MAP groups Value maps,
// plain groups Value structs of exactly their arity.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "common/value.h"
#include "parquet/column_writer_internal.h"
#include "parquet/schema.h"

namespace st::parquet::internal {

class RowShredder {
 public:
  explicit RowShredder(const Schema& schema);

  // Checks the whole row against the schema without writing anything.
  // InvalidArgument naming the column path: wrong value kind, null for a
  // required field, struct arity mismatch, decimal out of range, FIXED of the
  // wrong length.
  Status Validate(const Value& row) const;
  // Appends one row; `row` must have passed Validate. `columns` is indexed
  // like Schema::columns().
  void Shred(const Value& row, ColumnWriter* columns) const;

 private:
  enum class Kind { kLeaf, kStruct, kList, kMap };
  struct PlanNode {
    Kind kind = Kind::kLeaf;
    bool optional = false;
    uint16_t def = 0;        // Definition level when this node is present.
    uint16_t rep_child = 0;  // Kind kList/kMap: repetition level of later entries.
    int first_leaf = 0;      // Leaf columns [first_leaf, leaf_end) lie below.
    int leaf_end = 0;
    std::vector<int> children;  // Plan indexes; kMap: {key, value}.
    std::string path;
    const ColumnDescriptor* column = nullptr;  // kLeaf
    Int128 max_unscaled = 0;                   // Decimal leaves: 10^P - 1.
  };

  int Plan(const Node& node, const std::string& parent_path, uint16_t def, uint16_t rep,
           int* next_leaf, const Schema& schema);
  Status ValidateNode(int index, const Value& v) const;
  Status ValidateLeaf(const PlanNode& n, const Value& v) const;
  void ShredNode(int index, const Value& v, uint16_t parent_def, uint16_t rep,
                 ColumnWriter* columns) const;
  static void ShredLeaf(const PlanNode& n, const Value& v, uint16_t rep, ColumnWriter* column);

  std::vector<PlanNode> nodes_;
  std::vector<int> roots_;
};

}  // namespace st::parquet::internal
