#include "registry/glue_arns.h"

#include <vector>

#include "auth/arn.h"

namespace st::registry {

namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '$' || c == '#' || c == '.';
}

Result<GlueArnParts> ParseGlueArn(std::string_view arn, std::string_view type, size_t name_count) {
  const std::string expected =
      type == "registry" ? "arn:aws:glue:<region>:<account>:registry/<registry name>"
                         : "arn:aws:glue:<region>:<account>:schema/<registry name>/<schema name>";
  auto bad = [&]() {
    return Err(InvalidArgument("'" + std::string(arn) + "' is not a Glue " + std::string(type) +
                               " ARN; expected " + expected));
  };
  Result<auth::Arn> parsed = auth::ParseArn(arn);
  if (!parsed.has_value() || parsed->partition.empty() || parsed->service != "glue" ||
      parsed->region.empty() || parsed->account_id.empty()) {
    return bad();
  }
  std::vector<std::string_view> path =
      auth::SplitArnResource(parsed->resource, '/', name_count + 1);
  if (path.size() != name_count + 1 || path[0] != type) return bad();
  for (size_t i = 1; i < path.size(); ++i) {
    if (!ValidateGlueName("name", path[i]).ok()) return bad();
  }
  GlueArnParts parts;
  parts.region = std::move(parsed->region);
  parts.account_id = std::move(parsed->account_id);
  parts.registry_name = std::string(path[1]);
  if (name_count == 2) parts.schema_name = std::string(path[2]);
  return parts;
}

}  // namespace

std::string RegistryArn(std::string_view region, std::string_view account_id,
                        std::string_view registry_name) {
  return "arn:aws:glue:" + std::string(region) + ":" + std::string(account_id) + ":registry/" +
         std::string(registry_name);
}

std::string SchemaArn(std::string_view region, std::string_view account_id,
                      std::string_view registry_name, std::string_view schema_name) {
  return "arn:aws:glue:" + std::string(region) + ":" + std::string(account_id) + ":schema/" +
         std::string(registry_name) + "/" + std::string(schema_name);
}

Result<GlueArnParts> ParseRegistryArn(std::string_view arn) {
  return ParseGlueArn(arn, "registry", 1);
}

Result<GlueArnParts> ParseSchemaArn(std::string_view arn) { return ParseGlueArn(arn, "schema", 2); }

Status ValidateGlueName(std::string_view what, std::string_view name) {
  bool ok = !name.empty() && name.size() <= 255;
  for (char c : name) ok = ok && IsNameChar(c);
  if (ok) return Status::OK();
  return InvalidArgument(std::string(what) + " '" + std::string(name) +
                         "' is invalid; use 1 to 255 characters of a-z, A-Z, 0-9, '-', '_', "
                         "'$', '#' and '.'");
}

}  // namespace st::registry
