// CreateRegistry, GetRegistry, ListRegistries.
#include "api/glue/glue_json_internal.h"
#include "api/glue/operations_internal.h"
#include "common/utc_time.h"
#include "registry/glue_arns.h"

namespace st::api::glue {

namespace {

nlohmann::json RegistryJson(const registry::RegistryInfo& info) {
  return {{"RegistryName", info.registry_name},
          {"RegistryArn", info.registry_arn},
          {"Description", info.description},
          {"Status", info.status},
          {"CreatedTime", FormatUtcMillis(info.created_at)},
          {"UpdatedTime", FormatUtcMillis(info.updated_at)}};
}

}  // namespace

Result<std::string> NoResource(const Call&) { return std::string("*"); }

Result<std::string> RegistryResource(const Call& call) {
  ST_ASSIGN_OR_RETURN(RegistryTarget target,
                      ReadRegistryId(call.body, call.account_id, call.deps.region));
  return registry::RegistryArn(call.deps.region, target.account_id, target.registry_name);
}

Result<std::string> CreateRegistryResource(const Call& call) {
  ST_ASSIGN_OR_RETURN(std::string name, RequiredString(call.body, "RegistryName"));
  return registry::RegistryArn(call.deps.region, call.account_id, name);
}

Result<http::Response> CreateRegistry(const Call& call) {
  ST_ASSIGN_OR_RETURN(std::string name, RequiredString(call.body, "RegistryName"));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> description,
                      OptionalString(call.body, "Description"));
  ST_ASSIGN_OR_RETURN(nlohmann::json tags, ReadTags(call.body));
  ST_ASSIGN_OR_RETURN(
      registry::RegistryInfo info,
      call.deps.registry.CreateRegistry(call.account_id, name, description.value_or("")));
  return JsonResponse(200, {{"RegistryArn", info.registry_arn},
                            {"RegistryName", info.registry_name},
                            {"Description", info.description},
                            {"Tags", tags}});
}

Result<http::Response> GetRegistry(const Call& call) {
  ST_ASSIGN_OR_RETURN(RegistryTarget target,
                      ReadRegistryId(call.body, call.account_id, call.deps.region));
  ST_ASSIGN_OR_RETURN(registry::RegistryInfo info,
                      call.deps.registry.GetRegistry(target.account_id, target.registry_name));
  return JsonResponse(200, RegistryJson(info));
}

Result<http::Response> ListRegistries(const Call& call) {
  ST_ASSIGN_OR_RETURN(PageWindow window, ReadPageWindow(call.body));
  ST_ASSIGN_OR_RETURN(std::vector<registry::RegistryInfo> all,
                      call.deps.registry.ListRegistries(call.account_id));
  nlohmann::json out = {{"Registries", nlohmann::json::array()}};
  for (size_t i = window.offset; i < all.size() && i < window.offset + window.size; ++i) {
    out["Registries"].push_back(RegistryJson(all[i]));
  }
  if (window.offset + window.size < all.size()) {
    out["NextToken"] = std::to_string(window.offset + window.size);
  }
  return JsonResponse(200, out);
}

}  // namespace st::api::glue
