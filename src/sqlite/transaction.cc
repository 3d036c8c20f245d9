#include "sqlite/transaction.h"

namespace st::sqlite {

Transaction::Transaction(Database& db) : db_(db) {
  begin_status_ = db_.Exec("BEGIN IMMEDIATE");
  open_ = begin_status_.ok();
}

Transaction::~Transaction() {
  if (open_) (void)db_.Exec("ROLLBACK");
}

Status Transaction::Commit(StatusCode failure_code) {
  Status status = db_.Exec("COMMIT");
  if (status.ok()) {
    open_ = false;
    return status;
  }
  if (status.code() == StatusCode::kUnavailable) return status;
  return Status(failure_code, status.message());
}

}  // namespace st::sqlite
