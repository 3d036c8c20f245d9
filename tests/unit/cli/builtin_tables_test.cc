#include "cli/builtin_tables.h"

#include <gtest/gtest.h>

#include "cli/row_json.h"
#include "cli/write_table_command.h"

namespace st::cli {
namespace {

TEST(BuiltinTablesTest, RowsAreAPureFunctionOfSeedAndIndexAndFitTheSchema) {
  for (const auto& name : BuiltinTableNames()) {
    auto table = MakeBuiltinTable(name);
    ASSERT_TRUE(table.has_value()) << name;
    for (int64_t i = 0; i < 200; ++i) {
      RowRandom a(RowSeed(5, i));
      RowRandom b(RowSeed(5, i));
      // Compared as JSON: rows may hold NaN, which Value's == never matches.
      auto line = RowToJsonLine(table->schema, table->make_row(a, i));
      ASSERT_TRUE(line.has_value()) << name << ": " << line.error().ToString();
      EXPECT_EQ(*line, *RowToJsonLine(table->schema, table->make_row(b, i))) << name << " " << i;
    }
  }
  EXPECT_FALSE(MakeBuiltinTable("nope").has_value());
}

}  // namespace
}  // namespace st::cli
