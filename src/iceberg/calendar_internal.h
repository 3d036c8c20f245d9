// Proleptic Gregorian calendar arithmetic on days since 1970-01-01, shared by
// the time transforms and their human-readable strings. Floor division
// everywhere, so instants before 1970 land in the earlier period.
#pragma once

#include <cstdint>

namespace st::iceberg::internal {

inline constexpr int64_t kMicrosPerSecond = 1'000'000;
inline constexpr int64_t kMicrosPerHour = 3'600 * kMicrosPerSecond;
inline constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;

constexpr int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
constexpr int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

struct CivilDate {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};

// Counting years from March makes the leap day the last day of the counted
// year, so a 400-year cycle (146097 days) has a closed-form day-of-cycle.
constexpr CivilDate CivilFromDays(int64_t days_since_epoch) {
  constexpr int64_t kDaysFrom0000March1To1970 = 719468;
  constexpr int64_t kDaysPerCycle = 146097;
  const int64_t shifted = days_since_epoch + kDaysFrom0000March1To1970;
  const int64_t cycle = FloorDiv(shifted, kDaysPerCycle);
  const int64_t day_of_cycle = shifted - cycle * kDaysPerCycle;  // 0..146096
  const int64_t year_of_cycle =
      (day_of_cycle - day_of_cycle / 1460 + day_of_cycle / 36524 - day_of_cycle / 146096) / 365;
  const int64_t day_of_year =
      day_of_cycle - (365 * year_of_cycle + year_of_cycle / 4 - year_of_cycle / 100);  // 0..365
  const int64_t month_from_march = (5 * day_of_year + 2) / 153;                        // 0..11
  const int day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  const int month =
      static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  const int64_t year = year_of_cycle + cycle * 400 + (month <= 2 ? 1 : 0);
  return CivilDate{year, month, day};
}

constexpr int64_t DaysFromCivil(int64_t year, int month, int day) {
  constexpr int64_t kDaysFrom0000March1To1970 = 719468;
  const int64_t march_year = month <= 2 ? year - 1 : year;
  const int64_t cycle = FloorDiv(march_year, 400);
  const int64_t year_of_cycle = march_year - cycle * 400;
  const int64_t month_from_march = month > 2 ? month - 3 : month + 9;
  const int64_t day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
  const int64_t day_of_cycle =
      year_of_cycle * 365 + year_of_cycle / 4 - year_of_cycle / 100 + day_of_year;
  return cycle * 146097 + day_of_cycle - kDaysFrom0000March1To1970;
}

static_assert(CivilFromDays(0).year == 1970 && CivilFromDays(0).month == 1);
static_assert(CivilFromDays(-1).year == 1969 && CivilFromDays(-1).day == 31);
static_assert(DaysFromCivil(2017, 11, 16) == 17486);
static_assert(CivilFromDays(17486).day == 16 && CivilFromDays(17486).month == 11);

}  // namespace st::iceberg::internal
