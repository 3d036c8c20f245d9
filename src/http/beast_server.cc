// The Beast/Asio adapter behind server.h. Each connection is one C++20
// coroutine on its own strand; handlers run inline on the I/O threads.
//
// CMakeLists.txt force-includes <utility> for this file: Boost 1.74's
// awaitable.hpp uses std::exchange without including it (TOOLCHAIN-NOTES.md),
// and clang-format's include sorting would undo an ordering fix here.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/sendfile.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>
#include <utility>

#include "common/mutex.h"
#include "common/random.h"
#include "http/server.h"

namespace st::http {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using Tcp = asio::ip::tcp;

// Larger chunks mean fewer coroutine suspensions and syscalls per byte; 1 MiB
// stays well inside any cache-friendly working set per connection.
constexpr size_t kStreamChunkBytes = 1024 * 1024;
// One sendfile(2) call moves at most this much, so a fast client cannot keep
// an I/O thread inside the kernel for a whole 5 GB object.
constexpr size_t kSendfileChunkBytes = 8 * 1024 * 1024;
// After refusing a request whose body we did not read, we keep reading (and
// discarding) for a while so the client's send does not fail with a reset
// before it reads our error response.
constexpr uint64_t kLingerDrainBytes = 16ull * 1024 * 1024;
constexpr std::chrono::seconds kLingerTime{2};
// The read that waits for a request's first bytes; the parser takes the rest.
constexpr size_t kFirstReadBytes = 4096;
// How much of a 5xx response's body its server_error log line quotes.
constexpr size_t kLoggedErrorBodyBytes = 1024;

std::string NewRequestId() {
  static constexpr char kHex[] = "0123456789ABCDEF";
  uint64_t bits = DefaultRandom::Default().Next64();
  std::string id(16, '0');
  for (int i = 15; i >= 0; --i, bits >>= 4) id[static_cast<size_t>(i)] = kHex[bits & 0xF];
  return id;
}

bool IsServerManagedHeader(std::string_view name) {
  return HeaderNameEquals(name, "Content-Length") || HeaderNameEquals(name, "Transfer-Encoding") ||
         HeaderNameEquals(name, "Connection");
}

bool StatusForbidsBody(int status) { return status < 200 || status == 204 || status == 304; }

class ServerImpl;

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Tcp::socket socket, ServerImpl& server)
      : stream_(std::move(socket)), server_(server) {}

  asio::any_io_executor executor() { return stream_.get_executor(); }
  asio::awaitable<void> Serve();

  // Both run on the connection's strand.
  void CloseIfIdle() {
    if (!busy_) Close();
  }
  void Close() {
    beast::error_code ec;
    stream_.socket().shutdown(Tcp::socket::shutdown_both, ec);
    stream_.close();
  }

 private:
  asio::awaitable<beast::error_code> WriteResponse(const Request& request, Response& response,
                                                   unsigned version, bool keep_alive);
  asio::awaitable<void> LingerAndClose();
  // Sends a file span straight from the page cache with sendfile(2).
  asio::awaitable<beast::error_code> SendFileSpan(const Request& request, const FileSpan& span);
  void FillRequest(const bhttp::request_parser<bhttp::string_body>& parser, Request& request,
                   bool with_target);

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  ServerImpl& server_;
  bool busy_ = false;  // A request is being read, handled or answered.
};

class ServerImpl final : public Server {
 public:
  ServerImpl(Options options, Handler& handler, Logger& logger)
      : options_(std::move(options)),
        handler_(handler),
        logger_(logger),
        ioc_(options_.threads),
        acceptor_(asio::make_strand(ioc_)) {}

  ~ServerImpl() override { Shutdown(); }

