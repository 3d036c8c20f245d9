#include "http_client/http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <limits>
#include <optional>

#include "common/ascii.h"

namespace st::http_client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;

// One keep-alive connection. Its operations are asynchronous only so that
// tcp_stream's expiry can bound them (the synchronous ones ignore it); each
// one runs the connection's own io_context to completion.
class Connection {
 public:
  // Beast reads at most the buffer's spare capacity per recv: without room
  // reserved here, a body would arrive in header-sized (a few KiB) reads,
  // each with its own syscall and timer update.
  Connection() : stream(io) { buffer.reserve(kReadBufferBytes); }
  static constexpr size_t kReadBufferBytes = 512 * 1024;

  template <typename Start>
  beast::error_code Run(std::chrono::milliseconds timeout, Start start) {
    beast::error_code result = asio::error::would_block;
    stream.expires_after(timeout);
    start([&result](beast::error_code ec, auto&&...) { result = ec; });
    io.restart();
    io.run();
    return result;
  }

  asio::io_context io;
  beast::tcp_stream stream;
  beast::flat_buffer buffer;
  std::optional<bhttp::response_parser<bhttp::buffer_body>> parser;
  bool reused = false;
};

namespace {

bool LooksClosedByPeer(const beast::error_code& ec) {
  return ec == bhttp::error::end_of_stream || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
         ec == bhttp::error::partial_message;
}

}  // namespace

HttpResponse::HttpResponse(HttpClient& client, std::unique_ptr<Connection> connection,
                           std::string what)
    : client_(client), connection_(std::move(connection)), what_(std::move(what)) {}

HttpResponse::~HttpResponse() = default;

std::string HttpResponse::Header(std::string_view name) const {
  for (const auto& [n, v] : headers_) {
    if (AsciiLower(n) == AsciiLower(name)) return v;
  }
  return "";
}

Result<size_t> HttpResponse::Read(char* buffer, size_t capacity) {
  if (done_ || capacity == 0) return size_t{0};
  Connection& c = *connection_;
  if (direct_remaining_.has_value()) return ReadDirect(buffer, capacity);
  size_t got = 0;
  while (!c.parser->is_done()) {
    auto& body = c.parser->get().body();
    body.data = buffer;
    body.size = capacity;
    beast::error_code ec = c.Run(client_.options().io_timeout, [&c](auto handler) {
      bhttp::async_read(c.stream, c.buffer, *c.parser, std::move(handler));
    });
    if (ec == bhttp::error::need_buffer) ec = {};
    if (ec) {
      done_ = true;
      connection_.reset();
      return Err(IoError("reading the body of " + what_ + ": " + ec.message()));
    }
    got = capacity - body.size;
    if (got > 0) break;
  }
  if (!c.parser->is_done()) return got;
  // The whole message is in: the connection may serve the next request.
  done_ = true;
  bool keep = c.parser->get().keep_alive();
  if (keep) client_.Release(std::move(connection_));
  connection_.reset();
  return got;
}

// A body of known length is read from the socket straight into the
// caller's buffer, in reads as large as the buffer: the parser's
// buffer_body path copies through the connection buffer 64 KiB at a time.
Result<size_t> HttpResponse::ReadDirect(char* buffer, size_t capacity) {
  Connection& c = *connection_;
  size_t want = static_cast<size_t>(std::min<uint64_t>(capacity, *direct_remaining_));
  size_t got = 0;
  if (want > 0 && c.buffer.size() > 0) {
    // Body bytes that arrived with the header.
    got = asio::buffer_copy(asio::buffer(buffer, want), c.buffer.data());
    c.buffer.consume(got);
  } else if (want > 0) {
    beast::error_code ec = c.Run(client_.options().io_timeout, [&](auto handler) {
      // Fills the whole buffer (several recvs, one timer): `want` never
      // reaches past this message.
      asio::async_read(c.stream, asio::buffer(buffer, want),
                       [&got, handler = std::move(handler)](beast::error_code e, size_t n) mutable {
                         got = n;
                         handler(e);
                       });
    });
    if (ec || got == 0) {
      done_ = true;
      connection_.reset();
      return Err(IoError("reading the body of " + what_ + ": " +
                         (ec ? ec.message() : std::string("connection closed"))));
    }
  }
  *direct_remaining_ -= got;
  if (*direct_remaining_ == 0) {
    done_ = true;
    if (keep_alive_) client_.Release(std::move(connection_));
    connection_.reset();
  }
  return got;
}

