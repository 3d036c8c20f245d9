#include "sql/statement.h"

namespace st::sql {

Status Statement::Run() {
  while (true) {
    ST_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return Status::OK();
  }
}

}  // namespace st::sql
