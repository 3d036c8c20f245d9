// Which Confluent schema reference a JSON Schema "$ref" names, shared by the
// compatibility checker and the Iceberg mapping so that both resolve a
// reference the same way confluent-kafka's serializers do.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace st::registry {

// The reference names the document part of a "$ref" (the text before '#',
// not empty) may be registered under, in the order to try them: the text as
// written, then, when the document holding the $ref has an absolute "$id"
// (`base_id`, with a scheme) and the text is relative, the text resolved
// against it (RFC 3986 §5.2 without dot-segment removal: "/x" keeps the
// base's scheme and authority, "x" replaces its last path segment).
// confluent-kafka's Python serializer registers each reference under its
// name and resolves $ref against the root's $id, so a schema with an $id
// names its references by the resolved URL; Java clients commonly use the
// bare file name. Both forms are accepted.
std::vector<std::string> JsonRefCandidateNames(std::string_view file, std::string_view base_id);

}  // namespace st::registry
