#include "common/utc_time.h"

#include <cstdint>
#include <cstdio>
#include <ctime>

namespace st {

std::string FormatUtcMillis(std::chrono::system_clock::time_point time) {
  auto millis = std::chrono::floor<std::chrono::milliseconds>(time.time_since_epoch()).count();
  int64_t fraction = millis % 1000;
  std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  if (fraction < 0) {
    fraction += 1000;
    seconds -= 1;
  }
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(fraction));
  return buffer;
}

}  // namespace st
