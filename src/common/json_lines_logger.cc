#include <cinttypes>

#include "common/logger.h"
#include "common/utc_time.h"

namespace st {

namespace {

void AppendJsonString(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out += kHex[u >> 4];
          out += kHex[u & 0xF];
        } else {
          out += c;  // UTF-8 passes through; invalid bytes are the producer's problem.
        }
    }
  }
  out += '"';
}

}  // namespace

Result<LogLevel> ParseLogLevel(std::string_view text) {
  if (text == "debug") return LogLevel::kDebug;
  if (text == "info") return LogLevel::kInfo;
  if (text == "warn") return LogLevel::kWarn;
  if (text == "error") return LogLevel::kError;
  return Err(InvalidArgument("unknown log level '" + std::string(text) +
                             "'; use debug, info, warn or error"));
}

std::string_view LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarn:
      return "warn";
    case LogLevel::kError:
      return "error";
  }
  return "unknown";
}

JsonLinesLogger::JsonLinesLogger(std::FILE* out, LogLevel min_level, const Clock& clock)
    : out_(out), min_level_(min_level), clock_(clock) {}

void JsonLinesLogger::Log(LogLevel level, std::string_view event,
                          std::initializer_list<LogField> fields) {
  if (!Enabled(level)) return;
  std::string line = "{\"ts\":\"" + FormatUtcMillis(clock_.Now()) + "\",\"level\":\"";
  line += LogLevelName(level);
  line += "\",\"event\":";
  AppendJsonString(line, event);
  for (const LogField& field : fields) {
    line += ',';
    AppendJsonString(line, field.key);
    line += ':';
    if (const auto* s = std::get_if<std::string_view>(&field.value)) {
      AppendJsonString(line, *s);
    } else if (const auto* i = std::get_if<int64_t>(&field.value)) {
      line += std::to_string(*i);
    } else if (const auto* d = std::get_if<double>(&field.value)) {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%.3f", *d);
      line += buf;
    } else {
      line += std::get<bool>(field.value) ? "true" : "false";
    }
  }
  line += "}\n";
  common::MutexLock lock(mu_);
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fflush(out_);
}

}  // namespace st
