#include <time.h>

#include <cstdlib>

#include "s3store/s3_xml_internal.h"

namespace st::s3store {

namespace {

std::string XmlUnescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    size_t semi = text.find(';', i);
    if (semi == std::string_view::npos) {
      out += text.substr(i);
      break;
    }
    std::string_view entity = text.substr(i + 1, semi - i - 1);
    if (entity == "amp") {
      out += '&';
    } else if (entity == "lt") {
      out += '<';
    } else if (entity == "gt") {
      out += '>';
    } else if (entity == "quot") {
      out += '"';
    } else if (entity == "apos") {
      out += '\'';
    } else if (!entity.empty() && entity[0] == '#') {
      // A numeric reference: S3 escapes control characters in keys this way.
      bool hex = entity.size() > 1 && (entity[1] == 'x' || entity[1] == 'X');
      std::string digits(entity.substr(hex ? 2 : 1));
      unsigned long code = std::strtoul(digits.c_str(), nullptr, hex ? 16 : 10);
      if (code < 0x80) {
        out += static_cast<char>(code);
      } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
      } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
      } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
      }
    } else {
      out += text.substr(i, semi - i + 1);
    }
    i = semi;
  }
  return out;
}

// [begin, end) of the content of the first <name> element at or after
// `from`; npos when absent.
std::pair<size_t, size_t> FindElement(std::string_view xml, std::string_view name, size_t from) {
  std::string open = "<" + std::string(name) + ">";
  std::string close = "</" + std::string(name) + ">";
  size_t begin = xml.find(open, from);
  if (begin == std::string_view::npos) return {std::string_view::npos, std::string_view::npos};
  begin += open.size();
  size_t end = xml.find(close, begin);
  if (end == std::string_view::npos) return {std::string_view::npos, std::string_view::npos};
  return {begin, end};
}

}  // namespace

std::optional<std::string> XmlElementText(std::string_view xml, std::string_view name,
                                          size_t from) {
  auto [begin, end] = FindElement(xml, name, from);
  if (begin == std::string_view::npos) return std::nullopt;
  return XmlUnescape(xml.substr(begin, end - begin));
}

std::optional<ListPage> ParseListObjectsV2(std::string_view xml) {
  if (xml.find("<ListBucketResult") == std::string_view::npos) return std::nullopt;
  ListPage page;
  size_t at = 0;
  while (true) {
    auto [begin, end] = FindElement(xml, "Contents", at);
    if (begin == std::string_view::npos) break;
    std::string_view item = xml.substr(begin, end - begin);
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
    at = end;
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
