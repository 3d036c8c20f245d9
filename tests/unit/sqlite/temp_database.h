// Test fixture: a temporary directory holding one database file, opened
// through st::sqlite::Database.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "sqlite/database.h"

namespace st::sqlite {

class TempDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-sqlite-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    db_ = Open();
    ASSERT_NE(db_, nullptr);
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::string DbPath() const { return dir_ + "/test.db"; }

  // Another connection to the same file, as a second process would have.
  std::unique_ptr<Database> Open(std::chrono::milliseconds busy_timeout = std::chrono::seconds(5)) {
    auto db =
        Database::Open({.path = DbPath(), .label = "test database", .busy_timeout = busy_timeout});
    EXPECT_TRUE(db.has_value()) << db.error().ToString();
    return db.has_value() ? *std::move(db) : nullptr;
  }

  // The single value `sql` returns, as text.
  std::string Query(Database& db, const std::string& sql) {
    auto stmt = db.Prepare(sql);
    EXPECT_TRUE(stmt.has_value()) << stmt.error().ToString();
    if (!stmt.has_value()) return "<error>";
    auto row = stmt->Step();
    EXPECT_TRUE(row.has_value() && *row) << sql;
    return row.has_value() && *row ? stmt->Text(0) : "<no row>";
  }

  std::string dir_;
  std::unique_ptr<Database> db_;
};

}  // namespace st::sqlite
