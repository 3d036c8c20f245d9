// S3 error XML (api-contract.md §4.3).
#include "http/error_shapes.h"
#include "http/xml_escape.h"

namespace st::http {

namespace {

struct Shape {
  int http;
  const char* code;
};

Shape ByStatusCode(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument:
      return {400, "InvalidArgument"};
    case StatusCode::kNotFound:
      return {404, "NoSuchKey"};
    // For objects, "already exists" only arises from If-None-Match: *.
    case StatusCode::kAlreadyExists:
    case StatusCode::kFailedPrecondition:
      return {412, "PreconditionFailed"};
    case StatusCode::kConflict:
      return {409, "ConditionalRequestConflict"};
    case StatusCode::kUnauthenticated:
    case StatusCode::kAccessDenied:
      return {403, "AccessDenied"};
    case StatusCode::kUnsupported:
      return {501, "NotImplemented"};
    case StatusCode::kUnavailable:
      return {503, "SlowDown"};
    default:
      return {500, "InternalError"};
  }
}

const char* ByHttpStatus(int http) {
  switch (http) {
    case 400:
      return "InvalidRequest";
    case 401:
    case 403:
      return "AccessDenied";
    case 404:
      return "NoSuchKey";
    case 405:
      return "MethodNotAllowed";
    case 411:
      return "MissingContentLength";
    case 412:
      return "PreconditionFailed";
    case 413:
      return "EntityTooLarge";
    case 416:
      return "InvalidRange";
    case 431:
      return "RequestHeaderSectionTooLarge";
    case 501:
      return "NotImplemented";
    case 503:
      return "SlowDown";
    default:
      return http < 500 ? "InvalidRequest" : "InternalError";
  }
}

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
  Shape shape = ByStatusCode(error.status.code());
  std::string code = shape.code;
  if (error.http_status != 0) {
    shape.http = error.http_status;
    code = ByHttpStatus(error.http_status);
  }
  if (!error.wire_code.empty()) code = error.wire_code;

  Response response;
  response.status = shape.http;
  if (!request.request_id.empty()) {
    response.headers.Set("x-amz-request-id", request.request_id);
    response.headers.Set("x-amz-id-2", request.request_id);
  }
  // botocore falls back to the HTTP status for a body-less HEAD error.
  if (request.is_head()) return response;

  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>";
  AppendElement(xml, "Code", code);
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
