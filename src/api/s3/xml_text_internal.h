// Just enough XML for S3 bodies: escaped element output, and reading the
// text of simple elements from a CompleteMultipartUpload request.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace st::api::s3 {

inline constexpr const char* kXmlDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
inline constexpr const char* kS3Namespace = "http://s3.amazonaws.com/doc/2006-03-01/";

// Appends <name>escaped value</name>.
void AppendElement(std::string& out, std::string_view name, std::string_view value);

// The bodies of every <name>...</name> element in `xml`, in order, with any
// attributes on the start tag allowed. Nested elements of the same name are
// not supported (S3 request bodies have none).
std::vector<std::string_view> ElementBodies(std::string_view xml, std::string_view name);
// The unescaped text of the first <name> element inside `xml`; nullopt when
// absent or when it holds an unknown entity.
std::optional<std::string> ElementText(std::string_view xml, std::string_view name);

}  // namespace st::api::s3
