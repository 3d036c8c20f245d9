// SQLite migrations are the shared sql::Migrate (sql/migrations.h); the names
// stay for code that says sqlite::.
#pragma once

#include "sql/migrations.h"
#include "sqlite/database.h"

namespace st::sqlite {

using ::st::sql::Migrate;
using ::st::sql::Migration;
using ::st::sql::SchemaVersion;

}  // namespace st::sqlite
