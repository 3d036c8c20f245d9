// Routes, HTTP Basic authentication, authorization and the JSON shapes of the
// Confluent Schema Registry API.
#include "api/confluent/confluent_surface.h"

#include <charconv>
#include <memory>
#include <nlohmann/json.hpp>

#include "auth/arn.h"
#include "common/base64.h"
#include "common/json_nesting.h"

namespace st::api::confluent {

namespace {

using registry::confluent::ConfluentRegistry;
using registry::confluent::Error;
using registry::confluent::SchemaText;

constexpr std::string_view kContentType = "application/vnd.schemaregistry.v1+json";
constexpr size_t kMaxCredentialBytes = 1024;

http::Response JsonResponse(int status, const nlohmann::json& body) {
  http::Response response = http::Response::Json(status, body.dump());
  response.headers.Set("Content-Type", std::string(kContentType));
  return response;
}

http::Response ErrorResponse(int http_status, int error_code, const std::string& message) {
  return JsonResponse(http_status, {{"error_code", error_code}, {"message", message}});
}

// The HTTP status of a Confluent error code: its first three digits (409 is
// both).
int HttpStatusOf(int error_code) {
  if (error_code < 1000) return error_code;
  return error_code / 100;
}

http::Response FromError(const Error& error) {
  return ErrorResponse(HttpStatusOf(error.error_code), error.error_code, error.message);
}

class ConfluentErrorWriter final : public http::ErrorWriter {
 public:
  http::Response Write(const http::Request&, const http::HttpError& error) const override {
    int status = error.http_status;
    if (status == 0) {
      switch (error.status.code()) {
        case StatusCode::kNotFound:
          status = 404;
          break;
        case StatusCode::kInvalidArgument:
          status = 400;
          break;
        case StatusCode::kUnauthenticated:
          status = 401;
          break;
        case StatusCode::kAccessDenied:
          status = 403;
          break;
        case StatusCode::kUnsupported:
          status = 405;
          break;
        default:
          status = 500;
      }
    }
    int code = status == 500 ? registry::confluent::kStoreError : status;
    if (!error.wire_code.empty()) {
      int parsed = 0;
      auto [end, ec] = std::from_chars(error.wire_code.data(),
                                       error.wire_code.data() + error.wire_code.size(), parsed);
      if (ec == std::errc() && end == error.wire_code.data() + error.wire_code.size()) {
        code = parsed;
      }
    }
    return ErrorResponse(status, code, error.status.message());
  }
};

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i]);
  }
  return diff == 0;
}

// What a handler needs after authentication and authorization.
struct Call {
  const ConfluentDeps& deps;
  const http::RouteContext& context;
  std::string account;
  const std::string& Param(std::string_view name) const { return context.params.Get(name); }
  bool Flag(std::string_view name) const {
    std::optional<std::string_view> value = context.request.query().Get(name);
    return value.has_value() && *value == "true";
  }
};

enum class Scope { kSubject, kAllSubjects, kConfig };

struct Operation {
  std::string_view method;
  std::string_view path;
  std::string_view name;
  std::string_view action;  // schemaregistry:<action>
  Scope scope;
  http::Response (*handler)(const Call& call);
};

std::string ResourceArn(const ConfluentDeps& deps, const std::string& account, Scope scope,
                        const std::string& subject) {
  std::string base = "arn:aws:schemaregistry:" + deps.region + ":" + account + ":";
  switch (scope) {
    case Scope::kSubject:
      return base + "subject/" + subject;
    case Scope::kAllSubjects:
      return base + "subject/*";
    case Scope::kConfig:
      break;
  }
  return base + "config";
}

http::Response Unauthorized() {
  http::Response response = ErrorResponse(401, 401, "Unauthorized");
  response.headers.Set("WWW-Authenticate", "Basic realm=\"schema-registry\"");
  return response;
}

