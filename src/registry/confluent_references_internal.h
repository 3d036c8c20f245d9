// Transitive resolution of Confluent schema references, shared by the
// built-in registry (confluent_registry.cc) and the external registry client
// (external_confluent_registry.cc), so both give delivery the same shape.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "registry/confluent_registry.h"

namespace st::registry::confluent {

// Resolves `refs` into `out->references` (depth-first, dependencies first,
// each name once; the names seen also end reference cycles) through `get`,
// which returns a subject's version (nullopt = latest). Errors: NotFound when
// `get` answers 40401/40402, Unavailable for its other errors (both naming
// the reference), InvalidArgument for references nested deeper than
// `max_depth`.
Status ResolveReferences(
    const std::vector<Reference>& refs,
    const std::function<Outcome<SubjectVersion>(const std::string&, std::optional<int64_t>)>& get,
    RegisteredSchema* out, int max_depth = 32);

}  // namespace st::registry::confluent
