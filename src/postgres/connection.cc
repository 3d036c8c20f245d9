#include "postgres/connection.h"

#include <libpq-fe.h>
#include <poll.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace st::postgres {

namespace {
Status Unavailable(std::string message) {
  return Status(StatusCode::kUnavailable, std::move(message));
}
}  // namespace

namespace {

constexpr unsigned kTextOid = 25;
constexpr unsigned kInt8Oid = 20;
constexpr unsigned kFloat8Oid = 701;
constexpr unsigned kByteaOid = 17;

// '?' and '?N' placeholders → $N, outside quoted literals and identifiers.
// A bare '?' takes one more than the largest number used so far (SQLite's
// rule), so "?, ?" and "?1 ... ?1" mean what they mean in the SQLite stores.
std::string ToDollarParams(std::string_view sql, int* count) {
  std::string out;
  out.reserve(sql.size() + 8);
  int largest = 0;
  char quote = 0;
  for (size_t i = 0; i < sql.size(); ++i) {
    char c = sql[i];
    if (quote != 0) {
      out += c;
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      out += c;
      continue;
    }
    if (c != '?') {
      out += c;
      continue;
    }
    size_t j = i + 1;
    int number = 0;
    while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') {
      number = number * 10 + (sql[j] - '0');
      ++j;
    }
    if (j == i + 1) number = largest + 1;
    if (number > largest) largest = number;
    out += '$';
    out += std::to_string(number);
    i = j - 1;
  }
  *count = largest;
  return out;
}

std::string Trimmed(const char* message) {
  std::string out = message == nullptr ? "" : message;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

// ---- Connection ----

Result<std::unique_ptr<Connection>> Connection::Open(const ConnectOptions& options) {
  char* parse_error = nullptr;
  PQconninfoOption* parsed = PQconninfoParse(options.conninfo.c_str(), &parse_error);
  if (parsed == nullptr) {
    std::string why = parse_error == nullptr ? "out of memory" : Trimmed(parse_error);
    PQfreemem(parse_error);
    return Err(InvalidArgument(options.label + ": malformed PostgreSQL connection string: " + why));
  }
  PQconninfoFree(parsed);
  const std::string timeout = std::to_string(options.connect_timeout.count());
  const char* keys[] = {"dbname", "connect_timeout", "application_name", nullptr};
  const char* values[] = {options.conninfo.c_str(), timeout.c_str(), "streamtables", nullptr};
  // expand_dbname=1: the first dbname is the whole conninfo (URI or
  // key=value); later keys fill in only what it leaves unset.
  pg_conn* conn = PQconnectdbParams(keys, values, 1);
  if (conn == nullptr) return Err(Unavailable(options.label + ": out of memory connecting"));
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string why = Trimmed(PQerrorMessage(conn));
    PQfinish(conn);
    return Err(Unavailable(options.label + ": cannot connect to PostgreSQL: " + why));
  }
  // Notices (and a server's "terminating connection" notice) are not ours
  // to print on stderr; errors reach the caller as Status.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  std::unique_ptr<Connection> out(new Connection(conn, options.label));
  ST_TRY(out->Exec("SET lock_timeout = " + std::to_string(options.lock_timeout.count()) +
                   "; SET client_min_messages = warning"));
  return out;
}

std::unique_ptr<Connection> Connection::Failed(Status why, std::string label) {
  std::unique_ptr<Connection> out(new Connection(nullptr, std::move(label)));
  out->failure_ = std::move(why);
  return out;
}

Connection::~Connection() {
  if (conn_ != nullptr) PQfinish(conn_);
}

bool Connection::broken() const { return PQstatus(conn_) != CONNECTION_OK; }

bool Connection::LooksAlive() {
  if (broken()) return false;
  int fd = PQsocket(conn_);
  if (fd < 0) return false;
  pollfd p{fd, POLLIN, 0};
  // An idle connection is sent nothing we asked for (no LISTEN): anything
  // readable is the server's termination notice or the socket's end, and
  // dropping a connection that was in fact fine costs one reconnect.
  return poll(&p, 1, 0) == 0;
}

int Connection::BackendPid() const { return conn_ == nullptr ? 0 : PQbackendPID(conn_); }

