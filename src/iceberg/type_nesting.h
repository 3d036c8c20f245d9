// How deeply Iceberg's nested types may nest, for every schema the server
// takes in: every struct, list or map inside a schema is one level (a
// top-level struct column is level 1, a list inside it level 2). Real
// schemas stay well under 20. The bound exists so that parsing, validating,
// printing, comparing, renumbering and converting a schema (all recursive)
// stay within the handler stacks (src/http/server.h thread_stack_bytes).
// Schema::Make and the JSON parsers (json_serde.h, ParseTableMetadata) refuse
// deeper schemas with InvalidArgument (Corruption for metadata files).
#pragma once

namespace st::iceberg {

inline constexpr int kMaxTypeNesting = 100;

}  // namespace st::iceberg