Result<std::string> HttpResponse::ReadAll(size_t limit) {
  std::string out;
  char chunk[64 * 1024];
  while (true) {
    ST_ASSIGN_OR_RETURN(size_t got, Read(chunk, sizeof chunk));
    if (got == 0) return out;
    if (out.size() + got > limit) {
      return Err(IoError("the body of " + what_ + " exceeds " + std::to_string(limit) + " bytes"));
    }
    out.append(chunk, got);
  }
}

HttpClient::HttpClient(HttpClientOptions options) : options_(std::move(options)) {}

HttpClient::~HttpClient() = default;

void HttpClient::Release(std::unique_ptr<Connection> connection) {
  connection->parser.reset();
  connection->buffer.consume(connection->buffer.size());
  connection->buffer.reserve(Connection::kReadBufferBytes);
  connection->reused = true;
  common::MutexLock lock(mu_);
  if (idle_.size() < options_.max_idle_connections) idle_.push_back(std::move(connection));
}

Result<std::unique_ptr<HttpResponse>> HttpClient::Send(const HttpRequest& request) {
  std::unique_ptr<Connection> pooled;
  {
    common::MutexLock lock(mu_);
    if (!idle_.empty()) {
      pooled = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (pooled != nullptr) {
    bool stale = false;
    Result<std::unique_ptr<HttpResponse>> sent = SendOn(std::move(pooled), request, &stale);
    // The server closed the idle connection before it read the request.
    if (sent.has_value() || !stale) return sent;
  }
  bool stale = false;
  return SendOn(nullptr, request, &stale);
}

Result<std::unique_ptr<HttpResponse>> HttpClient::SendOn(std::unique_ptr<Connection> connection,
                                                         const HttpRequest& request, bool* stale) {
  std::string what = request.method + " " + request.target;
  std::string where = options_.host + ":" + options_.port;
  if (connection == nullptr) {
    connection = std::make_unique<Connection>();
    asio::ip::tcp::resolver resolver(connection->io);
    beast::error_code ec;
    auto endpoints = resolver.resolve(options_.host, options_.port, ec);
    if (ec) return Err(StatusCode::kUnavailable, "cannot resolve " + where + ": " + ec.message());
    Connection& c = *connection;
    ec = c.Run(options_.connect_timeout, [&c, &endpoints](auto handler) {
      c.stream.async_connect(endpoints, std::move(handler));
    });
    if (ec)
      return Err(StatusCode::kUnavailable, "cannot connect to " + where + ": " + ec.message());
    c.stream.socket().set_option(asio::ip::tcp::no_delay(true), ec);
  }
  Connection& c = *connection;
  bhttp::request<bhttp::span_body<const char>> out;
  out.method_string(request.method);
  out.target(request.target);
  out.version(11);
  out.set(bhttp::field::host, where);
  for (const auto& [name, value] : request.headers) out.set(name, value);
  out.body() = beast::span<const char>(request.body.data(), request.body.size());
  out.prepare_payload();
  if (request.body.empty() && (request.method == "PUT" || request.method == "POST")) {
    out.content_length(0);
  }
  beast::error_code ec = c.Run(options_.io_timeout, [&c, &out](auto handler) {
    bhttp::async_write(c.stream, out, std::move(handler));
  });
  if (!ec) {
    c.parser.emplace();
    c.parser->body_limit(std::numeric_limits<std::uint64_t>::max());
    if (request.method == "HEAD") c.parser->skip(true);
    ec = c.Run(options_.io_timeout, [&c](auto handler) {
      bhttp::async_read_header(c.stream, c.buffer, *c.parser, std::move(handler));
    });
  }
  if (ec) {
    *stale = c.reused && LooksClosedByPeer(ec);
    return Err(IoError(what + " to " + where + ": " + ec.message()));
  }
  auto response = std::unique_ptr<HttpResponse>(new HttpResponse(*this, nullptr, what));
  const auto& message = c.parser->get();
  response->status_ = static_cast<int>(message.result_int());
  for (const auto& field : message) {
    response->headers_.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  bool finished = c.parser->is_done();
  bool keep = message.keep_alive();
  if (!finished && !c.parser->chunked() && c.parser->content_length().has_value()) {
    response->direct_remaining_ = *c.parser->content_length();
    response->keep_alive_ = keep;
  }
  response->connection_ = std::move(connection);
  if (finished) {
    // No body (HEAD, 204, an empty error): the connection is free again.
    response->done_ = true;
    if (keep) Release(std::move(response->connection_));
    response->connection_.reset();
  }
  return response;
}

}  // namespace st::http_client