  Status Start() {
    beast::error_code ec;
    asio::ip::address address = asio::ip::make_address(options_.address, ec);
    if (ec) {
      return InvalidArgument("listen address '" + options_.address +
                             "' is not an IP address; use e.g. 127.0.0.1 or 0.0.0.0");
    }
    Tcp::endpoint endpoint(address, options_.port);
    auto fail = [&](const char* what) {
      return IoError(std::string("cannot ") + what + " " + options_.address + ":" +
                     std::to_string(options_.port) + ": " + ec.message() +
                     "; choose another address or port");
    };
    if (acceptor_.open(endpoint.protocol(), ec)) return fail("open a socket for");
    if (acceptor_.set_option(asio::socket_base::reuse_address(true), ec)) return fail("configure");
    if (acceptor_.bind(endpoint, ec)) return fail("bind");
    if (acceptor_.listen(asio::socket_base::max_listen_connections, ec)) return fail("listen on");
    bound_ = acceptor_.local_endpoint(ec);
    if (ec) return fail("read the bound address of");

    asio::co_spawn(acceptor_.get_executor(), AcceptLoop(), asio::detached);
    // pthreads rather than std::thread: handlers run on these stacks, and
    // their size must not depend on the environment (server.h).
    pthread_attr_t attributes;
    if (int err = pthread_attr_init(&attributes); err != 0) return ThreadError(err);
    common::MutexLock lock(shutdown_mu_);  // threads_ is Shutdown's.
    int err = pthread_attr_setstacksize(&attributes, options_.thread_stack_bytes);
    for (int i = 0; err == 0 && i < options_.threads; ++i) {
      pthread_t thread;
      err = pthread_create(&thread, &attributes, &ServerImpl::IoThreadMain, this);
      if (err == 0) threads_.push_back(thread);
    }
    pthread_attr_destroy(&attributes);
    if (err != 0) return ThreadError(err);
    return Status::OK();
  }

  uint16_t port() const override { return bound_.port(); }
  std::string endpoint() const override {
    std::string host = bound_.address().to_string();
    if (bound_.address().is_v6()) host = "[" + host + "]";
    return host + ":" + std::to_string(bound_.port());
  }
  uint64_t requests_served() const override { return served_.load(); }

  void Shutdown() override EXCLUDES(shutdown_mu_, mu_) {
    common::MutexLock once(shutdown_mu_);
    if (shut_down_) return;
    shut_down_ = true;
    stopping_ = true;
    asio::post(acceptor_.get_executor(), [this] {
      beast::error_code ec;
      acceptor_.close(ec);
    });
    ForEachConnection([](const std::shared_ptr<Connection>& c) { c->CloseIfIdle(); });
    bool drained = WaitForConnections(options_.shutdown_grace);
    if (!drained) {
      logger_.Log(
          LogLevel::kWarn, "shutdown_forced",
          {{"endpoint", endpoint()}, {"grace_ms", int64_t(options_.shutdown_grace.count())}});
      ForEachConnection([](const std::shared_ptr<Connection>& c) { c->Close(); });
      drained = WaitForConnections(std::chrono::seconds(5));
    }
    // With the acceptor closed and no connections left, run() returns by
    // itself; stop() is for handlers that never returned.
    if (!drained) ioc_.stop();
    for (pthread_t t : threads_) pthread_join(t, nullptr);
    threads_.clear();
  }

