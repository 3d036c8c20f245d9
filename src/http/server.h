// An HTTP/1.1 server (Boost.Beast underneath, invisible here) serving one
// Handler on one listening socket.
//
// Per connection: keep-alive, `Expect: 100-continue` (the interim response is
// sent only once the headers passed the size checks), chunked request bodies
// (decoded), header/body size limits answered through Handler::Reject,
// idle and request-head timeouts, and streamed response bodies. Each request gets a request
// id and one "request" access-log line.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/logger.h"
#include "common/status.h"
#include "http/handler.h"

namespace st::http {

class Server {
 public:
  struct Options {
    // IP address to bind; "0.0.0.0" / "::" for all interfaces. Loopback by
    // default so a fresh install is not reachable from the network.
    std::string address = "127.0.0.1";
    uint16_t port = 0;  // 0: an ephemeral port; see Server::port().
    // I/O threads; handlers run on them. 0: hardware concurrency.
    int threads = 4;
    // Request line + header fields. 16 KiB covers SigV4 headers with room to spare.
    size_t max_header_bytes = 16 * 1024;
    // Larger bodies get 413 before they are read. Sized for S3 part uploads.
    uint64_t max_body_bytes = 64ull * 1024 * 1024;
    // A connection with no request in progress is closed after this long, and
    // a request whose bytes stop flowing this long is dropped.
    std::chrono::milliseconds idle_timeout{60'000};
    // The request line and header fields must be complete this long after
    // the request's first byte, however slowly they drip in; otherwise the
    // connection is closed without an answer. 20 s is ample for any client
    // on any link (a head is at most max_header_bytes) and bounds what a
    // client holding many half-sent requests costs (a coroutine each, no
    // thread: other clients are not slowed down).
    std::chrono::milliseconds header_timeout{20'000};
    // Stack of each I/O thread, on which handlers run. Every recursive parser
    // of request input is bounded (common/json_nesting.h kMaxJsonNesting,
    // iceberg/type_nesting.h kMaxTypeNesting, avro kMaxSchemaDepth); the
    // deepest requests they admit touched 204 KiB of an I/O thread's stack in
    // a RelWithDebInfo build (bench/handler_stack_bench.py), so 8 MiB leaves
    // a wide margin and no longer depends on `ulimit -s`.
    size_t thread_stack_bytes = 8 * 1024 * 1024;
    bool keep_alive = true;
    // Shutdown() waits this long for in-flight requests before closing them.
    std::chrono::milliseconds shutdown_grace{30'000};
    // Response headers that carry the request id (unless the handler set them).
    std::vector<std::string> request_id_headers = {"x-amz-request-id", "x-amzn-RequestId"};
  };

  // Binds, listens and starts the I/O threads; requests go to `handler`.
  // `handler` and `logger` must outlive the server. Errors: kInvalidArgument
  // (bad address or options), kIo (cannot bind/listen, e.g. the port is taken;
  // the message names the address; or cannot start an I/O thread).
  static Result<std::unique_ptr<Server>> Make(Options options, Handler& handler, Logger& logger);

  // Calls Shutdown().
  virtual ~Server() = default;

  // The bound port (the ephemeral one when Options::port was 0).
  virtual uint16_t port() const = 0;
  // "127.0.0.1:8181" ("[::1]:8181" for IPv6).
  virtual std::string endpoint() const = 0;

  // Stops accepting, closes idle connections, lets in-flight requests finish
  // (their responses carry `Connection: close`), waits up to shutdown_grace,
  // closes what is left and joins the I/O threads. Idempotent; thread-safe;
  // must not be called from a handler (it would wait for itself).
  virtual void Shutdown() = 0;

  // Requests answered so far (including rejected ones); for tests and metrics.
  virtual uint64_t requests_served() const = 0;
};

}  // namespace st::http
