#include "api/s3/xml_text_internal.h"
#include "http/xml_escape.h"

namespace st::api::s3 {

void AppendElement(std::string& out, std::string_view name, std::string_view value) {
  out += '<';
  out += name;
  out += '>';
  http::AppendXmlEscaped(out, value);
  out += "</";
  out += name;
  out += '>';
}

std::vector<std::string_view> ElementBodies(std::string_view xml, std::string_view name) {
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

std::optional<std::string> ElementText(std::string_view xml, std::string_view name) {
  std::vector<std::string_view> bodies = ElementBodies(xml, name);
  if (bodies.empty()) return std::nullopt;
  std::string_view raw = bodies.front();
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      out += raw[i];
      continue;
    }
    size_t semi = raw.find(';', i);
    if (semi == std::string_view::npos) return std::nullopt;
    std::string_view entity = raw.substr(i + 1, semi - i - 1);
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
    } else if (entity == "#34") {
      out += '"';
    } else {
      return std::nullopt;
    }
    i = semi;
  }
  return out;
}

}  // namespace st::api::s3
