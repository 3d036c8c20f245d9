// Structured logging: one JSON object per line ("JSON lines"), each carrying
// the request id when it is about a request, so `grep <id>` finds a request's
// whole story and tools can parse logs without regexes.
//
// Our own ~100 lines rather than spdlog: we need structured fields, not format
// strings, and one event per line is all a JSON-lines sink is; this keeps a
// dependency (and its header weight) out of every module that logs.
#pragma once

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>

#include "common/clock.h"
#include "common/mutex.h"
#include "common/status.h"

namespace st {

enum class LogLevel { kDebug = 0, kInfo, kWarn, kError };

// "debug" | "info" | "warn" | "error". Errors: kInvalidArgument naming the choices.
Result<LogLevel> ParseLogLevel(std::string_view text);
std::string_view LogLevelName(LogLevel level);

// One key/value of a log event. Views must outlive the Log call only.
struct LogField {
  LogField(std::string_view k, std::string_view v) : key(k), value(v) {}
  LogField(std::string_view k, const std::string& v) : key(k), value(std::string_view(v)) {}
  LogField(std::string_view k, const char* v) : key(k), value(std::string_view(v)) {}
  LogField(std::string_view k, int64_t v) : key(k), value(v) {}
  LogField(std::string_view k, int v) : key(k), value(static_cast<int64_t>(v)) {}
  LogField(std::string_view k, uint64_t v) : key(k), value(static_cast<int64_t>(v)) {}
  LogField(std::string_view k, double v) : key(k), value(v) {}
  LogField(std::string_view k, bool v) : key(k), value(v) {}

  std::string_view key;
  std::variant<std::string_view, int64_t, double, bool> value;
};

// Thread-safe: implementations serialise writes.
class Logger {
 public:
  virtual ~Logger() = default;
  virtual bool Enabled(LogLevel level) const = 0;
  // `event` names what happened ("request", "listening", "shutdown").
  virtual void Log(LogLevel level, std::string_view event,
                   std::initializer_list<LogField> fields) = 0;
};

// Writes {"ts":"2026-01-01T00:00:00.000Z","level":"info","event":...,<fields>}
// lines to `out` (not owned; typically stderr), flushing each line.
class JsonLinesLogger final : public Logger {
 public:
  // `out` and `clock` must outlive the logger.
  JsonLinesLogger(std::FILE* out, LogLevel min_level, const Clock& clock);
  bool Enabled(LogLevel level) const override { return level >= min_level_; }
  void Log(LogLevel level, std::string_view event, std::initializer_list<LogField> fields) override
      EXCLUDES(mu_);

 private:
  common::Mutex mu_;
  std::FILE* out_ PT_GUARDED_BY(mu_);  // Lines are written whole, one at a time.
  LogLevel min_level_;
  const Clock& clock_;
};

// Discards everything; for tests.
class NullLogger final : public Logger {
 public:
  bool Enabled(LogLevel) const override { return false; }
  void Log(LogLevel, std::string_view, std::initializer_list<LogField>) override {}
};

}  // namespace st