Status Connection::Error(const pg_result* result, std::string_view what) const {
  const char* state = result == nullptr ? nullptr : PQresultErrorField(result, PG_DIAG_SQLSTATE);
  std::string message =
      Trimmed(result == nullptr ? PQerrorMessage(conn_) : PQresultErrorMessage(result));
  if (message.empty()) message = Trimmed(PQerrorMessage(conn_));
  std::string text = label_ + ": " + message + " (" + std::string(what) + ")";
  std::string code = state == nullptr ? "" : state;
  if (code.empty() || broken()) {
    return Unavailable(label_ + ": lost the connection to PostgreSQL: " + message + " (" +
                       std::string(what) + ")");
  }
  if (code == "23505") return AlreadyExists(text);
  if (code.rfind("23", 0) == 0) return Conflict(text);
  if (code == "40001" || code == "40P01" || code == "55P03" || code == "57014" ||
      code.rfind("53", 0) == 0 || code.rfind("08", 0) == 0 || code.rfind("57P0", 0) == 0) {
    return Unavailable(text);
  }
  if (code == "XX001" || code == "XX002") return Status(StatusCode::kCorruption, text);
  return IoError(text);
}

Status Connection::Exec(std::string_view sql) {
  if (conn_ == nullptr) return failure_;
  pg_result* result = PQexec(conn_, std::string(sql).c_str());
  ExecStatusType status = result == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(result);
  Status out;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    std::string what(sql.substr(0, 80));
    out = Error(result, what);
  }
  PQclear(result);
  return out;
}

Result<Statement> Connection::Prepare(std::string_view sql) {
  if (conn_ == nullptr) return Err(failure_);
  int count = 0;
  std::string translated = ToDollarParams(sql, &count);
  Statement stmt(*this, std::move(translated));
  stmt.params_.resize(static_cast<size_t>(count));
  stmt.types_.assign(static_cast<size_t>(count), 0);
  return stmt;
}

// ---- Statement ----

Statement::Statement(Statement&& other) noexcept
    : conn_(other.conn_),
      sql_(std::move(other.sql_)),
      params_(std::move(other.params_)),
      types_(std::move(other.types_)),
      bind_error_(std::move(other.bind_error_)),
      result_(std::exchange(other.result_, nullptr)),
      executed_(other.executed_),
      row_(other.row_),
      changes_(other.changes_) {}

Statement::~Statement() { PQclear(result_); }

void Statement::Set(int index, std::optional<std::string> value, unsigned type_oid) {
  if (index < 1 || static_cast<size_t>(index) > params_.size()) {
    if (bind_error_.ok()) {
      bind_error_ = Internal(conn_->label() + ": parameter " + std::to_string(index) +
                             " out of range (" + sql_.substr(0, 80) + ")");
    }
    return;
  }
  params_[static_cast<size_t>(index - 1)] = std::move(value);
  types_[static_cast<size_t>(index - 1)] = type_oid;
}

Statement& Statement::Bind(int index, std::string_view text) {
  Set(index, std::string(text), kTextOid);
  return *this;
}
Statement& Statement::Bind(int index, int64_t value) {
  Set(index, std::to_string(value), kInt8Oid);
  return *this;
}
Statement& Statement::BindDouble(int index, double value) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", value);
  Set(index, std::string(buf), kFloat8Oid);
  return *this;
}
Statement& Statement::BindBlob(int index, std::string_view bytes) {
  // bytea in its text form: \x then two hex digits a byte.
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex = "\\x";
  hex.reserve(2 + bytes.size() * 2);
  for (unsigned char c : bytes) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  Set(index, std::move(hex), kByteaOid);
  return *this;
}
Statement& Statement::BindNull(int index) {
  Set(index, std::nullopt, 0);
  return *this;
}
Statement& Statement::BindOptional(int index, const std::optional<std::string>& text) {
  if (text.has_value()) return Bind(index, std::string_view(*text));
  Set(index, std::nullopt, kTextOid);
  return *this;
}

