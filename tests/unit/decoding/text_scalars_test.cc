#include <gtest/gtest.h>

#include "decoding/text_scalars_internal.h"

namespace st::decoding {
namespace {

TEST(TextScalarsTest, Rfc3339Timestamps) {
  struct Case {
    const char* text;
    bool ok;
    int64_t micros;
  };
  const Case cases[] = {
      {"1970-01-01T00:00:00Z", true, 0},
      {"2025-03-01T12:34:56.789Z", true, 1740832496789000},
      {"2025-03-01T12:34:56.789123456Z", true, 1740832496789123},  // Nanos truncated.
      {"2025-03-01T14:34:56.789+02:00", true, 1740832496789000},
      {"2025-03-01T07:04:56.789-05:30", true, 1740832496789000},
      {"2025-03-01t12:34:56.789z", true, 1740832496789000},
      {"2025-03-01 12:34:56.789Z", true, 1740832496789000},
      {"1969-12-31T23:59:59.999999Z", true, -1},
      {"2024-02-29T00:00:00Z", true, 1709164800000000},
      {"2023-02-29T00:00:00Z", false, 0},
      {"2025-03-01T12:34:56", false, 0},  // No offset.
      {"2025-03-01T24:00:00Z", false, 0},
      {"2025-3-01T12:34:56Z", false, 0},
      {"2025-03-01T12:34:56.Z", false, 0},
      {"2025-03-01T12:34:56+0200", false, 0},
      {"2025-03-01T12:34:56Zjunk", false, 0},
      {"", false, 0},
  };
  for (const auto& c : cases) {
    int64_t micros = 0;
    EXPECT_EQ(ParseRfc3339Timestamp(c.text, false, &micros), c.ok) << c.text;
    if (c.ok) {
      EXPECT_EQ(micros, c.micros) << c.text;
    }
  }
  int64_t micros = 0;
  EXPECT_TRUE(ParseRfc3339Timestamp("2025-03-01T12:34:56", true, &micros));
  EXPECT_EQ(micros, 1740832496000000);
}

TEST(TextScalarsTest, DatesAndTimes) {
  int32_t days = 0;
  EXPECT_TRUE(ParseIsoDate("1970-01-01", &days));
  EXPECT_EQ(days, 0);
  EXPECT_TRUE(ParseIsoDate("2025-03-01", &days));
  EXPECT_EQ(days, 20148);
  EXPECT_TRUE(ParseIsoDate("1969-12-31", &days));
  EXPECT_EQ(days, -1);
  EXPECT_FALSE(ParseIsoDate("2025-13-01", &days));
  EXPECT_FALSE(ParseIsoDate("2025-03-01T00:00:00Z", &days));
  int64_t micros = 0;
  EXPECT_TRUE(ParseIsoTime("12:34:56.5", &micros));
  EXPECT_EQ(micros, 45296500000);
  EXPECT_TRUE(ParseIsoTime("00:30:00+01:00", &micros));
  EXPECT_EQ(micros, 84600000000);  // 23:30 UTC.
  EXPECT_TRUE(ParseIsoTime("12:00:00Z", &micros));
  EXPECT_EQ(micros, 43200000000);
  EXPECT_FALSE(ParseIsoTime("12:00", &micros));
  EXPECT_FALSE(ParseIsoTime("25:00:00", &micros));
}

std::string DecimalText(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  if (negative) v = -v;
  std::string s;
  while (v > 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return negative ? "-" + s : s;
}

TEST(TextScalarsTest, Uuid) {
  std::string out;
  EXPECT_TRUE(ParseUuidText("00112233-4455-6677-8899-AABBCCDDEEFF", &out));
  EXPECT_EQ(out,
            std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16));
  out.clear();
  EXPECT_FALSE(ParseUuidText("00112233445566778899aabbccddeeff", &out));
  EXPECT_FALSE(ParseUuidText("00112233-4455-6677-8899-aabbccddeefg", &out));
  EXPECT_TRUE(out.empty());
}

TEST(TextScalarsTest, DecimalsAreExact) {
  struct Case {
    const char* text;
    int precision;
    int scale;
    const char* unscaled;  // nullptr: rejected.
  };
  const Case cases[] = {
      {"12.345", 38, 3, "12345"},
      {"12.3", 38, 3, "12300"},
      {"-0.001", 38, 3, "-1"},
      {"7", 38, 2, "700"},
      {"0", 38, 2, "0"},
      {"1.5e2", 38, 2, "15000"},
      {"15E-1", 38, 2, "150"},
      {"1.2300", 38, 2, "123"},   // Trailing zeros past the scale are exact.
      {"1.234", 38, 2, nullptr},  // A digit finer than the scale.
      {"1e-3", 38, 2, nullptr},
      {"12345678901234567890123456.789012345678", 38, 12, "12345678901234567890123456789012345678"},
      {"99999999999999999999999999999999999999", 38, 0, "99999999999999999999999999999999999999"},
      {"100000000000000000000000000000000000000", 38, 0, nullptr},
      {"1e38", 38, 0, nullptr},
      {"0.1", 38, 38, "10000000000000000000000000000000000000"},
      {"1", 38, 38, nullptr},
      {"01", 38, 0, nullptr},
      {"1.", 38, 0, nullptr},
      {"-", 38, 0, nullptr},
      {"1e", 38, 0, nullptr},
  };
  for (const auto& c : cases) {
    Int128 v = 0;
    const bool ok = ParseDecimalText(c.text, c.precision, c.scale, &v);
    EXPECT_EQ(ok, c.unscaled != nullptr) << c.text;
    if (ok && c.unscaled != nullptr) {
      EXPECT_EQ(DecimalText(v), c.unscaled) << c.text;
    }
  }
}

}  // namespace
}  // namespace st::decoding
