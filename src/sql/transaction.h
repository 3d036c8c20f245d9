// A write transaction on a Connection.
#pragma once

#include <string_view>

#include "common/status.h"
#include "sql/connection.h"

namespace st::sql {

// Begins on construction with the dialect's BeginWrite() (SQLite: BEGIN
// IMMEDIATE, so the write lock is taken up front, waiting up to the busy
// timeout; PostgreSQL: SERIALIZABLE) or with `begin_sql`; check status()
// before using it. Rolls back on destruction unless Commit() succeeded. The
// Connection must outlive it.
class Transaction {
 public:
  explicit Transaction(Connection& db) : Transaction(db, db.dialect().BeginWrite()) {}
  Transaction(Connection& db, std::string_view begin_sql);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // Errors of BEGIN: Unavailable (another writer held the lock past the busy
  // timeout), Io.
  const Status& status() const { return begin_status_; }
  // Errors: Unavailable (busy, or a serialization failure: nothing was
  // committed; the transaction rolls back at destruction), otherwise
  // `failure_code` with the database's message: a caller whose commit
  // outcome matters passes CommitStateUnknown, because a failed COMMIT's
  // outcome (a connection lost while committing) is not knowable from here.
  Status Commit(StatusCode failure_code = StatusCode::kIo);

 private:
  Connection& db_;
  Status begin_status_;
  bool open_ = false;
};

}  // namespace st::sql