Status Statement::Execute() {
  executed_ = true;
  std::vector<const char*> values(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) {
    values[i] = params_[i].has_value() ? params_[i]->c_str() : nullptr;
  }
  result_ = PQexecParams(conn_->conn_, sql_.c_str(), static_cast<int>(params_.size()),
                         types_.data(), values.data(), nullptr, nullptr, 0);
  ExecStatusType status = result_ == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(result_);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    Status error = conn_->Error(result_, sql_.substr(0, 120));
    PQclear(result_);
    result_ = nullptr;
    return error;
  }
  const char* tuples = PQcmdTuples(result_);
  changes_ = tuples == nullptr || *tuples == '\0' ? 0 : std::strtoll(tuples, nullptr, 10);
  conn_->changes_ = changes_;
  return Status::OK();
}

Result<bool> Statement::Step() {
  if (!bind_error_.ok()) return Err(bind_error_);
  if (!executed_) ST_TRY(Execute());
  if (result_ == nullptr) return false;
  ++row_;
  return row_ < PQntuples(result_);
}

Status Statement::Run() {
  while (true) {
    ST_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return Status::OK();
  }
}

bool Statement::IsNull(int column) const {
  return result_ == nullptr || row_ < 0 || row_ >= PQntuples(result_) ||
         column >= PQnfields(result_) || PQgetisnull(result_, row_, column) != 0;
}

std::string Statement::Text(int column) const {
  if (IsNull(column)) return "";
  return std::string(PQgetvalue(result_, row_, column),
                     static_cast<size_t>(PQgetlength(result_, row_, column)));
}

std::optional<std::string> Statement::OptionalText(int column) const {
  if (IsNull(column)) return std::nullopt;
  return Text(column);
}

int64_t Statement::Int64(int column) const {
  if (IsNull(column)) return 0;
  return std::strtoll(PQgetvalue(result_, row_, column), nullptr, 10);
}

double Statement::Double(int column) const {
  if (IsNull(column)) return 0.0;
  return std::strtod(PQgetvalue(result_, row_, column), nullptr);
}

bool Statement::IsBlob(int column) const {
  return !IsNull(column) && PQftype(result_, column) == kByteaOid;
}

std::string Statement::Blob(int column) const {
  std::string text = Text(column);
  if (!IsBlob(column) || text.size() < 2 || text[0] != '\\' || text[1] != 'x') return text;
  std::string out;
  out.reserve((text.size() - 2) / 2);
  for (size_t i = 2; i + 1 < text.size(); i += 2) {
    int hi = HexValue(text[i]);
    int lo = HexValue(text[i + 1]);
    if (hi < 0 || lo < 0) break;
    out += static_cast<char>((hi << 4) | lo);
  }
  return out;
}

// ---- Transaction ----

Transaction::Transaction(Connection& conn, std::optional<int64_t> writer_lock_key) : conn_(conn) {
  begin_status_ = conn_.Exec("BEGIN");
  open_ = begin_status_.ok();
  if (open_ && writer_lock_key.has_value()) {
    begin_status_ =
        conn_.Exec("SELECT pg_advisory_xact_lock(" + std::to_string(*writer_lock_key) + ")");
    if (begin_status_.code() == StatusCode::kUnavailable && !conn_.broken()) {
      begin_status_ = Unavailable(conn_.label() +
                                  ": another writer held the catalog write lock past the lock "
                                  "timeout; retry");
    }
  }
}

Transaction::~Transaction() {
  if (open_ && !conn_.broken()) (void)conn_.Exec("ROLLBACK");
}

Status Transaction::Commit(StatusCode failure_code) {
  if (conn_.conn_ == nullptr) return conn_.failure_;
  pg_result* result = PQexec(conn_.conn_, "COMMIT");
  ExecStatusType status = result == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(result);
  Status out;
  if (status == PGRES_COMMAND_OK) {
    // COMMIT of a transaction that had already failed answers ROLLBACK.
    if (std::strcmp(PQcmdStatus(result), "COMMIT") != 0) {
      out = Conflict(conn_.label() + ": the transaction was rolled back by the server");
    }
  } else if (conn_.broken() || result == nullptr) {
    out = Status(failure_code, conn_.label() + ": lost the connection during COMMIT: " +
                                   Trimmed(PQerrorMessage(conn_.conn_)));
  } else {
    // The server answered with an error: it rolled back (a serialization
    // failure at commit, say): nothing applied.
    out = conn_.Error(result, "COMMIT");
  }
  PQclear(result);
  open_ = false;
  return out;
}

}  // namespace st::postgres
