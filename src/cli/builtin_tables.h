// The built-in test tables of `streamtables dev write-table`: a schema and a
// deterministic row generator each.
//
//   all-types    every Iceberg primitive, with nulls, NaN, ±inf, -0.0, integer
//                and decimal extremes, pre-1970 dates and timestamps, unicode
//                (incl. 4-byte code points), empty strings and binaries.
//   nested       structs in structs, list<int>, list<struct>, map<string,long>,
//                map<string,list<string>>, with nulls and empties at each level.
//   clickstream  ~20 columns shaped like a real delivery (low-cardinality
//                strings, a timestamptz `ts` spread over ten days, a geo struct).
//
// Every table has `id long required` (the row's global index) and a `ts`
// timestamptz column, so `--partition-by 'day(ts)'` works on all of them.
// Rows are st::Value Structs in the schema's field order (types.h mapping).
// These are test data, not product code.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/row_random.h"
#include "common/status.h"
#include "common/value.h"
#include "iceberg/schema.h"

namespace st::cli {

// Microseconds in a day (the tables' timestamp generators).
inline constexpr int64_t kMicrosPerDay = 86'400'000'000LL;

struct BuiltinTable {
  iceberg::Schema schema;
  // Row number `index` (0-based over the whole table); draws only from `random`.
  std::function<Value(RowRandom& random, int64_t index)> make_row;
};

// Errors: InvalidArgument listing the known names.
Result<BuiltinTable> MakeBuiltinTable(std::string_view name);
std::vector<std::string> BuiltinTableNames();

// Per-table makers (one file each).
Result<BuiltinTable> MakeAllTypesTable();
Result<BuiltinTable> MakeNestedTable();
Result<BuiltinTable> MakeClickstreamTable();

// Shared value makers for the generators.
// A random UTF-8 string of `max_code_points` or fewer code points drawn from
// ASCII, 2-, 3- and 4-byte ranges.
std::string RandomUnicodeString(RowRandom& random, int max_code_points);
// `length` random bytes.
std::string RandomBytes(RowRandom& random, int length);
// A random version-4 UUID as 16 big-endian bytes.
std::string RandomUuidBytes(RowRandom& random);

}  // namespace st::cli