// The principal of the request's Basic credentials, or nullopt (401).
std::optional<auth::Principal> Authenticate(const ConfluentDeps& deps,
                                            const http::Request& request) {
  std::optional<std::string_view> header = request.headers.Get("Authorization");
  if (!header.has_value() || header->size() > kMaxCredentialBytes) return std::nullopt;
  std::string_view value = *header;
  constexpr std::string_view kScheme = "Basic ";
  if (value.size() <= kScheme.size()) return std::nullopt;
  for (size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(value[i])) !=
        std::tolower(static_cast<unsigned char>(kScheme[i]))) {
      return std::nullopt;
    }
  }
  std::optional<std::string> decoded =
      common::Base64Decode(value.substr(kScheme.size()), common::Base64Alphabet::kStandard,
                           common::Base64Padding::kOptional);
  if (!decoded.has_value()) return std::nullopt;
  size_t colon = decoded->find(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  std::string key_id = decoded->substr(0, colon);
  std::string secret = decoded->substr(colon + 1);
  Result<auth::SecretRecord> record = deps.secrets.Lookup(key_id);
  if (!record.has_value()) return std::nullopt;
  // Temporary credentials are valid only with their session token, which
  // Basic authentication cannot carry.
  if (!record->session_token.empty()) return std::nullopt;
  if (!ConstantTimeEquals(record->secret_access_key, secret)) return std::nullopt;
  return record->principal;
}

Result<nlohmann::json> ParseJsonBody(const http::Request& request) {
  if (request.body.empty()) return nlohmann::json::object();
  ST_TRY(CheckJsonNesting(request.body, "the request body"));
  nlohmann::json body = nlohmann::json::parse(request.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    return Err(InvalidArgument("the request body is not a JSON object"));
  }
  return body;
}

// {"schema": ..., "schemaType": ..., "references": [...]}; nullopt with the
// error response in `error` when malformed.
std::optional<SchemaText> SchemaOfBody(const Call& call, http::Response& error) {
  Result<nlohmann::json> body = ParseJsonBody(call.context.request);
  auto invalid = [&](const std::string& message) {
    error = ErrorResponse(422, registry::confluent::kInvalidSchema, "Invalid schema: " + message);
    return std::nullopt;
  };
  if (!body.has_value()) return invalid(body.error().message());
  SchemaText out;
  auto schema = body->find("schema");
  if (schema == body->end() || !schema->is_string()) {
    return invalid("the request needs a string member \"schema\"");
  }
  out.schema = schema->get<std::string>();
  auto type = body->find("schemaType");
  if (type != body->end() && !type->is_null()) {
    if (!type->is_string()) return invalid("\"schemaType\" must be a string");
    out.schema_type = type->get<std::string>();
  }
  auto references = body->find("references");
  if (references != body->end() && !references->is_null()) {
    if (!references->is_array()) return invalid("\"references\" must be an array");
    if (references->size() > registry::confluent::kMaxReferences) {
      return invalid("too many references");
    }
    for (const nlohmann::json& item : *references) {
      if (!item.is_object()) return invalid("a reference must be an object");
      registry::confluent::Reference ref;
      auto name = item.find("name");
      auto subject = item.find("subject");
      auto version = item.find("version");
      if (name == item.end() || !name->is_string() || subject == item.end() ||
          !subject->is_string() || version == item.end() || !version->is_number_integer()) {
        return invalid("a reference needs string name and subject and an integer version");
      }
      ref.name = name->get<std::string>();
      ref.subject = subject->get<std::string>();
      ref.version = version->get<int64_t>();
      out.references.push_back(std::move(ref));
    }
  }
  return out;
}

// "latest" / -1 → nullopt; 1..2^31-1; else an error response.
std::optional<std::optional<int64_t>> VersionOf(const std::string& text, http::Response& error) {
  if (text == "latest" || text == "-1") return std::optional<int64_t>();
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc() && end == text.data() + text.size() && value >= 1 && value <= 2147483647) {
    return std::optional<int64_t>(value);
  }
  error = ErrorResponse(422, registry::confluent::kInvalidVersion,
                        "The specified version '" + text.substr(0, 64) +
                            "' is not a valid version id. Allowed values are between [1, "
                            "2^31-1] and the string \"latest\"");
  return std::nullopt;
}

nlohmann::json ReferencesJson(const SchemaText& schema) {
  nlohmann::json array = nlohmann::json::array();
  for (const auto& ref : schema.references) {
    array.push_back({{"name", ref.name}, {"subject", ref.subject}, {"version", ref.version}});
  }
  return array;
}

// Confluent leaves schemaType out for AVRO and references out when none.
void AddSchema(nlohmann::json& out, const SchemaText& schema) {
  if (schema.schema_type != "AVRO") out["schemaType"] = schema.schema_type;
  if (!schema.references.empty()) out["references"] = ReferencesJson(schema);
  out["schema"] = schema.schema;
}

