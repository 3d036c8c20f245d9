#include <set>

#include "registry/confluent_references_internal.h"

namespace st::registry::confluent {

Status ResolveReferences(
    const std::vector<Reference>& refs,
    const std::function<Outcome<SubjectVersion>(const std::string&, std::optional<int64_t>)>& get,
    RegisteredSchema* out, int max_depth) {
  std::set<std::string> seen;
  std::function<Status(const std::vector<Reference>&, int)> resolve =
      [&](const std::vector<Reference>& level, int depth) -> Status {
    if (depth > max_depth) {
      return InvalidArgument("schema references nest deeper than " + std::to_string(max_depth) +
                             " levels");
    }
    for (const Reference& ref : level) {
      if (!seen.insert(ref.name).second) continue;
      std::optional<int64_t> version;
      if (ref.version >= 0) version = ref.version;
      Outcome<SubjectVersion> got = get(ref.subject, version);
      if (!got) {
        const int code = got.error().error_code;
        const bool missing = code == kSubjectNotFound || code == kVersionNotFound;
        return Status(missing ? StatusCode::kNotFound : StatusCode::kUnavailable,
                      "schema reference " + ref.name + " (subject " + ref.subject +
                          "): " + got.error().message);
      }
      ST_TRY(resolve(got->schema.references, depth + 1));
      out->references.emplace_back(ref.name, got->schema.schema);
    }
    return Status::OK();
  };
  return resolve(refs, 0);
}

}  // namespace st::registry::confluent
