#include "common/xml_text.h"

#include <gtest/gtest.h>

namespace st {
namespace {

TEST(XmlTextTest, UnescapesNamedAndNumericReferences) {
  EXPECT_EQ(XmlUnescape("a&amp;b&lt;c&gt;&quot;&apos;"), "a&b<c>\"'");
  EXPECT_EQ(XmlUnescape("p/c&#x1;"), std::string("p/c\x01"));
  EXPECT_EQ(XmlUnescape("&#65;&#x42;&#X43;"), "ABC");
  EXPECT_EQ(XmlUnescape("&#x20AC;"), "\xE2\x82\xAC");
}

TEST(XmlTextTest, RefusesMalformedOrForbiddenReferences) {
  for (const char* bad : {"&#;", "&#x;", "&#-1;", "&# 65;", "&#+65;", "&#x-1;", "&#0;", "&#x0;",
                          "&#xD800;", "&#x110000;", "&#999999999999999999999;", "&#x12345678;",
                          "&#6a;", "&bogus;", "&amp", "x&#65"}) {
    EXPECT_EQ(XmlUnescape(bad), std::nullopt) << bad;
  }
}

TEST(XmlTextTest, ElementBodiesSkipLongerNamesWithTheSamePrefix) {
  const std::string xml = "<Part><PartNumber>2</PartNumber></Part><Part a=\"1\">x</Part>";
  auto bodies = XmlElementBodies(xml, "Part");
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(bodies[1], "x");
  EXPECT_EQ(XmlElementText(xml, "PartNumber"), "2");
  EXPECT_EQ(XmlElementText(xml, "Missing"), std::nullopt);
}

}  // namespace
}  // namespace st
