// TagResource, UntagResource, ListTagsForResource on bucket or table ARNs.
#include "api/s3tables/json_body_internal.h"
#include "api/s3tables/operations_internal.h"
#include "api/s3tables/resource_options_internal.h"
#include "api/s3tables/wire_json_internal.h"

namespace st::api::s3tables {

Reply TagResource(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(context.request));
  if (!body.contains("tags")) return Err(InvalidArgument("The required member 'tags' is missing."));
  ST_ASSIGN_OR_RETURN(catalog::Tags tags, OptionalStringMap(body, "tags"));
  ST_TRY(CheckTags(tags));
  ST_TRY(deps.store.TagResource(context.params.Get("resourceArn"), tags));
  return JsonResponse(nlohmann::json::object());
}

Reply UntagResource(const S3TablesDeps& deps, Ctx& context) {
  std::vector<std::string> keys;
  for (std::string_view key : context.request.query().GetAll("tagKeys")) {
    keys.emplace_back(key);
  }
  if (keys.empty()) return Err(InvalidArgument("The query parameter tagKeys is required."));
  ST_TRY(deps.store.UntagResource(context.params.Get("resourceArn"), keys));
  return http::Response::Empty(204);
}

Reply ListTagsForResource(const S3TablesDeps& deps, Ctx& context) {
  ST_ASSIGN_OR_RETURN(catalog::Tags tags, deps.store.ListTags(context.params.Get("resourceArn")));
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : tags) out[key] = value;
  return JsonResponse({{"tags", out}});
}

}  // namespace st::api::s3tables
