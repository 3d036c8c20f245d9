// A blocking HTTP/1.1 client (the S3 object store, external schema
// registries): keep-alive connections to one host:port in a small pool,
// connect and per-operation timeouts, and response bodies read as a stream
// (a 1 GB object never sits in memory). Redirects are returned to the caller,
// never followed. Boost.Beast stays inside http_client.cc. https (TLS 1.2+
// through OpenSSL) verifies the server's certificate chain against the
// system's trust store or a given CA file, and its name against the host.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/mutex.h"
#include "common/status.h"

namespace st::http_client {

struct HttpClientOptions {
  std::string host;  // "127.0.0.1"
  std::string port;  // "9000"
  std::chrono::milliseconds connect_timeout{5000};
  // Each read or write of a request may stall this long before it fails.
  std::chrono::milliseconds io_timeout{30000};
  size_t max_idle_connections = 8;
  // https: TLS, with SNI and the certificate checked against `host` (its
  // chain against `ca_file` when set, else OpenSSL's default paths, which
  // honour SSL_CERT_FILE / SSL_CERT_DIR). No option turns the check off.
  bool tls = false;
  std::string ca_file;  // PEM bundle of trusted CAs.
};

struct HttpRequest {
  std::string method;  // "GET", "PUT", ...
  std::string target;  // Origin form, already percent-encoded: "/b/k?uploads".
  std::vector<std::pair<std::string, std::string>> headers;
  std::string_view body;  // Must outlive Send().
};

class Connection;
class HttpClient;

// A response whose headers have arrived; the body is read with Read().
// Destroying it before the body is fully read closes the connection (a
// half-read one cannot be reused); reading it to the end returns the
// connection to the pool. Not thread-safe.
class HttpResponse {
 public:
  ~HttpResponse();
  HttpResponse(const HttpResponse&) = delete;
  HttpResponse& operator=(const HttpResponse&) = delete;

  int status() const { return status_; }
  const std::vector<std::pair<std::string, std::string>>& headers() const { return headers_; }
  // The first value of `name` (case-insensitive); "" when absent.
  std::string Header(std::string_view name) const;
  // Up to `capacity` body bytes; 0 at the end. Errors: Io (connection lost,
  // timeout), naming the request.
  Result<size_t> Read(char* buffer, size_t capacity);
  // The rest of the body. Errors: as Read, or Io above `limit` bytes.
  Result<std::string> ReadAll(size_t limit = size_t{64} << 20);

 private:
  friend class HttpClient;
  HttpResponse(HttpClient& client, std::unique_ptr<Connection> connection, std::string what);
  Result<size_t> ReadDirect(char* buffer, size_t capacity);
  HttpClient& client_;
  std::unique_ptr<Connection> connection_;
  std::string what_;  // "GET /b/k", for messages.
  int status_ = 0;
  std::vector<std::pair<std::string, std::string>> headers_;
  bool done_ = false;
  // Set for a body of known length (not chunked): bytes still to read.
  std::optional<uint64_t> direct_remaining_;
  bool keep_alive_ = false;
};

// Thread-safe.
class HttpClient {
 public:
  explicit HttpClient(HttpClientOptions options);
  ~HttpClient();

  // Sends `request` and reads the response headers. A pooled connection that
  // turns out to be closed by the server (no response byte received) is
  // replaced by a fresh one once. Errors: Unavailable when the server cannot
  // be reached or its TLS handshake (certificate, name) fails, Io for a
  // broken exchange or a timeout.
  Result<std::unique_ptr<HttpResponse>> Send(const HttpRequest& request);

  const HttpClientOptions& options() const { return options_; }

 private:
  friend class HttpResponse;
  void Release(std::unique_ptr<Connection> connection);
  Result<std::unique_ptr<HttpResponse>> SendOn(std::unique_ptr<Connection> connection,
                                               const HttpRequest& request, bool* stale);

  const HttpClientOptions options_;
  // The TLS context (https only; null otherwise), opaque here so that Asio's
  // SSL headers stay inside http_client.cc. Its setup error, if any, fails
  // every Send with the reason.
  std::shared_ptr<void> tls_context_;
  Status tls_setup_;
  common::Mutex mu_;
  std::vector<std::unique_ptr<Connection>> idle_ GUARDED_BY(mu_);
};

}  // namespace st::http_client