  // Called by connections.
  const Options& options() const { return options_; }
  Handler& handler() { return handler_; }
  Logger& logger() { return logger_; }
  bool stopping() const { return stopping_.load(); }
  void CountRequest() { served_.fetch_add(1); }
  void Unregister(Connection* c) EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    connections_.erase(c);
    cv_.NotifyAll();
  }

 private:
  Status ThreadError(int err) {
    // The threads already running exit once the context stops.
    ioc_.stop();
    return IoError("cannot start an I/O thread with a " +
                   std::to_string(options_.thread_stack_bytes) +
                   "-byte stack: " + std::strerror(err) + "; lower --threads or free memory");
  }

  static void* IoThreadMain(void* self) {
    static_cast<ServerImpl*>(self)->RunIoThread();
    return nullptr;
  }

  void RunIoThread() {
    // sendfile(2) has no MSG_NOSIGNAL: a peer that hung up must give EPIPE,
    // not kill the process. Blocking it on this thread only keeps the
    // process-wide disposition to the composition root.
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    // Handlers do not throw across the adapter; this is the last line.
    while (true) {
      try {
        ioc_.run();
        return;
      } catch (const std::exception& e) {
        logger_.Log(LogLevel::kError, "io_thread_exception", {{"what", e.what()}});
      }
    }
  }

  asio::awaitable<void> AcceptLoop() {
    while (!stopping_) {
      beast::error_code ec;
      Tcp::socket socket = co_await acceptor_.async_accept(
          asio::make_strand(ioc_), asio::redirect_error(asio::use_awaitable, ec));
      if (stopping_ || ec == asio::error::operation_aborted) co_return;
      if (ec) {
        // EMFILE and friends: back off instead of spinning.
        logger_.Log(LogLevel::kWarn, "accept_failed", {{"error", ec.message()}});
        asio::steady_timer timer(acceptor_.get_executor(), std::chrono::milliseconds(50));
        co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        continue;
      }
      auto connection = std::make_shared<Connection>(std::move(socket), *this);
      {
        common::MutexLock lock(mu_);
        connections_[connection.get()] = connection;
      }
      asio::co_spawn(connection->executor(), RunConnection(connection), asio::detached);
    }
  }

  static asio::awaitable<void> RunConnection(std::shared_ptr<Connection> connection) {
    co_await connection->Serve();
  }

  void ForEachConnection(void (*action)(const std::shared_ptr<Connection>&)) EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    for (auto& [ptr, weak] : connections_) {
      if (auto c = weak.lock()) asio::post(c->executor(), [c, action] { action(c); });
    }
  }

  // True when every connection unregistered within `timeout`.
  bool WaitForConnections(std::chrono::milliseconds timeout) EXCLUDES(mu_) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    common::MutexLock lock(mu_);
    while (!connections_.empty()) {
      if (!cv_.WaitUntil(mu_, deadline)) return connections_.empty();
    }
    return true;
  }

  Options options_;
  Handler& handler_;
  Logger& logger_;
  asio::io_context ioc_;  // Declared before the sockets that use it.
  Tcp::acceptor acceptor_;
  Tcp::endpoint bound_;
  std::vector<pthread_t> threads_ GUARDED_BY(shutdown_mu_);
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> served_{0};
  common::Mutex mu_;
  common::CondVar cv_;  // Signalled when a connection unregisters.
  std::map<Connection*, std::weak_ptr<Connection>> connections_ GUARDED_BY(mu_);
  // Taken before mu_ when both are held (Shutdown waits for the connections).
  common::Mutex shutdown_mu_;
  bool shut_down_ GUARDED_BY(shutdown_mu_) = false;
};

void Connection::FillRequest(const bhttp::request_parser<bhttp::string_body>& parser,
                             Request& request, bool with_target) {
  const auto& message = parser.get();
  request.method = std::string(message.method_string());
  request.raw_target = std::string(message.target());
  for (const auto& field : message) {
    request.headers.Add(std::string(field.name_string()), std::string(field.value()));
  }
  if (with_target) {
    // Best effort for rejected requests: lets the router pick the surface.
    size_t question = request.raw_target.find('?');
    request.target.raw_path = request.raw_target.substr(0, question);
  }
}