nlohmann::json VersionJson(const registry::confluent::SubjectVersion& version) {
  nlohmann::json out = {
      {"subject", version.subject}, {"version", version.version}, {"id", version.id}};
  AddSchema(out, version.schema);
  return out;
}

template <typename T, typename F>
http::Response Reply(const registry::confluent::Outcome<T>& outcome, F&& render) {
  if (!outcome) return FromError(outcome.error());
  return JsonResponse(200, render(*outcome));
}

// ---- Handlers.

http::Response Register(const Call& call) {
  http::Response error;
  std::optional<SchemaText> schema = SchemaOfBody(call, error);
  if (!schema) return error;
  return Reply(call.deps.registry.Register(call.account, call.Param("subject"), *schema),
               [](int64_t id) {
                 return nlohmann::json{{"id", id}};
               });
}

http::Response ListSubjects(const Call& call) {
  return Reply(call.deps.registry.ListSubjects(call.account, call.Flag("deleted")),
               [](const std::vector<std::string>& subjects) { return nlohmann::json(subjects); });
}

http::Response ListVersions(const Call& call) {
  return Reply(
      call.deps.registry.ListVersions(call.account, call.Param("subject"), call.Flag("deleted")),
      [](const std::vector<int64_t>& versions) { return nlohmann::json(versions); });
}

registry::confluent::Outcome<registry::confluent::SubjectVersion> FetchVersion(
    const Call& call, http::Response& error, bool& bad_version) {
  std::optional<std::optional<int64_t>> version = VersionOf(call.Param("version"), error);
  bad_version = !version.has_value();
  if (bad_version) return tl::unexpected(Error{});
  return call.deps.registry.GetVersion(call.account, call.Param("subject"), *version,
                                       call.Flag("deleted"));
}

http::Response GetVersion(const Call& call) {
  http::Response error;
  bool bad = false;
  auto found = FetchVersion(call, error, bad);
  if (bad) return error;
  return Reply(found, VersionJson);
}

http::Response GetVersionSchema(const Call& call) {
  http::Response error;
  bool bad = false;
  auto found = FetchVersion(call, error, bad);
  if (bad) return error;
  if (!found) return FromError(found.error());
  http::Response response = http::Response::Json(200, found->schema.schema);
  response.headers.Set("Content-Type", std::string(kContentType));
  return response;
}

http::Response LookupSchema(const Call& call) {
  http::Response error;
  std::optional<SchemaText> schema = SchemaOfBody(call, error);
  if (!schema) return error;
  return Reply(
      call.deps.registry.Lookup(call.account, call.Param("subject"), *schema, call.Flag("deleted")),
      VersionJson);
}

http::Response DeleteSubject(const Call& call) {
  return Reply(
      call.deps.registry.DeleteSubject(call.account, call.Param("subject"), call.Flag("permanent")),
      [](const std::vector<int64_t>& versions) { return nlohmann::json(versions); });
}

http::Response DeleteVersion(const Call& call) {
  http::Response error;
  std::optional<std::optional<int64_t>> version = VersionOf(call.Param("version"), error);
  if (!version) return error;
  return Reply(call.deps.registry.DeleteVersion(call.account, call.Param("subject"), *version,
                                                call.Flag("permanent")),
               [](int64_t number) { return nlohmann::json(number); });
}

std::optional<int64_t> IdOf(const Call& call, http::Response& error) {
  const std::string& text = call.Param("id");
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc() && end == text.data() + text.size() && value >= 1) return value;
  error = ErrorResponse(404, registry::confluent::kSchemaNotFound,
                        "Schema " + text.substr(0, 64) + " not found");
  return std::nullopt;
}

// Runs `serve` with the request's schema id, or answers 40403 for one that is
// not a positive integer.
template <typename Serve>
http::Response WithId(const Call& call, Serve&& serve) {
  http::Response error;
  std::optional<int64_t> id = IdOf(call, error);
  if (!id) return error;
  return serve(*id);
}

http::Response GetSchemaById(const Call& call) {
  return WithId(call, [&](int64_t id) {
    return Reply(call.deps.registry.GetSchemaById(call.account, id), [](const SchemaText& schema) {
      nlohmann::json out = nlohmann::json::object();
      AddSchema(out, schema);
      return out;
    });
  });
}

