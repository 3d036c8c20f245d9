#include "cli/builtin_tables.h"
#include "iceberg/types.h"

namespace st::cli {
namespace {

using iceberg::NestedField;
using iceberg::Type;

constexpr int64_t kTs2024 = 1'704'067'200'000'000LL;  // 2024-01-01T00:00:00Z

// Null 1/8, empty 1/8, else `make(count)` with 1..4 elements.
template <typename Make>
Value Collection(RowRandom& r, Make make, Value empty) {
  int64_t k = r.Uniform(0, 7);
  if (k == 0) return Value::Null();
  if (k == 1) return empty;
  return make(static_cast<int>(r.Uniform(1, 4)));
}

Value MaybeNull(RowRandom& r, Value v) { return r.OneIn(6) ? Value::Null() : std::move(v); }

}  // namespace

Result<BuiltinTable> MakeNestedTable() {
  auto inner = Type::Struct({{6, "x", false, Type::String()}, {7, "y", false, Type::Double()}});
  auto outer = Type::Struct({{4, "a", false, Type::Int()}, {5, "inner", false, inner}});
  auto point =
      Type::Struct({{12, "x", true, Type::Double()}, {13, "label", false, Type::String()}});
  std::vector<NestedField> fields = {
      {1, "id", true, Type::Long()},
      {2, "ts", false, Type::TimestampTz()},
      {3, "outer", false, outer},
      {8, "ints", false, Type::List(9, false, Type::Int())},
      {10, "points", false, Type::List(11, false, point)},
      {14, "attrs", false, Type::Map(15, Type::String(), 16, false, Type::Long())},
      {17, "tags", false,
       Type::Map(18, Type::String(), 19, false, Type::List(20, false, Type::String()))},
      {21, "req_struct", true,
       Type::Struct({{22, "n", true, Type::Int()},
                     {23, "names", false, Type::List(24, true, Type::String())}})},
  };
  ST_ASSIGN_OR_RETURN(auto schema, iceberg::Schema::Make(0, std::move(fields)));

  auto make_row = [](RowRandom& r, int64_t index) -> Value {
    Value::Struct row;
    row.push_back(Value::Int64(index));
    row.push_back(MaybeNull(r, Value::Int64(kTs2024 + r.Uniform(0, 3 * kMicrosPerDay - 1))));

    Value inner_v =
        MaybeNull(r, Value::MakeStruct({MaybeNull(r, Value::String(RandomUnicodeString(r, 8))),
                                        MaybeNull(r, Value::Double(r.UnitDouble() * 100 - 50))}));
    row.push_back(MaybeNull(
        r, Value::MakeStruct(
               {MaybeNull(r, Value::Int32(static_cast<int32_t>(r.Uniform(-50, 50)))), inner_v})));

    row.push_back(Collection(
        r,
        [&](int n) {
          Value::List l;
          for (int i = 0; i < n; ++i) {
            l.push_back(MaybeNull(r, Value::Int32(static_cast<int32_t>(r.Uniform(-1000, 1000)))));
          }
          return Value::MakeList(std::move(l));
        },
        Value::MakeList({})));

    row.push_back(Collection(
        r,
        [&](int n) {
          Value::List l;
          for (int i = 0; i < n; ++i) {
            l.push_back(MaybeNull(
                r, Value::MakeStruct({Value::Double(static_cast<double>(r.Uniform(-99, 99)) / 4),
                                      MaybeNull(r, Value::String(RandomUnicodeString(r, 6)))})));
          }
          return Value::MakeList(std::move(l));
        },
        Value::MakeList({})));

    row.push_back(Collection(
        r,
        [&](int n) {
          Value::Map m;
          for (int i = 0; i < n; ++i) {  // Keys are distinct by construction.
            m.emplace_back(Value::String("k" + std::to_string(i) + RandomUnicodeString(r, 3)),
                           MaybeNull(r, Value::Int64(static_cast<int64_t>(r.Next()))));
          }
          return Value::MakeMap(std::move(m));
        },
        Value::MakeMap({})));

    row.push_back(Collection(
        r,
        [&](int n) {
          Value::Map m;
          for (int i = 0; i < n; ++i) {
            Value list = Collection(
                r,
                [&](int k) {
                  Value::List l;
                  for (int j = 0; j < k; ++j) {
                    l.push_back(MaybeNull(r, Value::String(RandomUnicodeString(r, 5))));
                  }
                  return Value::MakeList(std::move(l));
                },
                Value::MakeList({}));
            m.emplace_back(Value::String(i == 0 ? std::string() : "tag" + std::to_string(i)),
                           std::move(list));
          }
          return Value::MakeMap(std::move(m));
        },
        Value::MakeMap({})));

    Value::List names;
    int64_t name_count = r.Uniform(0, 3);
    for (int64_t i = 0; i < name_count; ++i)
      names.push_back(Value::String(RandomUnicodeString(r, 4)));
    row.push_back(
        Value::MakeStruct({Value::Int32(static_cast<int32_t>(index % 1000)),
                           r.OneIn(5) ? Value::Null() : Value::MakeList(std::move(names))}));
    return Value::MakeStruct(std::move(row));
  };
  return BuiltinTable{std::move(schema), make_row};
}

}  // namespace st::cli
