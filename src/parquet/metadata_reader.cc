// Field ids follow parquet.thrift; unknown fields are skipped, as Thrift's
// evolution rules require.
#include <string>
#include <utility>

#include "parquet/metadata_reader_internal.h"
#include "parquet/thrift_compact_reader_internal.h"

namespace st::parquet::internal {
namespace {

using T = ThriftType;
using Kind = LogicalType::Kind;

struct SchemaElement {
  std::optional<int32_t> type;
  int32_t type_length = 0;
  std::optional<int32_t> repetition;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<int32_t> converted_type;
  int32_t scale = 0;
  int32_t precision = 0;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical;
  bool logical_unsupported = false;
};

Status ReadTimeUnit(CompactReader* r, TimeUnit* unit) {
  return ReadStruct(r, [&](int16_t id, ThriftType t) -> Status {
    if (id == 1) *unit = TimeUnit::kMillis;
    if (id == 2) *unit = TimeUnit::kMicros;
    if (id == 3) *unit = TimeUnit::kNanos;
    return r->Skip(t);  // Each member is an empty struct.
  });
}

Status ReadTimeLike(CompactReader* r, Kind kind, LogicalType* lt) {
  lt->kind = kind;
  return ReadStruct(r, [&](int16_t id, ThriftType t) -> Status {
    if (id == 1) {
      ST_TRY(r->ExpectType(t, T::kBoolTrue, id));
      lt->adjusted_to_utc = t == T::kBoolTrue;
      return Status::OK();
    }
    if (id == 2) {
      ST_TRY(r->ExpectType(t, T::kStruct, id));
      return ReadTimeUnit(r, &lt->unit);
    }
    return r->Skip(t);
  });
}

// The LogicalType union. Annotations Iceberg has no type for (INTEGER,
// ENUM, JSON, BSON, FLOAT16, UNKNOWN) read as kNone or kString.
Status ReadLogicalType(CompactReader* r, SchemaElement* e) {
  LogicalType lt;
  ST_TRY(ReadStruct(r, [&](int16_t id, ThriftType t) -> Status {
    if (t != T::kStruct) return r->Skip(t);
    switch (id) {
      case 1:   // STRING
      case 4:   // ENUM
      case 12:  // JSON
        lt.kind = Kind::kString;
        return r->Skip(t);
      case 2:
        lt.kind = Kind::kMap;
        return r->Skip(t);
      case 3:
        lt.kind = Kind::kList;
        return r->Skip(t);
      case 5:
        lt.kind = Kind::kDecimal;
        return ReadStruct(r, [&](int16_t fid, ThriftType ft) -> Status {
          if (fid == 1) return ReadI32Field(r, ft, fid, &lt.scale);
          if (fid == 2) return ReadI32Field(r, ft, fid, &lt.precision);
          return r->Skip(ft);
        });
      case 6:
        lt.kind = Kind::kDate;
        return r->Skip(t);
      case 7:
        return ReadTimeLike(r, Kind::kTime, &lt);
      case 8:
        return ReadTimeLike(r, Kind::kTimestamp, &lt);
      case 14:
        lt.kind = Kind::kUuid;
        return r->Skip(t);
      default:
        return r->Skip(t);
    }
  }));
  e->logical = lt;
  return Status::OK();
}

Status ReadSchemaElement(CompactReader* r, SchemaElement* e) {
  return ReadStruct(r, [&](int16_t id, ThriftType t) -> Status {
    int32_t v = 0;
    switch (id) {
      case 1:
        ST_TRY(ReadI32Field(r, t, id, &v));
        e->type = v;
        return Status::OK();
      case 2:
        return ReadI32Field(r, t, id, &e->type_length);
      case 3:
        ST_TRY(ReadI32Field(r, t, id, &v));
        e->repetition = v;
        return Status::OK();
      case 4:
        return ReadStringField(r, t, id, &e->name);
      case 5:
        ST_TRY(ReadI32Field(r, t, id, &v));
        e->num_children = v;
        return Status::OK();
      case 6:
        ST_TRY(ReadI32Field(r, t, id, &v));
        e->converted_type = v;
        return Status::OK();
      case 7:
        return ReadI32Field(r, t, id, &e->scale);
      case 8:
        return ReadI32Field(r, t, id, &e->precision);
      case 9:
        ST_TRY(ReadI32Field(r, t, id, &v));
        e->field_id = v;
        return Status::OK();
      case 10:
        ST_TRY(r->ExpectType(t, T::kStruct, id));
        return ReadLogicalType(r, e);
      default:
        return r->Skip(t);
    }
  });
}

// The logical type of an element: the LogicalType union when present, else
// the legacy converted_type.
LogicalType ElementLogicalType(const SchemaElement& e) {
  if (e.logical) {
    LogicalType lt = *e.logical;
    if (lt.kind == Kind::kDecimal && lt.precision == 0) {
      lt.precision = e.precision;
      lt.scale = e.scale;
    }
    return lt;
  }
  if (!e.converted_type) return LogicalType::None();
  switch (*e.converted_type) {
    case 0:   // UTF8
    case 4:   // ENUM
    case 19:  // JSON
      return LogicalType::String();
    case 1:  // MAP
    case 2:  // MAP_KEY_VALUE
      return LogicalType::Map();
    case 3:
      return LogicalType::List();
    case 5:
      return LogicalType::Decimal(e.precision, e.scale);
    case 6:
      return LogicalType::Date();
    case 7:
      return LogicalType::TimeWithUnit(true, TimeUnit::kMillis);
    case 8:
      return LogicalType::TimeWithUnit(true, TimeUnit::kMicros);
    case 9:
      return LogicalType::TimestampWithUnit(true, TimeUnit::kMillis);
    case 10:
      return LogicalType::TimestampWithUnit(true, TimeUnit::kMicros);
    default:
      return LogicalType::None();
  }
}

Result<Repetition> ElementRepetition(const SchemaElement& e) {
  switch (e.repetition.value_or(0)) {
    case 0:
      return Repetition::kRequired;
    case 1:
      return Repetition::kOptional;
    case 2:
      return Repetition::kRepeated;
    default:
      return Err(Corruption("parquet schema element '" + e.name + "': repetition " +
                            std::to_string(*e.repetition) + " is not 0..2"));
  }
}

// Builds the node at elements[*next] and its subtree.
Result<Node> BuildNode(const std::vector<SchemaElement>& elements, size_t* next, int depth) {
  if (depth > 100) return Err(Corruption("parquet schema: nesting deeper than 100 levels"));
  if (*next >= elements.size()) {
    return Err(Corruption("parquet schema: child counts exceed the element list"));
  }
  const SchemaElement& e = elements[(*next)++];
  ST_ASSIGN_OR_RETURN(Repetition rep, ElementRepetition(e));
  LogicalType lt = ElementLogicalType(e);
  if (e.num_children.has_value() && *e.num_children > 0) {
    if (static_cast<size_t>(*e.num_children) > elements.size() - *next) {
      return Err(Corruption("parquet schema element '" + e.name +
                            "': " + std::to_string(*e.num_children) + " children but only " +
                            std::to_string(elements.size() - *next) + " elements left"));
    }
    std::vector<Node> children;
    children.reserve(static_cast<size_t>(*e.num_children));
    for (int32_t i = 0; i < *e.num_children; ++i) {
      ST_ASSIGN_OR_RETURN(Node child, BuildNode(elements, next, depth + 1));
      children.push_back(std::move(child));
    }
    // The middle group of a MAP may carry MAP_KEY_VALUE; it means nothing more.
    if (rep == Repetition::kRepeated) lt = LogicalType::None();
    if (lt.kind != Kind::kList && lt.kind != Kind::kMap) lt = LogicalType::None();
    return Node::Group(e.name, rep, std::move(children), e.field_id, lt);
  }
  if (!e.type.has_value()) {
    return Err(
        Corruption("parquet schema element '" + e.name + "' has neither a type nor children"));
  }
  const int32_t type = *e.type;
  if (type == 3) {
    return Err(Unsupported("parquet column '" + e.name +
                           "' is INT96 (legacy Spark/Impala timestamps); rewrite it as "
                           "TIMESTAMP(MICROS) INT64"));
  }
  if (type < 0 || type > 7) {
    return Err(Corruption("parquet schema element '" + e.name + "': physical type " +
                          std::to_string(type) + " is unknown"));
  }
  const auto physical = static_cast<PhysicalType>(type);
  if (lt.kind == Kind::kList || lt.kind == Kind::kMap) lt = LogicalType::None();
  return Node::Leaf(e.name, rep, physical, lt, e.field_id, e.type_length);
}

Status ReadStatistics(CompactReader* r, ColumnStatistics* s) {
  return ReadStruct(r, [&](int16_t id, ThriftType t) -> Status {
    int64_t v = 0;
    std::string str;
    switch (id) {
      case 1:
        ST_TRY(ReadStringField(r, t, id, &str));
        s->legacy_max = std::move(str);
        return Status::OK();
      case 2:
        ST_TRY(ReadStringField(r, t, id, &str));
        s->legacy_min = std::move(str);
        return Status::OK();
      case 3:
        ST_TRY(ReadI64Field(r, t, id, &v));
        s->null_count = v;
        return Status::OK();
      case 4:
        ST_TRY(ReadI64Field(r, t, id, &v));
        s->distinct_count = v;
        return Status::OK();
      case 5:
        ST_TRY(ReadStringField(r, t, id, &str));
        s->max_value = std::move(str);
        return Status::OK();
      case 6:
        ST_TRY(ReadStringField(r, t, id, &str));
        s->min_value = std::move(str);
        return Status::OK();
      default:
        return r->Skip(t);
    }
  });
}

Status ReadColumnMetaData(CompactReader* r, ColumnChunkInfo* c, bool* has_meta) {
  *has_meta = true;
  return ReadStruct(r, [&](int16_t id, ThriftType t) -> Status {
    int32_t v = 0;
    int64_t w = 0;
    switch (id) {
      case 1:
        ST_TRY(ReadI32Field(r, t, id, &v));
        if (v == 3) return Unsupported("parquet column chunk of INT96");
        if (v < 0 || v > 7) return Corruption("parquet column chunk: unknown physical type");
        c->physical_type = static_cast<PhysicalType>(v);
        return Status::OK();
      case 2:
        return ReadList(r, t, id, T::kI32, [&](int32_t, int32_t) -> Status {
          ST_TRY(r->ReadI32(&v));
          c->encodings.push_back(v);
          return Status::OK();
        });
      case 3:
        return ReadList(r, t, id, T::kBinary, [&](int32_t, int32_t) -> Status {
          std::string_view part;
          ST_TRY(r->ReadBinary(&part));
          c->path.emplace_back(part);
          return Status::OK();
        });
      case 4:
        ST_TRY(ReadI32Field(r, t, id, &v));
        c->codec = static_cast<Codec>(v);
        return Status::OK();
      case 5:
        return ReadI64Field(r, t, id, &c->num_values);
      case 6:
        return ReadI64Field(r, t, id, &c->total_uncompressed_size);
      case 7:
        return ReadI64Field(r, t, id, &c->total_compressed_size);
      case 9:
        return ReadI64Field(r, t, id, &c->data_page_offset);
      case 11:
        ST_TRY(ReadI64Field(r, t, id, &w));
        c->dictionary_page_offset = w;
        return Status::OK();
      case 12:
        ST_TRY(r->ExpectType(t, T::kStruct, id));
        c->statistics.emplace();
        return ReadStatistics(r, &*c->statistics);
      default:
        return r->Skip(t);
    }
  });
}

Status ReadColumnChunk(CompactReader* r, ColumnChunkInfo* c) {
  bool has_meta = false;
  bool encrypted = false;
  bool external = false;
  ST_TRY(ReadStruct(r, [&](int16_t id, ThriftType t) -> Status {
    if (id == 1 && t == T::kBinary) {
      std::string_view path;
      ST_TRY(r->ReadBinary(&path));
      external = !path.empty();
      return Status::OK();
    }
    if (id == 3) {
      ST_TRY(r->ExpectType(t, T::kStruct, id));
      return ReadColumnMetaData(r, c, &has_meta);
    }
    if (id == 8 || id == 9) encrypted = true;
    return r->Skip(t);
  }));
  if (encrypted) return Unsupported("parquet column chunk is encrypted (modular encryption)");
  if (external) return Unsupported("parquet column chunk lives in another file (file_path)");
  if (!has_meta) return Corruption("parquet column chunk without meta_data");
  return Status::OK();
}

// `leaves`: the schema's leaf count when the schema came first (as every
// writer puts it), so a hostile column list is refused before it is parsed.
Status ReadRowGroup(CompactReader* r, RowGroupInfo* g, std::optional<int32_t> leaves) {
  return ReadStruct(r, [&](int16_t id, ThriftType t) -> Status {
    int64_t w = 0;
    switch (id) {
      case 1:
        return ReadList(r, t, id, T::kStruct, [&](int32_t i, int32_t n) -> Status {
          if (i == 0 && leaves && n != *leaves) {
            return Corruption("parquet row group has " + std::to_string(n) +
                              " column chunks, the schema " + std::to_string(*leaves) +
                              " leaf columns");
          }
          g->columns.emplace_back();
          return ReadColumnChunk(r, &g->columns.back());
        });
      case 2:
        return ReadI64Field(r, t, id, &g->total_byte_size);
      case 3:
        return ReadI64Field(r, t, id, &g->num_rows);
      case 5:
        ST_TRY(ReadI64Field(r, t, id, &w));
        g->file_offset = w;
        return Status::OK();
      case 6:
        ST_TRY(ReadI64Field(r, t, id, &w));
        g->total_compressed_size = w;
        return Status::OK();
      default:
        return r->Skip(t);
    }
  });
}

}  // namespace

Result<FileMetadata> ParseFileMetadata(std::string_view footer) {
  CompactReader r(reinterpret_cast<const uint8_t*>(footer.data()), footer.size(), "parquet footer");
  FileMetadata m;
  std::vector<SchemaElement> elements;
  bool has_schema = false;
  bool has_num_rows = false;
  ST_TRY(ReadStruct(&r, [&](int16_t id, ThriftType t) -> Status {
    switch (id) {
      case 1:
        return ReadI32Field(&r, t, id, &m.version);
      case 2:
        has_schema = true;
        return ReadList(&r, t, id, T::kStruct, [&](int32_t, int32_t) -> Status {
          elements.emplace_back();
          return ReadSchemaElement(&r, &elements.back());
        });
      case 3:
        has_num_rows = true;
        return ReadI64Field(&r, t, id, &m.num_rows);
      case 4: {
        std::optional<int32_t> leaves;
        if (has_schema) {
          leaves = 0;
          for (const SchemaElement& e : elements) *leaves += e.num_children.value_or(0) > 0 ? 0 : 1;
          if (!elements.empty()) *leaves -= elements[0].num_children.value_or(0) > 0 ? 0 : 1;
        }
        return ReadList(&r, t, id, T::kStruct, [&](int32_t, int32_t) -> Status {
          m.row_groups.emplace_back();
          return ReadRowGroup(&r, &m.row_groups.back(), leaves);
        });
      }
      case 5:
        return ReadList(&r, t, id, T::kStruct, [&](int32_t, int32_t) -> Status {
          std::pair<std::string, std::string> kv;
          ST_TRY(ReadStruct(&r, [&](int16_t kid, ThriftType kt) -> Status {
            if (kid == 1) return ReadStringField(&r, kt, kid, &kv.first);
            if (kid == 2) return ReadStringField(&r, kt, kid, &kv.second);
            return r.Skip(kt);
          }));
          m.key_value_metadata.push_back(std::move(kv));
          return Status::OK();
        });
      case 6:
        return ReadStringField(&r, t, id, &m.created_by);
      case 8:
        return Unsupported("parquet file is encrypted (encryption_algorithm in the footer)");
      default:
        return r.Skip(t);
    }
  }));
  if (!has_schema || elements.empty()) return Err(Corruption("parquet footer has no schema"));
  if (!has_num_rows || m.num_rows < 0) return Err(Corruption("parquet footer has no num_rows"));
  const SchemaElement& root = elements[0];
  const int32_t top = root.num_children.value_or(0);
  if (top <= 0) return Err(Corruption("parquet schema root has no children"));
  if (static_cast<size_t>(top) > elements.size() - 1) {
    return Err(Corruption("parquet schema root claims more children than elements"));
  }
  size_t next = 1;
  std::vector<Node> fields;
  for (int32_t i = 0; i < top; ++i) {
    ST_ASSIGN_OR_RETURN(Node field, BuildNode(elements, &next, 1));
    fields.push_back(std::move(field));
  }
  if (next != elements.size()) {
    return Err(Corruption("parquet schema: " + std::to_string(elements.size() - next) +
                          " elements are not reachable from the root"));
  }
  auto schema = Schema::Make(std::move(fields));
  if (!schema.has_value()) {
    const Status& s = schema.error();
    return Err(Status(s.code() == StatusCode::kInvalidArgument ? StatusCode::kCorruption : s.code(),
                      s.message()));
  }
  m.schema = std::move(*schema);
  const auto& cols = m.schema.columns();
  for (size_t g = 0; g < m.row_groups.size(); ++g) {
    const RowGroupInfo& rg = m.row_groups[g];
    const std::string where = "parquet row group " + std::to_string(g);
    if (rg.columns.size() != cols.size()) {
      return Err(Corruption(where + " has " + std::to_string(rg.columns.size()) +
                            " column chunks, the schema " + std::to_string(cols.size()) +
                            " columns"));
    }
    if (rg.num_rows < 0) return Err(Corruption(where + ": negative num_rows"));
    for (size_t c = 0; c < cols.size(); ++c) {
      const ColumnChunkInfo& cc = rg.columns[c];
      if (cc.physical_type != cols[c].physical_type) {
        return Err(Corruption(where + " column " + cols[c].DottedPath() +
                              ": chunk physical type differs from the schema's"));
      }
      if (cc.num_values < 0 || cc.total_compressed_size < 0 || cc.data_page_offset < 0) {
        return Err(
            Corruption(where + " column " + cols[c].DottedPath() + ": negative sizes or offsets"));
      }
    }
  }
  return m;
}

}  // namespace st::parquet::internal