asio::awaitable<void> Connection::Serve() {
  auto self = shared_from_this();
  const Server::Options& options = server_.options();
  beast::error_code ec;
  Tcp::endpoint remote = stream_.socket().remote_endpoint(ec);
  std::string remote_address = ec ? "" : remote.address().to_string();
  uint16_t remote_port = ec ? 0 : remote.port();

  while (!server_.stopping()) {
    bhttp::request_parser<bhttp::string_body> parser;
    parser.header_limit(static_cast<uint32_t>(options.max_header_bytes));
    parser.body_limit(options.max_body_bytes);
    busy_ = false;
    if (buffer_.size() == 0) {
      // Between requests only the idle timeout applies; the head timeout
      // starts with the request's first byte.
      stream_.expires_after(options.idle_timeout);
      size_t got = co_await stream_.async_read_some(buffer_.prepare(kFirstReadBytes),
                                                    asio::redirect_error(asio::use_awaitable, ec));
      buffer_.commit(got);
      if (ec) break;
    }
    // One deadline for the whole head: a client dripping a byte at a time
    // cannot keep the connection past it.
    stream_.expires_after(options.header_timeout);
    co_await bhttp::async_read_header(stream_, buffer_, parser,
                                      asio::redirect_error(asio::use_awaitable, ec));
    busy_ = true;
    auto started = std::chrono::steady_clock::now();
    if (ec == bhttp::error::end_of_stream || ec == asio::error::operation_aborted ||
        ec == beast::error::timeout || ec == asio::error::connection_reset ||
        ec == asio::error::bad_descriptor || (ec && buffer_.size() == 0 && !parser.got_some())) {
      break;
    }

    Request request;
    request.request_id = NewRequestId();
    request.remote_address = remote_address;
    request.remote_port = remote_port;

    std::optional<HttpError> rejection;
    if (ec == bhttp::error::header_limit) {
      rejection = HttpError(InvalidArgument("the request header section exceeds " +
                                            std::to_string(options.max_header_bytes) + " bytes"),
                            431, "");
    } else if (ec == bhttp::error::body_limit ||
               (!ec && parser.content_length().value_or(0) > options.max_body_bytes)) {
      rejection = HttpError(InvalidArgument("the request body exceeds the limit of " +
                                            std::to_string(options.max_body_bytes) + " bytes"),
                            413, "");
    } else if (ec) {
      rejection = HttpError(InvalidArgument("malformed HTTP request: " + ec.message()), 400, "");
    }
    if (!rejection) {
      FillRequest(parser, request, false);
      Result<RequestTarget> target = ParseRequestTarget(request.raw_target);
      if (!target.has_value()) {
        request.target.raw_path = request.raw_target.substr(0, request.raw_target.find('?'));
        rejection = HttpError(target.error(), 400, "");
      } else {
        request.target = std::move(target).value();
        // An absolute-form target's authority overrides Host (RFC 9112
        // §3.2.2); clients behind a forward proxy send it this way.
        if (!request.target.authority.empty()) {
          request.headers.Set("Host", request.target.authority);
        }
      }
    } else {
      FillRequest(parser, request, true);
    }

    if (!rejection && !parser.is_done()) {
      auto expect = request.headers.Get("Expect");
      if (expect && HeaderNameEquals(*expect, "100-continue") && parser.get().version() >= 11) {
        bhttp::response<bhttp::empty_body> interim{bhttp::status::continue_, 11};
        co_await bhttp::async_write(stream_, interim,
                                    asio::redirect_error(asio::use_awaitable, ec));
        if (ec) break;
      }
      while (!parser.is_done()) {
        stream_.expires_after(options.idle_timeout);
        co_await bhttp::async_read_some(stream_, buffer_, parser,
                                        asio::redirect_error(asio::use_awaitable, ec));
        if (ec) break;
      }
      if (ec == bhttp::error::body_limit) {
        rejection = HttpError(InvalidArgument("the request body exceeds the limit of " +
                                              std::to_string(options.max_body_bytes) + " bytes"),
                              413, "");
      } else if (ec == bhttp::error::end_of_stream || ec == beast::error::timeout ||
                 ec == asio::error::operation_aborted || ec == asio::error::connection_reset) {
        break;  // The client went away (or stalled) mid-body: nobody to answer.
      } else if (ec) {
        rejection =
            HttpError(InvalidArgument("malformed HTTP request body: " + ec.message()), 400, "");
      }
    }

    unsigned version = parser.get().version() == 10 ? 10 : 11;
    bool keep_alive = !rejection && parser.get().keep_alive() && options.keep_alive;
    Response response;
    if (rejection) {
      response = server_.handler().Reject(request, *rejection);
    } else {
      request.body = std::move(parser.get().body());
      try {
        response = server_.handler().Handle(request);
      } catch (const std::exception& e) {
        server_.logger().Log(LogLevel::kError, "handler_exception",
                             {{"request_id", request.request_id}, {"what", e.what()}});
        response = Response::Text(500, "internal error; request id " + request.request_id + "\n");
      }
    }
    keep_alive = keep_alive && !server_.stopping();
    server_.CountRequest();
    // A 5xx's own error body says what failed on our side (a catalog
    // conflict, a store's TLS refusal); the request line alone would leave
    // the operator guessing. Kept before the write moves the body away.
    std::string server_error;
    if (response.status >= 500 && server_.logger().Enabled(LogLevel::kWarn)) {
      server_error = response.body.substr(0, kLoggedErrorBodyBytes);
    }
    ec = co_await WriteResponse(request, response, version, keep_alive);
    if (!server_error.empty()) {
      server_.logger().Log(LogLevel::kWarn, "server_error",
                           {{"request_id", request.request_id},
                            {"status", response.status},
                            {"operation", request.operation},
                            {"body", server_error}});
    }

    if (server_.logger().Enabled(LogLevel::kInfo)) {
      double millis =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count();
      server_.logger().Log(LogLevel::kInfo, "request",
                           {{"request_id", request.request_id},
                            {"method", request.method},
                            {"path", request.raw_path()},
                            {"status", response.status},
                            {"operation", request.operation},
                            {"principal", request.principal_arn},
                            {"remote", request.remote_address},
                            {"body_bytes", uint64_t(request.body.size())},
                            {"ms", millis},
                            {"error", ec ? ec.message() : std::string()}});
    }
    if (ec) break;
    if (rejection) {
      co_await LingerAndClose();
      break;
    }
    if (!keep_alive) break;
  }
  busy_ = false;
  Close();
  server_.Unregister(this);
}

