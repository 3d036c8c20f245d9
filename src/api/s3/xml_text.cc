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

}  // namespace st::api::s3
