#include "common/utf8.h"

#include <gtest/gtest.h>

#include <string_view>

namespace st {
namespace {

using namespace std::string_view_literals;

TEST(Utf8Test, EncodesEachLengthAtItsBoundaries) {
  struct Case {
    uint32_t code_point;
    std::string_view bytes;
  };
  const Case cases[] = {
      {0x00, "\0"sv},
      {0x41, "A"sv},
      {0x7F, "\x7F"sv},
      {0x80, "\xC2\x80"sv},
      {0xE9, "\xC3\xA9"sv},
      {0x7FF, "\xDF\xBF"sv},
      {0x800, "\xE0\xA0\x80"sv},
      {0xFFFF, "\xEF\xBF\xBF"sv},
      {0x10000, "\xF0\x90\x80\x80"sv},
      {0x1F600, "\xF0\x9F\x98\x80"sv},
      {0x10FFFF, "\xF4\x8F\xBF\xBF"sv},
  };
  for (const Case& c : cases) {
    std::string out = "x";
    AppendUtf8(out, c.code_point);
    EXPECT_EQ(out, "x" + std::string(c.bytes)) << std::hex << c.code_point;
  }
}

}  // namespace
}  // namespace st
