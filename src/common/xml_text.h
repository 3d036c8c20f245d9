// Reading the text of simple elements from machine-written XML (S3 request
// and reply bodies): flat documents, no nesting of one name, so no general
// XML parser is needed. Shared by the S3 endpoint and the S3 object store.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace st {

// The bodies of every <name>...</name> element in `xml`, in order, with any
// attributes on the start tag allowed. Nested elements of the same name are
// not supported.
std::vector<std::string_view> XmlElementBodies(std::string_view xml, std::string_view name);

// `text` with the five named entities and numeric references (&#NN;,
// &#xNN;) replaced; nullopt for an unknown or unterminated entity.
std::optional<std::string> XmlUnescape(std::string_view text);

// The unescaped text of the first <name> element inside `xml`; nullopt when
// absent or when it holds an unknown entity.
std::optional<std::string> XmlElementText(std::string_view xml, std::string_view name);

}  // namespace st
