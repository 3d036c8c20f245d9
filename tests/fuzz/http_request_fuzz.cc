// Raw bytes through Beast's HTTP/1.1 request parser into our Request, as
// src/http/beast_server.cc does it: the same limits, the field lines copied
// into http::Headers, the request-target through ParseRequestTarget (which
// must accept or refuse it without crashing), then the lookups the server
// and the SigV4 layer make on the result.
#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/headers.h"
#include "http/request.h"
#include "http/request_target.h"

namespace bhttp = boost::beast::http;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  bhttp::request_parser<bhttp::string_body> parser;
  parser.header_limit(16 * 1024);  // Server::Options defaults.
  parser.body_limit(1 << 20);
  parser.eager(true);
  boost::beast::error_code ec;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (!rest.empty() && !parser.is_done()) {
    size_t used = parser.put(boost::asio::buffer(rest.data(), rest.size()), ec);
    if (ec == bhttp::error::need_more) {
      ec = {};
      break;
    }
    if (ec || used == 0) break;
    rest.remove_prefix(used);
  }
  if (!ec && !parser.is_done()) parser.put_eof(ec);
  if (!parser.is_header_done()) return 0;

  const auto& message = parser.get();
  st::http::Request request;
  request.method = std::string(message.method_string());
  request.raw_target = std::string(message.target());
  for (const auto& field : message) {
    request.headers.Add(std::string(field.name_string()), std::string(field.value()));
  }
  auto target = st::http::ParseRequestTarget(request.raw_target);
  if (target.has_value()) {
    request.target = std::move(target).value();
    if (!request.target.authority.empty()) {
      request.headers.Set("Host", request.target.authority);
    }
    for (const auto& [key, value] : request.target.query.params()) {
      (void)request.target.query.GetAll(key);
    }
  } else {
    request.target.raw_path = request.raw_target.substr(0, request.raw_target.find('?'));
  }
  (void)request.headers.GetAll("host");
  (void)request.headers.Get("Expect");
  (void)request.headers.Get("x-amz-content-sha256");
  (void)message.keep_alive();
  (void)parser.content_length();
  if (parser.is_done()) request.body = message.body();
  request.headers.Remove("Authorization");
  return 0;
}