http::Response GetSchemaTextById(const Call& call) {
  return WithId(call, [&](int64_t id) {
    auto found = call.deps.registry.GetSchemaById(call.account, id);
    if (!found) return FromError(found.error());
    http::Response response = http::Response::Json(200, found->schema);
    response.headers.Set("Content-Type", std::string(kContentType));
    return response;
  });
}

// /subjects (names, each once) or /versions ({subject, version}) of an id.
http::Response RefsOfId(const Call& call, bool subjects_only) {
  return WithId(call, [&](int64_t id) {
    return Reply(call.deps.registry.VersionsOfId(call.account, id, call.Flag("deleted")),
                 [subjects_only](const std::vector<registry::confluent::SubjectVersionRef>& refs) {
                   nlohmann::json out = nlohmann::json::array();
                   for (const auto& ref : refs) {
                     if (!subjects_only) {
                       out.push_back({{"subject", ref.subject}, {"version", ref.version}});
                     } else if (out.empty() || out.back() != ref.subject) {
                       out.push_back(ref.subject);
                     }
                   }
                   return out;
                 });
  });
}

http::Response SubjectsOfId(const Call& call) { return RefsOfId(call, true); }
http::Response VersionsOfId(const Call& call) { return RefsOfId(call, false); }

http::Response SchemaTypes(const Call&) {
  return JsonResponse(200, nlohmann::json::array({"JSON", "PROTOBUF", "AVRO"}));
}

http::Response GetConfig(const Call& call) {
  std::string subject = call.context.params.Get("subject");
  return Reply(
      call.deps.registry.GetCompatibility(call.account, subject, call.Flag("defaultToGlobal")),
      [](const std::string& level) {
        return nlohmann::json{{"compatibilityLevel", level}};
      });
}

http::Response PutConfig(const Call& call) {
  Result<nlohmann::json> body = ParseJsonBody(call.context.request);
  std::string level;
  if (body.has_value()) {
    auto found = body->find("compatibility");
    if (found == body->end()) found = body->find("compatibilityLevel");
    if (found != body->end() && found->is_string()) level = found->get<std::string>();
  }
  return Reply(
      call.deps.registry.SetCompatibility(call.account, call.context.params.Get("subject"), level),
      [](const std::string& stored) {
        return nlohmann::json{{"compatibility", stored}};
      });
}

http::Response TestCompatibility(const Call& call) {
  http::Response error;
  std::optional<SchemaText> schema = SchemaOfBody(call, error);
  if (!schema) return error;
  std::optional<int64_t> version;
  const std::string& text = call.context.params.Get("version");
  if (!text.empty()) {
    std::optional<std::optional<int64_t>> parsed = VersionOf(text, error);
    if (!parsed) return error;
    version = *parsed;
    // "latest" checks against the latest version only, even when transitive.
    if (!version.has_value()) {
      auto latest =
          call.deps.registry.GetVersion(call.account, call.Param("subject"), std::nullopt, false);
      if (!latest) return FromError(latest.error());
      version = latest->version;
    }
  }
  bool verbose = call.Flag("verbose");
  return Reply(
      call.deps.registry.TestCompatibility(call.account, call.Param("subject"), version, *schema),
      [verbose](const registry::confluent::CompatibilityResult& result) {
        nlohmann::json out = {{"is_compatible", result.is_compatible}};
        if (verbose) out["messages"] = result.messages;
        return out;
      });
}

http::Response GetMode(const Call&) { return JsonResponse(200, {{"mode", "READWRITE"}}); }

