#include "api/glue/glue_json_internal.h"
#include "catalog/names.h"
#include "common/json_fields.h"
#include "registry/glue_arns.h"

namespace st::api::glue {

http::Response JsonResponse(int status, const nlohmann::json& body) {
  http::Response response = http::Response::Json(status, body.dump());
  response.headers.Set("Content-Type", std::string(kGlueContentType));
  return response;
}

Result<nlohmann::json> ParseBody(const http::Request& request) {
  return json_fields::ParseAwsJsonBody(request.body);
}

namespace {

// "<member> is required", "<member> must be a string" / "an integer".
std::string GlueWording(const json_fields::FieldProblem& problem, std::string_view) {
  if (problem.kind == json_fields::FieldProblem::Kind::kMissing) {
    return problem.member + " is required";
  }
  return problem.member + (problem.expected == json_fields::Expected::kInteger
                               ? " must be an integer"
                               : " must be a string");
}

constexpr json_fields::FieldWording kGlueWording{&GlueWording, {}};

}  // namespace

Result<std::optional<std::string>> OptionalString(const nlohmann::json& object,
                                                  const std::string& member) {
  return json_fields::OptionalString(object, member, kGlueWording);
}

Result<std::string> RequiredString(const nlohmann::json& object, const std::string& member) {
  return json_fields::RequiredString(object, member, kGlueWording);
}

Result<std::optional<int64_t>> OptionalInt(const nlohmann::json& object,
                                           const std::string& member) {
  return json_fields::OptionalInt(object, member, kGlueWording);
}

Result<nlohmann::json> ReadTags(const nlohmann::json& body) {
  if (!body.contains("Tags") || body["Tags"].is_null()) return nlohmann::json::object();
  const nlohmann::json& tags = body["Tags"];
  if (!tags.is_object()) return Err(InvalidArgument("Tags must be a map of string to string"));
  if (tags.size() > static_cast<size_t>(catalog::kMaxTagsPerResource)) {
    return Err(InvalidArgument("Tags has " + std::to_string(tags.size()) + " entries; at most " +
                               std::to_string(catalog::kMaxTagsPerResource) + " are allowed"));
  }
  for (const auto& [key, value] : tags.items()) {
    if (!value.is_string()) {
      return Err(InvalidArgument("Tags must be a map of string to string"));
    }
    ST_TRY(catalog::ValidateTag(key, value.get_ref<const std::string&>()));
  }
  return tags;
}

Result<registry::SchemaRef> ReadSchemaId(const nlohmann::json& body, const std::string& member,
                                         const std::string& account_id, const std::string& region) {
  if (!body.contains(member) || !body[member].is_object()) {
    return Err(InvalidArgument(member + " is required: {\"SchemaArn\"} or {\"SchemaName\", "
                                        "\"RegistryName\"}"));
  }
  const nlohmann::json& id = body[member];
  ST_ASSIGN_OR_RETURN(std::optional<std::string> arn, OptionalString(id, "SchemaArn"));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> name, OptionalString(id, "SchemaName"));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> registry_name, OptionalString(id, "RegistryName"));
  if (arn.has_value() == name.has_value()) {
    return Err(InvalidArgument(member + " needs exactly one of SchemaArn and SchemaName"));
  }
  if (arn.has_value()) {
    ST_ASSIGN_OR_RETURN(registry::GlueArnParts parts, registry::ParseSchemaArn(*arn));
    if (parts.region != region) {
      return Err(NotFound(std::string(registry::kSchemaNotFoundMessage)));
    }
    return registry::SchemaRef{parts.account_id, parts.registry_name, parts.schema_name};
  }
  return registry::SchemaRef{account_id, registry_name.value_or(""), *name};
}

Result<RegistryTarget> ReadRegistryId(const nlohmann::json& body, const std::string& account_id,
                                      const std::string& region) {
  RegistryTarget target{account_id, std::string(registry::kDefaultRegistryName)};
  if (!body.contains("RegistryId") || body["RegistryId"].is_null()) return target;
  const nlohmann::json& id = body["RegistryId"];
  if (!id.is_object()) return Err(InvalidArgument("RegistryId must be an object"));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> arn, OptionalString(id, "RegistryArn"));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> name, OptionalString(id, "RegistryName"));
  if (arn.has_value() && name.has_value()) {
    return Err(InvalidArgument("RegistryId needs one of RegistryArn and RegistryName, not both"));
  }
  if (arn.has_value()) {
    ST_ASSIGN_OR_RETURN(registry::GlueArnParts parts, registry::ParseRegistryArn(*arn));
    if (parts.region != region) {
      return Err(NotFound("Registry is not found: " + *arn + " is in another region"));
    }
    return RegistryTarget{parts.account_id, parts.registry_name};
  }
  if (name.has_value()) target.registry_name = *name;
  return target;
}

Result<PageWindow> ReadPageWindow(const nlohmann::json& body) {
  PageWindow window;
  ST_ASSIGN_OR_RETURN(std::optional<int64_t> max_results, OptionalInt(body, "MaxResults"));
  if (max_results.has_value()) {
    if (*max_results < 1 || *max_results > 100) {
      return Err(InvalidArgument("MaxResults must be between 1 and 100"));
    }
    window.size = static_cast<size_t>(*max_results);
  }
  ST_ASSIGN_OR_RETURN(std::optional<std::string> token, OptionalString(body, "NextToken"));
  if (token.has_value() && !token->empty()) {
    bool digits = token->size() <= 9;
    for (char c : *token) digits = digits && c >= '0' && c <= '9';
    if (!digits) {
      return Err(InvalidArgument("NextToken '" + *token +
                                 "' was not returned by this operation; start without it"));
    }
    window.offset = static_cast<size_t>(std::stoul(*token));
  }
  return window;
}

}  // namespace st::api::glue
