#include "cli/service_client.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cli/service_http.h"
#include "common/percent_encoding.h"

namespace st::cli {

namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string Trim(std::string s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The [profile] section of an AWS shared credentials file.
Result<auth::SigningCredentials> ProfileCredentials(const std::string& profile) {
  std::string path = Env("AWS_SHARED_CREDENTIALS_FILE");
  if (path.empty()) path = Env("HOME") + "/.aws/credentials";
  std::ifstream in(path);
  if (!in) {
    return Err(FailedPrecondition("--profile " + profile + ": cannot read '" + path +
                                  "'; create it or set AWS_SHARED_CREDENTIALS_FILE"));
  }
  auth::SigningCredentials credentials;
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    line = Trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[') {
      in_section = line == "[" + profile + "]";
      continue;
    }
    if (!in_section) continue;
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = Trim(line.substr(0, eq));
    std::string value = Trim(line.substr(eq + 1));
    if (key == "aws_access_key_id") credentials.access_key_id = value;
    if (key == "aws_secret_access_key") credentials.secret_access_key = value;
    if (key == "aws_session_token") credentials.session_token = value;
  }
  if (credentials.access_key_id.empty() || credentials.secret_access_key.empty()) {
    return Err(FailedPrecondition("--profile " + profile + ": no aws_access_key_id and " +
                                  "aws_secret_access_key in section [" + profile + "] of '" + path +
                                  "'"));
  }
  return credentials;
}

StatusCode CodeForHttp(int status) {
  switch (status) {
    case 400:
      return StatusCode::kInvalidArgument;
    case 401:
      return StatusCode::kUnauthenticated;
    case 403:
      return StatusCode::kAccessDenied;
    case 404:
      return StatusCode::kNotFound;
    case 409:
      return StatusCode::kConflict;
    case 503:
      return StatusCode::kUnavailable;
    default:
      return status >= 500 ? StatusCode::kInternal : StatusCode::kInvalidArgument;
  }
}

Status ReplyError(const HttpReply& reply) {
  std::string type = reply.Header("x-amzn-ErrorType");
  std::string message;
  nlohmann::json body = nlohmann::json::parse(reply.body, nullptr, false);
  if (!body.is_discarded() && body.is_object()) {
    if (body.contains("message") && body["message"].is_string()) message = body["message"];
    if (type.empty() && body.contains("__type") && body["__type"].is_string())
      type = body["__type"];
  }
  if (message.empty()) message = reply.body;
  if (type.empty()) type = "HTTP " + std::to_string(reply.status);
  return Status(CodeForHttp(reply.status),
                type + " (HTTP " + std::to_string(reply.status) + "): " + message);
}

}  // namespace

Result<ServiceSettings> ResolveServiceSettings(const ServiceOptions& options) {
  ServiceSettings settings;
  std::string key_file = options.data_dir + "/keys/admin.json";
  nlohmann::json admin;
  if (std::ifstream in(key_file); in) {
    std::stringstream text;
    text << in.rdbuf();
    admin = nlohmann::json::parse(text.str(), nullptr, false);
    if (admin.is_discarded() || !admin.is_object()) {
      return Err(FailedPrecondition("'" + key_file + "' is not the JSON the server writes; " +
                                    "restart the server to rewrite it"));
    }
  }
  auto admin_string = [&](const nlohmann::json& doc, const char* key) -> std::string {
    auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : "";
  };

  if (!options.profile.empty()) {
    ST_ASSIGN_OR_RETURN(settings.credentials, ProfileCredentials(options.profile));
    settings.credentials_source = "profile " + options.profile;
  } else if (!Env("AWS_ACCESS_KEY_ID").empty() && !Env("AWS_SECRET_ACCESS_KEY").empty()) {
    settings.credentials = {Env("AWS_ACCESS_KEY_ID"), Env("AWS_SECRET_ACCESS_KEY"),
                            Env("AWS_SESSION_TOKEN")};
    settings.credentials_source = "environment";
  } else if (admin.is_object()) {
    settings.credentials = {admin_string(admin, "access_key_id"),
                            admin_string(admin, "secret_access_key"), ""};
    settings.account_id = admin_string(admin, "account_id");
    settings.credentials_source = key_file;
  }
  if (settings.credentials.access_key_id.empty()) {
    return Err(FailedPrecondition(
        "no credentials: pass --profile, set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or "
        "point --data-dir at the server's data dir (looked for '" +
        key_file + "')"));
  }

  settings.api_url = options.endpoint;
  if (settings.api_url.empty()) settings.api_url = Env("STREAMTABLES_ENDPOINT");
  if (settings.api_url.empty() && admin.is_object() && admin.contains("endpoints")) {
    settings.api_url = admin_string(admin["endpoints"], "api");
  }
  if (settings.api_url.empty()) {
    return Err(
        FailedPrecondition("no endpoint: pass --endpoint http://HOST:PORT or start the "
                           "server with --data-dir " +
                           options.data_dir));
  }
  settings.region = options.region;
  if (settings.region.empty() && admin.is_object()) settings.region = admin_string(admin, "region");
  if (settings.region.empty()) settings.region = Env("AWS_REGION");
  if (settings.region.empty()) settings.region = Env("AWS_DEFAULT_REGION");
  if (settings.region.empty()) settings.region = "us-east-1";
  return settings;
}

