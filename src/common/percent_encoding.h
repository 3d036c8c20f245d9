// Percent-encoding (RFC 3986 §2.1) with upper-case hex, the one encoder of
// the tree, and the java.net.URLEncoder variant Iceberg partition paths use.
#pragma once

#include <string>
#include <string_view>

namespace st {

// Every byte but the RFC 3986 unreserved characters (A-Z a-z 0-9 - . _ ~)
// and those listed in `also_keep` becomes %XX. This is SigV4's UriEncode
// (`also_keep` "/" for an S3 object key path); with nothing kept it encodes
// one path segment or query component.
std::string PercentEncode(std::string_view bytes, std::string_view also_keep = "");

// What java.net.URLEncoder.encode(text, UTF_8) returns: A-Z a-z 0-9 . - * _
// kept, a space becomes '+', every other byte %XX. Iceberg's Java library
// builds partition paths with it, so paths we write match the ones Java
// writes for the same values.
std::string JavaUrlEncoderCompatibleEncode(std::string_view text);

}  // namespace st
