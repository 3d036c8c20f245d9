#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "parquet/dictionary_internal.h"

namespace st::parquet::internal {
namespace {

// Values that differ in one byte only, at the start, the middle or the end,
// over every length up to 300: each part of the hash (short path, 17..32
// overlap, 2 and 4 lanes, the overlapping tail) must see every byte.
std::vector<std::string> OneByteApart() {
  std::vector<std::string> out;
  for (size_t len = 1; len <= 300; ++len) {
    for (size_t pos : {size_t{0}, len / 2, len - 1}) {
      std::string s(len, 'a');
      s[pos] = 'b';
      out.push_back(s);
    }
    out.emplace_back(len, 'a');
  }
  std::set<std::string> unique(out.begin(), out.end());
  return {unique.begin(), unique.end()};
}

TEST(DictionaryTest, HashSeesEveryByte) {
  std::set<uint64_t> hashes;
  const std::vector<std::string> values = OneByteApart();
  for (const std::string& v : values) hashes.insert(HashBytes(v.data(), v.size()));
  EXPECT_EQ(hashes.size(), values.size());
}

TEST(DictionaryTest, BytesGetOrInsertFindsEachValueAgain) {
  const std::vector<std::string> values = OneByteApart();
  std::vector<std::string_view> views(values.begin(), values.end());
  views.emplace_back();  // The empty value too.
  DictionaryTable dict(0);
  std::vector<uint32_t> first(views.size());
  size_t inserted = 0;
  dict.GetOrInsertBytes(views.data(), views.size(), first.data(),
                        [&](std::string_view) { ++inserted; });
  EXPECT_EQ(inserted, views.size());
  EXPECT_EQ(dict.size(), views.size());
  for (size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i], i);
  std::vector<uint32_t> again(views.size());
  dict.GetOrInsertBytes(views.data(), views.size(), again.data(),
                        [&](std::string_view) { ++inserted; });
  EXPECT_EQ(again, first);
  EXPECT_EQ(inserted, views.size());
  // The PLAIN page: 4-byte length, bytes.
  uint32_t len;
  std::memcpy(&len, dict.plain().data(), 4);
  EXPECT_EQ(std::string(dict.plain().substr(4, len)), values[0]);
  dict.Clear();
  EXPECT_EQ(dict.size(), 0u);
  EXPECT_TRUE(dict.plain().empty());
}

TEST(DictionaryTest, FixedComparesBitPatterns) {
  DictionaryTable dict(8);
  const double values[] = {0.0, -0.0, 1.5, 0.0, 1.5};
  uint32_t idx[5];
  dict.GetOrInsertFixed(values, 5, idx, [](double) {});
  EXPECT_EQ(dict.size(), 3u);  // -0.0 is its own entry; PLAIN keeps the sign.
  EXPECT_EQ(idx[3], idx[0]);
  EXPECT_EQ(idx[4], idx[2]);
  EXPECT_NE(idx[1], idx[0]);
}

}  // namespace
}  // namespace st::parquet::internal