constexpr Operation kOperations[] = {
    {"POST", "/subjects/{subject}/versions", "RegisterSchema", "WriteSubject", Scope::kSubject,
     Register},
    {"GET", "/subjects", "ListSubjects", "ReadSubject", Scope::kAllSubjects, ListSubjects},
    {"GET", "/subjects/{subject}/versions", "ListVersions", "ReadSubject", Scope::kSubject,
     ListVersions},
    {"GET", "/subjects/{subject}/versions/{version}", "GetVersion", "ReadSubject", Scope::kSubject,
     GetVersion},
    {"GET", "/subjects/{subject}/versions/{version}/schema", "GetVersionSchema", "ReadSubject",
     Scope::kSubject, GetVersionSchema},
    {"POST", "/subjects/{subject}", "LookupSchema", "ReadSubject", Scope::kSubject, LookupSchema},
    {"DELETE", "/subjects/{subject}", "DeleteSubject", "DeleteSubject", Scope::kSubject,
     DeleteSubject},
    {"DELETE", "/subjects/{subject}/versions/{version}", "DeleteVersion", "DeleteSubject",
     Scope::kSubject, DeleteVersion},
    {"GET", "/schemas/ids/{id}", "GetSchemaById", "ReadSubject", Scope::kAllSubjects,
     GetSchemaById},
    {"GET", "/schemas/ids/{id}/schema", "GetSchemaTextById", "ReadSubject", Scope::kAllSubjects,
     GetSchemaTextById},
    {"GET", "/schemas/ids/{id}/subjects", "GetSubjectsById", "ReadSubject", Scope::kAllSubjects,
     SubjectsOfId},
    {"GET", "/schemas/ids/{id}/versions", "GetVersionsById", "ReadSubject", Scope::kAllSubjects,
     VersionsOfId},
    {"GET", "/schemas/types", "GetSchemaTypes", "ReadConfig", Scope::kConfig, SchemaTypes},
    {"GET", "/config", "GetConfig", "ReadConfig", Scope::kConfig, GetConfig},
    {"PUT", "/config", "PutConfig", "WriteConfig", Scope::kConfig, PutConfig},
    {"GET", "/config/{subject}", "GetSubjectConfig", "ReadConfig", Scope::kSubject, GetConfig},
    {"PUT", "/config/{subject}", "PutSubjectConfig", "WriteConfig", Scope::kSubject, PutConfig},
    {"POST", "/compatibility/subjects/{subject}/versions/{version}", "TestCompatibility",
     "ReadSubject", Scope::kSubject, TestCompatibility},
    {"POST", "/compatibility/subjects/{subject}/versions", "TestCompatibilityAll", "ReadSubject",
     Scope::kSubject, TestCompatibility},
    {"GET", "/mode", "GetMode", "ReadConfig", Scope::kConfig, GetMode},
    {"GET", "/mode/{subject}", "GetSubjectMode", "ReadConfig", Scope::kSubject, GetMode},
};

http::Response Serve(const ConfluentDeps& deps, const Operation& operation,
                     http::RouteContext& context) {
  context.request.operation = std::string(operation.name);
  std::optional<auth::Principal> principal = Authenticate(deps, context.request);
  if (!principal.has_value()) return Unauthorized();
  context.request.principal_arn = principal->arn;
  std::string account = principal->account_id;
  auth::AccessRequest access;
  access.action = "schemaregistry:" + std::string(operation.action);
  access.resource = ResourceArn(deps, account, operation.scope, context.params.Get("subject"));
  Result<auth::AuthDecision> decision =
      deps.authorizer.Authorize(http::CallContextOf(context.request), *principal, access);
  if (!decision.has_value()) {
    return ErrorResponse(500, registry::confluent::kStoreError, decision.error().message());
  }
  if (!decision->allowed) {
    return ErrorResponse(403, 40301,
                         decision->message.empty() ? "User is denied operation " + access.action +
                                                         " on " + access.resource
                                                   : decision->message);
  }
  return operation.handler(Call{deps, context, std::move(account)});
}

}  // namespace

http::Surface MakeConfluentSurface(const ConfluentDeps& deps_in) {
  auto deps = std::make_shared<const ConfluentDeps>(deps_in);
  std::vector<http::Route> routes;
  for (const Operation& operation : kOperations) {
    const Operation* op = &operation;
    // Public to the router (which would answer in SigV4's shape); Serve
    // authenticates with Basic credentials and authorizes before any handler.
    routes.push_back(http::Route{std::string(op->method),
                                 std::string(op->path),
                                 {},
                                 std::string(op->name),
                                 http::Public(),
                                 [deps, op](http::RouteContext& context) -> Result<http::Response> {
                                   return Serve(*deps, *op, context);
                                 }});
  }
  return http::Surface{"schema-registry", "/schema-registry",
                       std::make_shared<ConfluentErrorWriter>(), std::move(routes)};
}

}  // namespace st::api::confluent