Result<nlohmann::json> ServiceClient::Call(const std::string& method, const std::string& path,
                                           const QueryList& query,
                                           const std::optional<nlohmann::json>& body) const {
  return Send(method, path, query, body, Wire{});
}

Result<nlohmann::json> ServiceClient::CallTarget(const std::string& path,
                                                 const std::string& service,
                                                 const std::string& target,
                                                 const nlohmann::json& body) const {
  Wire wire{service, "application/x-amz-json-1.1", {{"x-amz-target", target}}};
  return Send("POST", path, {}, body, wire);
}

Result<nlohmann::json> ServiceClient::Send(const std::string& method, const std::string& path,
                                           const QueryList& query,
                                           const std::optional<nlohmann::json>& body,
                                           const Wire& wire) const {
  ST_ASSIGN_OR_RETURN(EndpointParts endpoint, ParseEndpoint(settings_.api_url));
  std::string raw_query;
  for (const auto& [key, value] : query) {
    if (!raw_query.empty()) raw_query += '&';
    raw_query += PercentEncode(key) + "=" + PercentEncode(value);
  }
  HttpCall call;
  call.host = endpoint.host;
  call.port = endpoint.port;
  call.method = method;
  std::string raw_path = endpoint.base_path + path;
  call.target = raw_path + (raw_query.empty() ? "" : "?" + raw_query);
  std::string host_header = endpoint.host + ":" + endpoint.port;
  call.headers.emplace_back("host", host_header);
  if (body) {
    call.body = body->dump();
    call.headers.emplace_back("content-type", wire.content_type);
  }
  for (const auto& header : wire.headers) call.headers.push_back(header);

  auth::HttpRequestView view;
  view.method = call.method;
  view.raw_path = raw_path;
  view.raw_query = raw_query;
  for (const auto& [name, value] : call.headers) view.headers.emplace_back(name, value);
  view.body = std::string_view(call.body);
  auth::SigningOptions signing;
  signing.region = settings_.region;
  signing.service = wire.service;
  signing.time = std::chrono::system_clock::now();
  ST_ASSIGN_OR_RETURN(auto signed_headers, auth::SignRequest(view, settings_.credentials, signing));
  for (auto& header : signed_headers) call.headers.push_back(std::move(header));
  call.headers.emplace_back("user-agent", "streamtables-cli");

  ST_ASSIGN_OR_RETURN(HttpReply reply, SendHttp(call));
  if (reply.status < 200 || reply.status > 299) return Err(ReplyError(reply));
  if (reply.body.empty()) return nlohmann::json();
  nlohmann::json parsed = nlohmann::json::parse(reply.body, nullptr, false);
  if (parsed.is_discarded()) {
    return Err(Corruption("the reply to " + method + " " + path +
                          " is not JSON: " + reply.body.substr(0, 200)));
  }
  return parsed;
}

Result<std::string> ResolveBucketArn(const ServiceClient& client, const std::string& name_or_arn) {
  if (name_or_arn.rfind("arn:", 0) == 0) return name_or_arn;
  const ServiceSettings& settings = client.settings();
  if (!settings.account_id.empty()) {
    return "arn:aws:s3tables:" + settings.region + ":" + settings.account_id + ":bucket/" +
           name_or_arn;
  }
  std::string token;
  do {
    QueryList query = {{"prefix", name_or_arn}};
    if (!token.empty()) query.emplace_back("continuationToken", token);
    ST_ASSIGN_OR_RETURN(nlohmann::json page, client.Call("GET", "/buckets", query));
    for (const auto& bucket : page.value("tableBuckets", nlohmann::json::array())) {
      if (bucket.value("name", "") == name_or_arn) return bucket.value("arn", "");
    }
    token = page.value("continuationToken", "");
  } while (!token.empty());
  return Err(NotFound("no table bucket named '" + name_or_arn + "' is visible to these " +
                      "credentials; pass its ARN instead"));
}

}  // namespace st::cli
