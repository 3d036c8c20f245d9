#include "postgres/connection.h"

#include <libpq-fe.h>

#include <cstdlib>
#include <optional>
#include <utility>

namespace st::postgres {

namespace {

// Type OIDs of the parameters we bind (pg_type.dat).
constexpr Oid kInt8 = 20;
constexpr Oid kText = 25;
constexpr Oid kFloat8 = 701;
constexpr Oid kBytea = 17;

constexpr sql::Dialect kPostgresDialect(sql::Backend::kPostgres);

sql::ErrorKind KindFor(std::string_view sqlstate) {
  if (sqlstate == "40001" || sqlstate == "40P01") return sql::ErrorKind::kSerializationFailure;
  if (sqlstate == "23505") return sql::ErrorKind::kUniqueViolation;
  if (sqlstate.starts_with("23")) return sql::ErrorKind::kConstraintViolation;
  // Class 08: connection exception; 57P01-03: the server is shutting down.
  if (sqlstate.starts_with("08") || sqlstate.starts_with("57P")) {
    return sql::ErrorKind::kConnectionLost;
  }
  if (sqlstate == "XX001" || sqlstate == "XX002") return sql::ErrorKind::kCorruption;
  return sql::ErrorKind::kOther;
}

StatusCode CodeFor(sql::ErrorKind kind) {
  switch (kind) {
    case sql::ErrorKind::kSerializationFailure:
    case sql::ErrorKind::kConnectionLost:
    case sql::ErrorKind::kBusy:
      return StatusCode::kUnavailable;
    case sql::ErrorKind::kUniqueViolation:
      return StatusCode::kAlreadyExists;
    case sql::ErrorKind::kConstraintViolation:
      return StatusCode::kConflict;
    case sql::ErrorKind::kCorruption:
      return StatusCode::kCorruption;
    default:
      return StatusCode::kIo;
  }
}

struct ResultDeleter {
  void operator()(PGresult* result) const { PQclear(result); }
};
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;

bool Succeeded(const PGresult* result) {
  ExecStatusType status = PQresultStatus(result);
  return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

int64_t ChangedRows(const PGresult* result) {
  const char* tuples = PQcmdTuples(const_cast<PGresult*>(result));
  return tuples != nullptr && *tuples != '\0' ? std::strtoll(tuples, nullptr, 10) : 0;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 0;
}

class PostgresCursor final : public sql::Cursor {
 public:
  PostgresCursor(Connection& db, std::string sql, int params)
      : db_(db),
        sql_(std::move(sql)),
        values_(static_cast<size_t>(params)),
        types_(static_cast<size_t>(params), 0),
        formats_(static_cast<size_t>(params), 0) {}

  Status BindText(int index, std::string_view text) override {
    return Set(index, std::string(text), kText, 0);
  }
  Status BindInt64(int index, int64_t value) override {
    return Set(index, std::to_string(value), kInt8, 0);
  }
  Status BindDouble(int index, double value) override {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.17g", value);
    return Set(index, buffer, kFloat8, 0);
  }
  // Sent in binary format: the bytes as they are.
  Status BindBlob(int index, std::string_view bytes) override {
    return Set(index, std::string(bytes), kBytea, 1);
  }
  // A text-typed NULL: the stores bind NULL only for optional text
  // (BindOptional), and an untyped one leaves "? IS NULL" without a type.
  Status BindNull(int index) override {
    ST_TRY(CheckIndex(index));
    values_[static_cast<size_t>(index - 1)].reset();
    types_[static_cast<size_t>(index - 1)] = kText;
    return Status::OK();
  }

  // The statement runs at the first Step (all its rows come back at once:
  // catalog queries are bounded by their LIMIT); later Steps walk the rows.
  Result<bool> Step() override {
    if (result_ == nullptr) {
      ST_ASSIGN_OR_RETURN(pg_conn * conn, db_.Handle());
      std::vector<const char*> values;
      std::vector<int> lengths;
      for (const auto& value : values_) {
        values.push_back(value.has_value() ? value->data() : nullptr);
        lengths.push_back(value.has_value() ? static_cast<int>(value->size()) : 0);
      }
      ResultPtr result(PQexecParams(conn, sql_.c_str(), static_cast<int>(values.size()),
                                    types_.data(), values.data(), lengths.data(), formats_.data(),
                                    /*resultFormat=*/0));
      if (result == nullptr || !Succeeded(result.get())) {
        return Err(db_.Failure(result.get(), sql_.substr(0, 80)));
      }
      db_.SetChanges(ChangedRows(result.get()));
      result_ = std::move(result);
      row_ = -1;
    }
    ++row_;
    return row_ < PQntuples(result_.get());
  }

  std::string Text(int column) const override {
    if (IsNull(column)) return "";
    if (IsBlob(column)) return Blob(column);
    return std::string(PQgetvalue(result_.get(), row_, column),
                       static_cast<size_t>(PQgetlength(result_.get(), row_, column)));
  }
  int64_t Int64(int column) const override {
    if (IsNull(column)) return 0;
    return std::strtoll(PQgetvalue(result_.get(), row_, column), nullptr, 10);
  }
  double Double(int column) const override {
    if (IsNull(column)) return 0.0;
    return std::strtod(PQgetvalue(result_.get(), row_, column), nullptr);
  }
  bool IsNull(int column) const override { return PQgetisnull(result_.get(), row_, column) != 0; }
  bool IsBlob(int column) const override { return PQftype(result_.get(), column) == kBytea; }
  // bytea arrives in the text format's hex form, "\x0a1b...".
  std::string Blob(int column) const override {
    if (IsNull(column)) return "";
    std::string_view text(PQgetvalue(result_.get(), row_, column),
                          static_cast<size_t>(PQgetlength(result_.get(), row_, column)));
    if (!IsBlob(column) || !text.starts_with("\\x")) return std::string(text);
    std::string bytes;
    bytes.reserve(text.size() / 2);
    for (size_t i = 2; i + 1 < text.size(); i += 2) {
      bytes += static_cast<char>((HexValue(text[i]) << 4) | HexValue(text[i + 1]));
    }
    return bytes;
  }

 private:
  Status CheckIndex(int index) const {
    if (index < 1 || static_cast<size_t>(index) > values_.size()) {
      return Internal("parameter " + std::to_string(index) +
                      " is out of range for: " + sql_.substr(0, 80));
    }
    return Status::OK();
  }
  Status Set(int index, std::string value, Oid type, int format) {
    ST_TRY(CheckIndex(index));
    auto i = static_cast<size_t>(index - 1);
    values_[i] = std::move(value);
    types_[i] = type;
    formats_[i] = format;
    return Status::OK();
  }

  Connection& db_;
  std::string sql_;
  std::vector<std::optional<std::string>> values_;
  std::vector<Oid> types_;
  std::vector<int> formats_;
  ResultPtr result_;
  int row_ = -1;
};

}  // namespace

std::string RedactedUrl(std::string_view url) {
  size_t scheme = url.find("://");
  size_t at = url.find('@');
  if (scheme == std::string_view::npos || at == std::string_view::npos || at < scheme) {
    return std::string(url);
  }
  size_t colon = url.find(':', scheme + 3);
  if (colon == std::string_view::npos || colon > at) return std::string(url);
  return std::string(url.substr(0, colon + 1)) + "***" + std::string(url.substr(at));
}

std::string TranslatePlaceholders(std::string_view sql, int& params) {
  std::string out;
  out.reserve(sql.size() + 16);
  params = 0;
  int next = 0;
  char quote = 0;
  for (size_t i = 0; i < sql.size(); ++i) {
    char c = sql[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      out += c;
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
    size_t digits = i + 1;
    while (digits < sql.size() && sql[digits] >= '0' && sql[digits] <= '9') ++digits;
    int number =
        digits > i + 1 ? std::atoi(std::string(sql.substr(i + 1, digits - i - 1)).c_str()) : ++next;
    if (digits > i + 1) next = number;
    if (number > params) params = number;
    out += '$' + std::to_string(number);
    i = digits - 1;
  }
  return out;
}

Result<std::unique_ptr<Connection>> Connection::Open(const ConnectOptions& options) {
  pg_conn* conn = PQconnectdb(options.url.c_str());
  if (conn == nullptr || PQstatus(conn) != CONNECTION_OK) {
    std::string message = conn != nullptr ? PQerrorMessage(conn) : "out of memory";
    PQfinish(conn);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    return Err(Status(StatusCode::kUnavailable,
                      "cannot connect to " + options.label + " '" + RedactedUrl(options.url) +
                          "': " + message + "; check that PostgreSQL runs and the URL is right"));
  }
  // Notices and warnings ("there is no transaction in progress" after a
  // lost transaction's ROLLBACK, ...) are not errors and must not reach
  // stderr; the processor stays across PQreset.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  return std::unique_ptr<Connection>(new Connection(conn, options));
}

Connection::Connection(pg_conn* conn, ConnectOptions options)
    : conn_(conn), options_(std::move(options)), label_(options_.label) {}

Connection::~Connection() { PQfinish(conn_); }

const sql::Dialect& Connection::dialect() const { return kPostgresDialect; }

Status Connection::LostTransaction() {
  last_error_ = sql::ErrorKind::kConnectionLost;
  return Status(StatusCode::kUnavailable,
                label_ + " '" + RedactedUrl(options_.url) +
                    "': the connection was lost inside a transaction, which is gone; "
                    "connection lost, retry later");
}

Result<pg_conn*> Connection::Handle() {
  if (PQstatus(conn_) != CONNECTION_OK) {
    // A new session must not run the rest of a transaction in autocommit:
    // every statement fails until the caller ends the lost transaction.
    if (in_transaction_) {
      in_transaction_ = false;
      lost_transaction_ = true;
    }
    PQreset(conn_);
    if (PQstatus(conn_) != CONNECTION_OK) {
      last_error_ = sql::ErrorKind::kConnectionLost;
      return Err(Status(StatusCode::kUnavailable,
                        label_ + " '" + RedactedUrl(options_.url) +
                            "': connection lost and not re-established: " + PQerrorMessage(conn_) +
                            "; retry later"));
    }
  }
  if (lost_transaction_) return Err(LostTransaction());
  return conn_;
}

Status Connection::Failure(const void* raw, std::string_view what) {
  const auto* result = static_cast<const PGresult*>(raw);
  const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  last_error_ = state != nullptr ? KindFor(state) : sql::ErrorKind::kOther;
  // No SQLSTATE and a broken connection: the server went away mid-call.
  if (state == nullptr && PQstatus(conn_) != CONNECTION_OK) {
    last_error_ = sql::ErrorKind::kConnectionLost;
  }
  std::string message = result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
  if (message.empty()) message = PQerrorMessage(conn_);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  std::string text = label_ + ": " + message + " (" + std::string(what) + ")";
  switch (last_error_) {
    case sql::ErrorKind::kSerializationFailure:
      text += "; serialization failure, nothing was committed: retry";
      break;
    case sql::ErrorKind::kConnectionLost:
      text += "; connection lost, retry later";
      break;
    default:
      break;
  }
  return Status(CodeFor(last_error_), std::move(text));
}

Status Connection::Exec(std::string_view sql) {
  const bool ends = sql.starts_with("COMMIT") || sql.starts_with("ROLLBACK");
  if (ends && lost_transaction_) {
    lost_transaction_ = false;
    // Nothing to roll back any more; a COMMIT of it cannot have happened,
    // but the caller decides what an unknown commit means.
    return sql.starts_with("ROLLBACK") ? Status::OK() : LostTransaction();
  }
  ST_ASSIGN_OR_RETURN(pg_conn * conn, Handle());
  std::string text(sql);
  // PQexec runs ';'-separated statements in one call and returns the last
  // result, or the first failure.
  ResultPtr result(PQexec(conn, text.c_str()));
  if (ends) in_transaction_ = false;  // A failed COMMIT ends the transaction too.
  if (result == nullptr || !Succeeded(result.get())) {
    return Failure(result.get(), "in: " + text.substr(0, 80));
  }
  if (sql.starts_with("BEGIN")) in_transaction_ = true;
  changes_ = ChangedRows(result.get());
  return Status::OK();
}

Result<sql::Statement> Connection::Prepare(std::string_view sql) {
  int params = 0;
  std::string translated = TranslatePlaceholders(sql, params);
  return sql::Statement(std::make_unique<PostgresCursor>(*this, std::move(translated), params));
}

}  // namespace st::postgres
