#include "http_client/http_client.h"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <limits>
#include <optional>

#include "common/ascii.h"

namespace st::http_client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace ssl = boost::asio::ssl;

// One keep-alive connection. Its operations are asynchronous only so that
// tcp_stream's expiry can bound them (the synchronous ones ignore it); each
// one runs the connection's own io_context to completion. An https
// connection layers TLS over the same tcp_stream, so the expiry bounds the
// handshake and every TLS record too.
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

  // Calls `op` with the stream requests go through: TLS or the plain one.
  template <typename Op>
  void Visit(Op&& op) {
    if (tls.has_value()) {
      op(*tls);
    } else {
      op(stream);
    }
  }

  asio::io_context io;
  beast::tcp_stream stream;
  std::optional<ssl::stream<beast::tcp_stream&>> tls;
  beast::flat_buffer buffer;
  std::optional<bhttp::response_parser<bhttp::buffer_body>> parser;
  bool reused = false;
};

namespace {

bool LooksClosedByPeer(const beast::error_code& ec) {
  return ec == bhttp::error::end_of_stream || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
         ec == bhttp::error::partial_message || ec == ssl::error::stream_truncated;
}

// The TLS client context: TLS 1.2 or later, the peer's chain verified
// against `ca_file` or OpenSSL's default paths.
Result<std::shared_ptr<ssl::context>> MakeTlsContext(const std::string& ca_file) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
  beast::error_code ec;
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                           ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                           ssl::context::no_tlsv1_1,
                       ec);
  if (!ec) context->set_verify_mode(ssl::verify_peer, ec);
  if (ec) return Err(StatusCode::kInternal, "cannot set up TLS: " + ec.message());
  if (ca_file.empty()) {
    context->set_default_verify_paths(ec);
    if (ec) return Err(StatusCode::kInternal, "cannot load the system's CAs: " + ec.message());
  } else {
    context->load_verify_file(ca_file, ec);
    if (ec) {
      return Err(StatusCode::kInvalidArgument,
                 "cannot load the CA file " + ca_file + ": " + ec.message());
    }
  }
  return context;
}

// Starts TLS on a connected `c`: SNI (for a name, not an address), the
// certificate checked against `host` by OpenSSL during the handshake (so a
// mismatch reports X509_V_ERR_HOSTNAME_MISMATCH, named in the error).
Status StartTls(Connection& c, ssl::context& context, const std::string& host,
                const std::string& where, std::chrono::milliseconds timeout) {
  c.tls.emplace(c.stream, context);
  SSL* handle = c.tls->native_handle();
  beast::error_code parse_error;
  asio::ip::make_address(host, parse_error);
  const bool is_address = !parse_error;
  X509_VERIFY_PARAM* param = SSL_get0_param(handle);
  int named = is_address ? X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str())
                         : SSL_set_tlsext_host_name(handle, host.c_str()) == 1 &&
                               SSL_set1_host(handle, host.c_str()) == 1;
  if (named != 1) return Status(StatusCode::kInternal, "cannot set the TLS peer name " + host);
  beast::error_code ec = c.Run(timeout, [&c](auto handler) {
    c.tls->async_handshake(ssl::stream_base::client, std::move(handler));
  });
  if (!ec) return Status::OK();
  std::string reason = ec.message();
  long verify = SSL_get_verify_result(handle);
  if (verify != X509_V_OK) {
    reason += std::string(" (") + X509_verify_cert_error_string(verify) + ")";
  }
  return Status(StatusCode::kUnavailable, "TLS handshake with " + where + " failed: " + reason);
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
      c.Visit([&](auto& stream) {
        bhttp::async_read(stream, c.buffer, *c.parser, std::move(handler));
      });
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
      c.Visit([&](auto& stream) {
        asio::async_read(
            stream, asio::buffer(buffer, want),
            [&got, handler = std::move(handler)](beast::error_code e, size_t n) mutable {
              got = n;
              handler(e);
            });
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

HttpClient::HttpClient(HttpClientOptions options) : options_(std::move(options)) {
  if (options_.tls) {
    Result<std::shared_ptr<ssl::context>> context = MakeTlsContext(options_.ca_file);
    if (context.has_value()) {
      tls_context_ = *std::move(context);
    } else {
      tls_setup_ = context.error();
    }
  }
}

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
  ST_TRY(tls_setup_);
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
    if (options_.tls) {
      ST_TRY(StartTls(c, *std::static_pointer_cast<ssl::context>(tls_context_), options_.host,
                      where, options_.connect_timeout));
    }
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
    c.Visit([&](auto& stream) { bhttp::async_write(stream, out, std::move(handler)); });
  });
  if (!ec) {
    c.parser.emplace();
    c.parser->body_limit(std::numeric_limits<std::uint64_t>::max());
    if (request.method == "HEAD") c.parser->skip(true);
    ec = c.Run(options_.io_timeout, [&c](auto handler) {
      c.Visit([&](auto& stream) {
        bhttp::async_read_header(stream, c.buffer, *c.parser, std::move(handler));
      });
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
