// S3 error XML (docs/api-contract-notes.md §4.3).
#include "http/error_shapes.h"
#include "http/error_table.h"
#include "http/xml_escape.h"

namespace st::http {

namespace {

constexpr StatusCodeRow kS3ByCode[] = {
    {StatusCode::kInvalidArgument, 400, "InvalidArgument"},
    {StatusCode::kNotFound, 404, "NoSuchKey"},
    // For objects, "already exists" only arises from If-None-Match: *.
    {StatusCode::kAlreadyExists, 412, "PreconditionFailed"},
    {StatusCode::kFailedPrecondition, 412, "PreconditionFailed"},
    {StatusCode::kConflict, 409, "ConditionalRequestConflict"},
    {StatusCode::kUnauthenticated, 403, "AccessDenied"},
    {StatusCode::kAccessDenied, 403, "AccessDenied"},
    {StatusCode::kUnsupported, 501, "NotImplemented"},
    {StatusCode::kUnavailable, 503, "SlowDown"},
};

constexpr HttpStatusRow kS3ByHttpStatus[] = {
    {400, "InvalidRequest"},     {401, "AccessDenied"},
    {403, "AccessDenied"},       {404, "NoSuchKey"},
    {405, "MethodNotAllowed"},   {411, "MissingContentLength"},
    {412, "PreconditionFailed"}, {413, "EntityTooLarge"},
    {416, "InvalidRange"},       {431, "RequestHeaderSectionTooLarge"},
    {501, "NotImplemented"},     {503, "SlowDown"},
};

constexpr ErrorTable kS3Table{kS3ByCode, kS3ByHttpStatus, "InvalidRequest", "InternalError"};

void AppendElement(std::string& out, std::string_view name, std::string_view value) {
  out += '<';
  out += name;
  out += '>';
  AppendXmlEscaped(out, value);
  out += "</";
  out += name;
  out += '>';
}

}  // namespace

Response S3ErrorWriter::Write(const Request& request, const HttpError& error) const {
  WireError wire = ResolveWireError(kS3Table, error);

  Response response;
  response.status = wire.http_status;
  if (!request.request_id.empty()) {
    response.headers.Set("x-amz-request-id", request.request_id);
    response.headers.Set("x-amz-id-2", request.request_id);
  }
  // botocore falls back to the HTTP status for a body-less HEAD error.
  if (request.is_head()) return response;

  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>";
  AppendElement(xml, "Code", wire.name);
  AppendElement(xml, "Message", error.status.message());
  AppendElement(xml, "Resource", error.resource.empty() ? request.raw_path() : error.resource);
  for (const auto& [name, value] : error.details) AppendElement(xml, name, value);
  AppendElement(xml, "RequestId", request.request_id);
  AppendElement(xml, "HostId", request.request_id);
  xml += "</Error>";
  response.body = std::move(xml);
  response.headers.Set("Content-Type", "application/xml");
  return response;
}

void AppendXmlEscaped(std::string& out, std::string_view text) {
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
}

}  // namespace st::http