asio::awaitable<beast::error_code> Connection::WriteResponse(const Request& request,
                                                             Response& response, unsigned version,
                                                             bool keep_alive) {
  const Server::Options& options = server_.options();
  beast::error_code ec;
  for (const std::string& name : options.request_id_headers) {
    if (!response.headers.Has(name)) response.headers.Add(name, request.request_id);
  }
  auto fill = [&](auto& message) {
    message.version(version);
    message.result(static_cast<unsigned>(response.status));
    message.set(bhttp::field::server, "streamtables");
    for (const auto& [name, value] : response.headers.fields()) {
      if (!IsServerManagedHeader(name)) message.insert(name, value);
    }
    message.keep_alive(keep_alive);
  };
  bool no_body = request.is_head() || StatusForbidsBody(response.status);
  stream_.expires_after(options.idle_timeout);

  if (response.stream == nullptr || no_body) {
    bhttp::response<bhttp::string_body> message;
    fill(message);
    uint64_t length = response.body.size();
    if (response.stream != nullptr) length = response.stream_length.value_or(0);
    if (request.is_head()) {
      // HeadObject announces the object's size without a body.
      if (response.stream_length) {
        length = *response.stream_length;
      } else if (auto declared = response.headers.Get("Content-Length");
                 declared && response.body.empty()) {
        length = std::strtoull(std::string(*declared).c_str(), nullptr, 10);
      }
    }
    if (!StatusForbidsBody(response.status)) message.content_length(length);
    if (!no_body) message.body() = std::move(response.body);
    if (no_body) {
      bhttp::response_serializer<bhttp::string_body> serializer(message);
      co_await bhttp::async_write_header(stream_, serializer,
                                         asio::redirect_error(asio::use_awaitable, ec));
    } else {
      co_await bhttp::async_write(stream_, message, asio::redirect_error(asio::use_awaitable, ec));
    }
    co_return ec;
  }

  bhttp::response<bhttp::buffer_body> message;
  fill(message);
  if (response.stream_length) {
    message.content_length(*response.stream_length);
  } else {
    message.chunked(true);
  }
  message.body().data = nullptr;
  message.body().more = true;
  bhttp::response_serializer<bhttp::buffer_body> serializer(message);
  co_await bhttp::async_write_header(stream_, serializer,
                                     asio::redirect_error(asio::use_awaitable, ec));
  if (ec) co_return ec;
  if (std::optional<FileSpan> span = response.stream->File();
      span.has_value() && response.stream_length == span->length) {
    co_return co_await SendFileSpan(request, *span);
  }
  // A lending source's bytes go to the socket from its own buffer (one copy
  // fewer per byte); any other source is read into this chunk.
  const bool lends = response.stream->CanLend();
  std::vector<char> chunk(lends ? 0 : kStreamChunkBytes);
  while (true) {
    const char* data = chunk.data();
    Result<size_t> got = size_t{0};
    if (lends) {
      Result<std::string_view> lent = response.stream->Lend(kStreamChunkBytes);
      if (lent.has_value()) {
        data = lent->data();
        got = lent->size();
      } else {
        got = Err(lent.error());
      }
    } else {
      got = response.stream->Read(chunk.data(), chunk.size());
    }
    if (!got.has_value()) {
      server_.logger().Log(LogLevel::kError, "response_stream_failed",
                           {{"request_id", request.request_id}, {"error", got.error().ToString()}});
      co_return beast::error_code(asio::error::broken_pipe);
    }
    // buffer_body takes a mutable pointer but the serializer only reads it.
    message.body().data = *got == 0 ? nullptr : const_cast<char*>(data);
    message.body().size = *got;
    message.body().more = *got != 0;
    stream_.expires_after(options.idle_timeout);
    co_await bhttp::async_write(stream_, serializer, asio::redirect_error(asio::use_awaitable, ec));
    if (ec == bhttp::error::need_buffer) ec = {};
    if (ec || *got == 0) co_return ec;
  }
}

