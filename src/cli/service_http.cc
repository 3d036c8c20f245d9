#include "cli/service_http.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <chrono>

namespace st::cli {

namespace beast = boost::beast;
namespace asio = boost::asio;

std::string HttpReply::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() &&
        std::equal(key.begin(), key.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      return value;
    }
  }
  return "";
}

Result<EndpointParts> ParseEndpoint(std::string_view url) {
  constexpr std::string_view kScheme = "http://";
  if (url.substr(0, kScheme.size()) != kScheme) {
    return Err(InvalidArgument("endpoint '" + std::string(url) +
                               "' must start with http:// (e.g. http://127.0.0.1:8181)"));
  }
  std::string_view rest = url.substr(kScheme.size());
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  EndpointParts parts;
  if (slash != std::string_view::npos) {
    parts.base_path = std::string(rest.substr(slash));
    while (!parts.base_path.empty() && parts.base_path.back() == '/') parts.base_path.pop_back();
  }
  size_t colon = authority.rfind(':');
  if (colon == std::string_view::npos || authority.back() == ']') {
    parts.host = std::string(authority);
    parts.port = "80";
  } else {
    parts.host = std::string(authority.substr(0, colon));
    parts.port = std::string(authority.substr(colon + 1));
  }
  if (parts.host.size() > 2 && parts.host.front() == '[') {
    parts.host = parts.host.substr(1, parts.host.size() - 2);
  }
  if (parts.host.empty())
    return Err(InvalidArgument("endpoint '" + std::string(url) + "' has no host"));
  return parts;
}

Result<HttpReply> SendHttp(const HttpCall& call) {
  asio::io_context io;
  asio::ip::tcp::resolver resolver(io);
  beast::tcp_stream stream(io);
  beast::error_code ec;
  auto endpoints = resolver.resolve(call.host, call.port, ec);
  if (ec) {
    return Err(StatusCode::kUnavailable,
               "cannot resolve " + call.host + ":" + call.port + ": " + ec.message());
  }
  stream.expires_after(std::chrono::seconds(60));
  stream.connect(endpoints, ec);
  if (ec) {
    return Err(StatusCode::kUnavailable, "cannot connect to " + call.host + ":" + call.port + " (" +
                                             ec.message() +
                                             "); is `streamtables server` running there?");
  }
  beast::http::request<beast::http::string_body> request;
  request.method_string(call.method);
  request.target(call.target);
  request.version(11);
  for (const auto& [name, value] : call.headers) request.set(name, value);
  request.body() = call.body;
  request.prepare_payload();
  beast::http::write(stream, request, ec);
  if (ec) return Err(IoError("sending " + call.method + " " + call.target + ": " + ec.message()));
  beast::flat_buffer buffer;
  beast::http::response_parser<beast::http::string_body> parser;
  parser.body_limit(256ull * 1024 * 1024);
  if (call.method == "HEAD") parser.skip(true);
  beast::http::read(stream, buffer, parser, ec);
  if (ec)
    return Err(
        IoError("reading the reply to " + call.method + " " + call.target + ": " + ec.message()));
  auto& response = parser.get();
  HttpReply reply;
  reply.status = static_cast<int>(response.result_int());
  for (const auto& field : response) {
    reply.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  reply.body = std::move(response.body());
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  return reply;
}

}  // namespace st::cli
