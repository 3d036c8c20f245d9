// SQLite statements are sql::Statement values (sql/statement.h) over the
// SQLite cursor of statement.cc; the name stays for code that says sqlite::.
#pragma once

#include "sql/statement.h"

namespace st::sqlite {

using Statement = ::st::sql::Statement;

}  // namespace st::sqlite
