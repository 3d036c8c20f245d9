#include <time.h>

#include <cstdlib>

#include "common/xml_text.h"
#include "s3store/s3_xml_internal.h"

namespace st::s3store {

std::optional<ListPage> ParseListObjectsV2(std::string_view xml) {
  if (xml.find("<ListBucketResult") == std::string_view::npos) return std::nullopt;
  ListPage page;
  for (std::string_view item : XmlElementBodies(xml, "Contents")) {
    ListedObject object;
    std::optional<std::string> key = XmlElementText(item, "Key");
    if (!key.has_value()) return std::nullopt;
    object.key = std::move(*key);
    if (auto size = XmlElementText(item, "Size"))
      object.size = std::strtoll(size->c_str(), nullptr, 10);
    if (auto modified = XmlElementText(item, "LastModified")) {
      object.last_modified = ParseS3Time(*modified).value_or(object.last_modified);
    }
    page.objects.push_back(std::move(object));
  }
  page.truncated = XmlElementText(xml, "IsTruncated").value_or("false") == "true";
  page.next_token = XmlElementText(xml, "NextContinuationToken").value_or("");
  return page;
}

std::optional<std::chrono::system_clock::time_point> ParseS3Time(std::string_view text) {
  std::string s(text);
  struct tm parts {};
  const char* rest = ::strptime(s.c_str(), "%Y-%m-%dT%H:%M:%S", &parts);
  int64_t millis = 0;
  if (rest != nullptr) {
    if (*rest == '.') {
      ++rest;
      int64_t scale = 100;
      while (*rest >= '0' && *rest <= '9') {
        millis += (*rest - '0') * scale;
        scale /= 10;
        ++rest;
      }
    }
    if (*rest != 'Z' && *rest != '\0') return std::nullopt;
  } else {
    parts = {};
    rest = ::strptime(s.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &parts);
    if (rest == nullptr) return std::nullopt;
  }
  time_t seconds = ::timegm(&parts);
  return std::chrono::system_clock::from_time_t(seconds) + std::chrono::milliseconds(millis);
}

}  // namespace st::s3store
