#include "sqlite/statement.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "temp_database.h"

namespace st::sqlite {
namespace {

class StatementTest : public TempDatabaseTest {
 protected:
  void SetUp() override {
    TempDatabaseTest::SetUp();
    ASSERT_TRUE(db_->Exec(R"sql(
      CREATE TABLE parent (id TEXT PRIMARY KEY);
      CREATE TABLE v (
        id    INTEGER PRIMARY KEY,
        name  TEXT UNIQUE,
        n     INTEGER,
        x     REAL,
        note  TEXT,
        parent_id TEXT REFERENCES parent(id),
        CHECK (n IS NULL OR n >= 0));
      )sql")
                    .ok());
  }
};

TEST_F(StatementTest, BindsAndReadsEveryType) {
  const std::string with_nul("a\0b", 3);
  auto insert = db_->Prepare("INSERT INTO v(id, name, n, x, note) VALUES (?, ?, ?, ?, ?)");
  ASSERT_TRUE(insert.has_value()) << insert.error().ToString();
  ASSERT_TRUE(insert->Bind(1, int64_t{1})
                  .Bind(2, with_nul)
                  .Bind(3, int64_t{9007199254740993})  // Beyond a double's exact range.
                  .BindDouble(4, -2.5)
                  .BindOptional(5, std::string("note"))
                  .Run()
                  .ok());
  auto nulls = db_->Prepare("INSERT INTO v(id, name, n, x, note) VALUES (?, ?, ?, ?, ?)");
  ASSERT_TRUE(nulls.has_value());
  ASSERT_TRUE(nulls->Bind(1, int64_t{2})
                  .BindNull(2)
                  .BindNull(3)
                  .BindNull(4)
                  .BindOptional(5, std::nullopt)
                  .Run()
                  .ok());

  auto select = db_->Prepare("SELECT name, n, x, note FROM v WHERE id = ?");
  ASSERT_TRUE(select.has_value());
  auto row = select->Bind(1, int64_t{1}).Step();
  ASSERT_TRUE(row.has_value() && *row);
  EXPECT_EQ(select->Text(0), with_nul);
  EXPECT_EQ(select->Int64(1), int64_t{9007199254740993});
  EXPECT_DOUBLE_EQ(select->Double(2), -2.5);
  EXPECT_EQ(select->OptionalText(3), std::optional<std::string>("note"));
  EXPECT_FALSE(select->IsNull(3));
  auto done = select->Step();
  ASSERT_TRUE(done.has_value());
  EXPECT_FALSE(*done);

  auto select_nulls = db_->Prepare("SELECT name, n, x, note FROM v WHERE id = 2");
  ASSERT_TRUE(select_nulls.has_value());
  row = select_nulls->Step();
  ASSERT_TRUE(row.has_value() && *row);
  for (int column = 0; column < 4; ++column) EXPECT_TRUE(select_nulls->IsNull(column)) << column;
  EXPECT_EQ(select_nulls->Text(0), "");
  EXPECT_EQ(select_nulls->Int64(1), 0);
  EXPECT_EQ(select_nulls->Double(2), 0.0);
  EXPECT_EQ(select_nulls->OptionalText(3), std::nullopt);
}

TEST_F(StatementTest, NumberedParametersBindOnce) {
  auto stmt = db_->Prepare("SELECT ?1 || ?1");
  ASSERT_TRUE(stmt.has_value());
  auto row = stmt->Bind(1, "ab").Step();
  ASSERT_TRUE(row.has_value() && *row);
  EXPECT_EQ(stmt->Text(0), "abab");
}

TEST_F(StatementTest, BindErrorSurfacesAtStep) {
  auto stmt = db_->Prepare("SELECT ?");
  ASSERT_TRUE(stmt.has_value());
  auto row = stmt->Bind(2, "out of range").Step();
  ASSERT_FALSE(row.has_value());
  EXPECT_EQ(row.error().code(), StatusCode::kIo);
  EXPECT_NE(row.error().message().find("binding a parameter"), std::string::npos)
      << row.error().message();
}

TEST_F(StatementTest, UniquenessViolationIsAlreadyExists) {
  ASSERT_TRUE(db_->Exec("INSERT INTO v(id, name) VALUES (1, 'a')").ok());
  auto same_key = db_->Prepare("INSERT INTO v(id, name) VALUES (1, 'b')");
  ASSERT_TRUE(same_key.has_value());
  Status primary = same_key->Run();
  EXPECT_EQ(primary.code(), StatusCode::kAlreadyExists) << primary.ToString();
  EXPECT_NE(primary.message().find("INSERT INTO v(id, name) VALUES (1, 'b')"), std::string::npos)
      << primary.message();

  auto same_name = db_->Prepare("INSERT INTO v(id, name) VALUES (2, 'a')");
  ASSERT_TRUE(same_name.has_value());
  EXPECT_EQ(same_name->Run().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(db_->Exec("INSERT INTO v(id, name) VALUES (3, 'a')").code(),
            StatusCode::kAlreadyExists);
}

TEST_F(StatementTest, OtherConstraintViolationsAreConflict) {
  auto check = db_->Prepare("INSERT INTO v(id, n) VALUES (1, -1)");
  ASSERT_TRUE(check.has_value());
  EXPECT_EQ(check->Run().code(), StatusCode::kConflict);
  // Foreign keys are enforced (the pragma is on).
  auto orphan = db_->Prepare("INSERT INTO v(id, parent_id) VALUES (2, 'missing')");
  ASSERT_TRUE(orphan.has_value());
  Status status = orphan->Run();
  EXPECT_EQ(status.code(), StatusCode::kConflict) << status.ToString();
  EXPECT_NE(status.message().find("FOREIGN KEY"), std::string::npos) << status.message();
}

TEST_F(StatementTest, RowLoopsVisitEveryRow) {
  ASSERT_TRUE(db_->Exec("INSERT INTO v(id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')").ok());
  auto stmt = db_->Prepare("SELECT id, name FROM v ORDER BY id");
  ASSERT_TRUE(stmt.has_value());
  auto names = stmt->ReadRows([](const Statement& row) { return row.Text(1); });
  ASSERT_TRUE(names.has_value()) << names.error().ToString();
  EXPECT_EQ(*names, (std::vector<std::string>{"a", "b", "c"}));

  auto again = db_->Prepare("SELECT id, name FROM v WHERE id > ?");
  ASSERT_TRUE(again.has_value());
  std::map<int64_t, std::string> by_id;
  ASSERT_TRUE(again->Bind(1, int64_t{1})
                  .ForEachRow([&](const Statement& row) { by_id[row.Int64(0)] = row.Text(1); })
                  .ok());
  EXPECT_EQ(by_id, (std::map<int64_t, std::string>{{2, "b"}, {3, "c"}}));

  auto none = db_->Prepare("SELECT name FROM v WHERE id > 100");
  ASSERT_TRUE(none.has_value());
  auto empty = none->ReadRows([](const Statement& row) { return row.Text(0); });
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->empty());
}

TEST_F(StatementTest, RowLoopReturnsAStepError) {
  auto stmt = db_->Prepare("SELECT ?");
  ASSERT_TRUE(stmt.has_value());
  stmt->Bind(5, int64_t{1});
  auto rows = stmt->ReadRows([](const Statement& row) { return row.Int64(0); });
  ASSERT_FALSE(rows.has_value());
  EXPECT_EQ(rows.error().code(), StatusCode::kIo);
}

TEST_F(StatementTest, MovedStatementKeepsWorking) {
  auto prepared = db_->Prepare("SELECT 42");
  ASSERT_TRUE(prepared.has_value());
  Statement moved(std::move(*prepared));
  auto row = moved.Step();
  ASSERT_TRUE(row.has_value() && *row);
  EXPECT_EQ(moved.Int64(0), 42);
}

}  // namespace
}  // namespace st::sqlite