asio::awaitable<beast::error_code> Connection::SendFileSpan(const Request& request,
                                                            const FileSpan& span) {
  Tcp::socket& socket = stream_.socket();
  beast::error_code ec;
  socket.native_non_blocking(true, ec);
  if (ec) co_return ec;
  // tcp_stream's timeout only covers its own operations; this timer closes
  // the socket when the client stops reading for the idle timeout.
  asio::steady_timer idle(stream_.get_executor());
  auto self = shared_from_this();
  off_t offset = static_cast<off_t>(span.offset);
  uint64_t left = span.length;
  // A larger readahead window for the whole span. (An explicit
  // POSIX_FADV_WILLNEED of the next chunks measured 2x slower on cold files:
  // it competes with the readahead sendfile triggers itself.)
  (void)::posix_fadvise(span.fd, offset, static_cast<off_t>(span.length), POSIX_FADV_SEQUENTIAL);
  while (left > 0) {
    size_t want = left < kSendfileChunkBytes ? static_cast<size_t>(left) : kSendfileChunkBytes;
    ssize_t sent = ::sendfile(socket.native_handle(), span.fd, &offset, want);
    if (sent > 0) {
      left -= static_cast<uint64_t>(sent);
      continue;
    }
    if (sent == 0) {
      server_.logger().Log(
          LogLevel::kError, "response_stream_failed",
          {{"request_id", request.request_id},
           {"error", "file ended " + std::to_string(left) + " bytes before the announced length"}});
      co_return beast::error_code(asio::error::broken_pipe);
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      co_return beast::error_code(errno, asio::error::get_system_category());
    }
    idle.expires_after(server_.options().idle_timeout);
    idle.async_wait([self](const beast::error_code& timer_ec) {
      if (!timer_ec) self->Close();
    });
    co_await socket.async_wait(Tcp::socket::wait_write,
                               asio::redirect_error(asio::use_awaitable, ec));
    idle.cancel();
    if (ec) co_return ec;
  }
  co_return ec;
}

asio::awaitable<void> Connection::LingerAndClose() {
  beast::error_code ec;
  stream_.socket().shutdown(Tcp::socket::shutdown_send, ec);
  uint64_t drained = 0;
  std::vector<char> sink(64 * 1024);
  auto deadline = std::chrono::steady_clock::now() + kLingerTime;
  while (!ec && drained < kLingerDrainBytes) {
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) break;
    stream_.expires_after(deadline - now);
    size_t n = co_await stream_.async_read_some(asio::buffer(sink),
                                                asio::redirect_error(asio::use_awaitable, ec));
    drained += n;
  }
}

}  // namespace

Result<std::unique_ptr<Server>> Server::Make(Options options, Handler& handler, Logger& logger) {
  if (options.threads == 0) {
    options.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  if (options.threads < 0 || options.max_header_bytes == 0 || options.idle_timeout.count() <= 0 ||
      options.header_timeout.count() <= 0 ||
      options.thread_stack_bytes < static_cast<size_t>(PTHREAD_STACK_MIN)) {
    return Err(InvalidArgument(
        "server options: threads must be >= 0, max_header_bytes, idle_timeout and header_timeout "
        "> 0, thread_stack_bytes at least PTHREAD_STACK_MIN"));
  }
  auto server = std::make_unique<ServerImpl>(std::move(options), handler, logger);
  try {
    ST_TRY(server->Start());
  } catch (const std::exception& e) {
    return Err(IoError(std::string("cannot start the HTTP server: ") + e.what()));
  }
  logger.Log(LogLevel::kInfo, "listening", {{"endpoint", server->endpoint()}});
  return std::unique_ptr<Server>(std::move(server));
}

}  // namespace st::http
