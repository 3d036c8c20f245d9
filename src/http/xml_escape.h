// XML text escaping shared by every surface that writes S3-style XML.
#pragma once

#include <string>
#include <string_view>

namespace st::http {

// Appends `text` to `out` with <, >, &, " and ' replaced by entities.
void AppendXmlEscaped(std::string& out, std::string_view text);

}  // namespace st::http
