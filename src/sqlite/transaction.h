// SQLite write transactions are sql::Transaction (BEGIN IMMEDIATE through the
// SQLite dialect); the name stays for code that says sqlite::.
#pragma once

#include "sql/transaction.h"
#include "sqlite/database.h"

namespace st::sqlite {

using Transaction = ::st::sql::Transaction;

}  // namespace st::sqlite
