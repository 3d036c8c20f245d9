// The one bound on how deeply a JSON document from outside may nest arrays
// and objects, checked on the raw text before any parser builds a tree.
//
// nlohmann::json parses iteratively, but copying, comparing, dumping and every
// model parser that walks the tree recurse once per level; so does whatever
// later walks the model built from it. Checking the text first keeps every
// one of them within a known stack depth (src/http/server.h sizes the handler
// stacks for it). Documents nest much less in practice: an Iceberg schema
// costs at most 3 levels per nested type (iceberg/type_nesting.h kMaxTypeNesting),
// an Avro schema at most 4 (avro/schema_internal.h kMaxSchemaDepth).
#pragma once

#include <string_view>

#include "common/status.h"

namespace st {

// Request bodies, stored metadata files, schema definitions: at most this
// many arrays/objects open at once.
inline constexpr int kMaxJsonNesting = 512;

// OK when no array or object in `text` is nested deeper than `max_nesting`
// (a top-level object is depth 1). Brackets inside strings do not count;
// `text` need not be valid JSON (the parser reports that). Error:
// InvalidArgument "<what> nests JSON arrays/objects deeper than N levels",
// naming the limit. O(size), no allocation.
Status CheckJsonNesting(std::string_view text, std::string_view what,
                        int max_nesting = kMaxJsonNesting);

}  // namespace st
