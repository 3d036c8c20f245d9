// Just enough XML for S3 bodies: escaped element output, and reading the
// text of simple elements from a CompleteMultipartUpload request.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/xml_text.h"

namespace st::api::s3 {

inline constexpr const char* kXmlDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
inline constexpr const char* kS3Namespace = "http://s3.amazonaws.com/doc/2006-03-01/";

// Appends <name>escaped value</name>.
void AppendElement(std::string& out, std::string_view name, std::string_view value);

// Element reading is shared with the S3 object store (common/xml_text.h).
inline std::vector<std::string_view> ElementBodies(std::string_view xml, std::string_view name) {
  return XmlElementBodies(xml, name);
}
inline std::optional<std::string> ElementText(std::string_view xml, std::string_view name) {
  return XmlElementText(xml, name);
}

}  // namespace st::api::s3
