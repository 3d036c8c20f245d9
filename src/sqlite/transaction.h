// A write transaction on a Database.
#pragma once

#include "common/status.h"
#include "sqlite/database.h"

namespace st::sqlite {

// BEGIN IMMEDIATE on construction, so the write lock is taken up front (waiting
// up to the busy timeout) and a transaction never fails half-way for a lock
// upgrade; check status() before using it. Rolls back on destruction unless
// Commit() succeeded. The Database must outlive it.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // Errors of BEGIN: Unavailable (another writer held the lock past the busy
  // timeout), Io.
  const Status& status() const { return begin_status_; }
  // Errors: Unavailable (busy; the transaction stays open and rolls back at
  // destruction), otherwise `failure_code` with SQLite's message: a caller
  // whose commit outcome matters passes CommitStateUnknown, because a failed
  // COMMIT's outcome is not knowable from here.
  Status Commit(StatusCode failure_code = StatusCode::kIo);

 private:
  Database& db_;
  Status begin_status_;
  bool open_ = false;
};

}  // namespace st::sqlite
