#include "common/xml_text.h"

#include <cstdint>

#include "common/utf8.h"

namespace st {

std::vector<std::string_view> XmlElementBodies(std::string_view xml, std::string_view name) {
  std::vector<std::string_view> out;
  std::string open = "<" + std::string(name);
  std::string close = "</" + std::string(name) + ">";
  size_t at = 0;
  while (true) {
    size_t start = xml.find(open, at);
    if (start == std::string_view::npos) break;
    size_t after_name = start + open.size();
    if (after_name >= xml.size()) break;
    char next = xml[after_name];
    if (next != '>' && next != ' ' && next != '\t' && next != '\n' && next != '\r') {
      at = after_name;  // A longer name with the same start (<PartNumber> vs <Part>).
      continue;
    }
    size_t body = xml.find('>', after_name);
    if (body == std::string_view::npos) break;
    size_t end = xml.find(close, body + 1);
    if (end == std::string_view::npos) break;
    out.push_back(xml.substr(body + 1, end - body - 1));
    at = end + close.size();
  }
  return out;
}

std::optional<std::string> XmlUnescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    size_t semi = text.find(';', i);
    if (semi == std::string_view::npos) return std::nullopt;
    std::string_view entity = text.substr(i + 1, semi - i - 1);
    if (entity == "quot") {
      out += '"';
    } else if (entity == "amp") {
      out += '&';
    } else if (entity == "lt") {
      out += '<';
    } else if (entity == "gt") {
      out += '>';
    } else if (entity == "apos") {
      out += '\'';
    } else if (entity.size() > 1 && entity[0] == '#') {
      // S3 escapes control characters in keys this way.
      // Digits only (no sign or space, which strtoul would take), at most 8
      // of them, and a code point XML allows: not NUL, not a surrogate.
      bool hex = entity[1] == 'x' || entity[1] == 'X';
      std::string_view digits = entity.substr(hex ? 2 : 1);
      if (digits.empty() || digits.size() > 8) return std::nullopt;
      uint32_t code = 0;
      for (char c : digits) {
        int v = -1;
        if (c >= '0' && c <= '9') v = c - '0';
        if (hex && c >= 'a' && c <= 'f') v = c - 'a' + 10;
        if (hex && c >= 'A' && c <= 'F') v = c - 'A' + 10;
        if (v < 0) return std::nullopt;
        code = code * (hex ? 16 : 10) + static_cast<uint32_t>(v);
      }
      if (code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return std::nullopt;
      AppendUtf8(out, code);
    } else {
      return std::nullopt;
    }
    i = semi;
  }
  return out;
}

std::optional<std::string> XmlElementText(std::string_view xml, std::string_view name) {
  std::vector<std::string_view> bodies = XmlElementBodies(xml, name);
  if (bodies.empty()) return std::nullopt;
  return XmlUnescape(bodies.front());
}

}  // namespace st
