#include "sql/transaction.h"

namespace st::sql {

Transaction::Transaction(Connection& db, std::string_view begin_sql) : db_(db) {
  begin_status_ = db_.Exec(begin_sql);
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
  if (status.code() == StatusCode::kUnavailable && IsRetryable(db_.last_error())) return status;
  return Status(failure_code, status.message());
}

}  // namespace st::sql
