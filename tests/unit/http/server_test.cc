#include "http/server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <future>
#include <thread>

namespace st::http {
namespace {

// Echoes method, decoded path segments and body length; "/slow" sleeps;
// "/stream/<n>" streams n bytes of 'x' without Content-Length;
// "/file/<offset>/<length>" sends that range of `file_path` (sendfile path).
class TestHandler final : public Handler {
 public:
  Response Handle(Request& request) override {
    if (request.raw_path() == "/slow") {
      entered.set_value();
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      return Response::Text(200, "slow done");
    }
    if (request.segments().size() == 2 && request.segments()[0] == "stream") {
      struct Xs final : BodySource {
        size_t left;
        explicit Xs(size_t n) : left(n) {}
        Result<size_t> Read(char* buffer, size_t capacity) override {
          size_t n = std::min(left, std::min<size_t>(capacity, 1000));
          std::fill(buffer, buffer + n, 'x');
          left -= n;
          return n;
        }
      };
      Response r;
      r.stream = std::make_unique<Xs>(std::stoul(request.segments()[1]));
      return r;
    }
    if (request.segments().size() == 3 && request.segments()[0] == "file") {
      uint64_t offset = std::stoull(request.segments()[1]);
      uint64_t length = std::stoull(request.segments()[2]);
      Response r;
      r.stream = MakeFdRangeSource(::open(file_path.c_str(), O_RDONLY), offset, length);
      r.stream_length = length;
      return r;
    }
    if (request.raw_path() == "/stack") {
      pthread_attr_t attributes;
      size_t stack_bytes = 0;
      if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
        pthread_attr_getstacksize(&attributes, &stack_bytes);
        pthread_attr_destroy(&attributes);
      }
      return Response::Text(200, "stack " + std::to_string(stack_bytes) + "\n");
    }
    if (request.raw_path() == "/object") {
      Response r;
      r.headers.Set("Content-Length", "12345");
      r.headers.Set("ETag", "\"abc\"");
      return r;
    }
    std::string text = request.method + " " + std::to_string(request.segments().size()) + " " +
                       std::to_string(request.body.size()) + " " + request.body.substr(0, 16);
    return Response::Text(200, text);
  }
  Response Reject(const Request&, const HttpError& error) override {
    return Response::Text(error.http_status, "rejected " + std::to_string(error.http_status));
  }
  std::promise<void> entered;
  std::string file_path;
};

class Client {
 public:
  explicit Client(uint16_t port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    timeval tv{5, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  }
  ~Client() { close(fd_); }
  void Send(std::string_view data) {
    while (!data.empty()) {
      ssize_t n = send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return;
      data.remove_prefix(static_cast<size_t>(n));
    }
  }
  // Reads until `marker` appears after the header end, or EOF.
  std::string ReadUntil(std::string_view marker) {
    while (buffer_.find(marker) == std::string::npos) {
      char chunk[4096];
      ssize_t n = recv(fd_, chunk, sizeof(chunk), 0);
      if (n <= 0) break;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
    size_t end = buffer_.find(marker);
    end = end == std::string::npos ? buffer_.size() : end + marker.size();
    std::string out = buffer_.substr(0, end);
    buffer_.erase(0, end);
    return out;
  }
  std::string ReadAll() { return ReadUntil(std::string(1, '\0')); }
  // Exactly `n` bytes (fewer at EOF).
  std::string ReadExactly(size_t n) {
    std::string chunk(1 << 16, '\0');
    while (buffer_.size() < n) {
      ssize_t got = recv(fd_, chunk.data(), chunk.size(), 0);
      if (got <= 0) break;
      buffer_.append(chunk.data(), static_cast<size_t>(got));
    }
    std::string out = buffer_.substr(0, n);
    buffer_.erase(0, out.size());
    return out;
  }

 private:
  int fd_;
  std::string buffer_;
};

class ServerTest : public ::testing::Test {
 protected:
  void Start(Server::Options options = {}) {
    if (options.threads == 4) options.threads = 2;
    auto server = Server::Make(options, handler_, logger_);
    ASSERT_TRUE(server.has_value()) << server.error().ToString();
    server_ = std::move(server).value();
    ASSERT_NE(server_->port(), 0);
  }
  TestHandler handler_;
  NullLogger logger_;
  std::unique_ptr<Server> server_;
};

TEST_F(ServerTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  Start();
  Client c(server_->port());
  c.Send("GET /a/b HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string first = c.ReadUntil("GET 2 0 ");
  EXPECT_NE(first.find("HTTP/1.1 200"), std::string::npos);
  EXPECT_NE(first.find("x-amz-request-id: "), std::string::npos);
  c.Send("PUT /c HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
  EXPECT_NE(c.ReadUntil("PUT 1 5 hello").find("PUT 1 5 hello"), std::string::npos);
  EXPECT_EQ(server_->requests_served(), 2u);
}

TEST_F(ServerTest, ExpectContinueThenBody) {
  Start();
  Client c(server_->port());
  c.Send("PUT /k HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
  EXPECT_NE(c.ReadUntil("\r\n\r\n").find("HTTP/1.1 100 Continue"), std::string::npos);
  c.Send("abc");
  EXPECT_NE(c.ReadUntil("PUT 1 3 abc").find("200 OK"), std::string::npos);
}

TEST_F(ServerTest, ChunkedRequestBodyIsDecoded) {
  Start();
  Client c(server_->port());
  c.Send(
      "PUT /k HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
      "3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n");
  EXPECT_NE(c.ReadUntil("PUT 1 7 abcdefg").find("PUT 1 7 abcdefg"), std::string::npos);
}

TEST_F(ServerTest, OversizedBodyGets413BeforeReadingIt) {
  Server::Options options;
  options.max_body_bytes = 1000;
  Start(options);
  Client c(server_->port());
  c.Send("PUT /k HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n");
  std::string response = c.ReadAll();
  EXPECT_NE(response.find("HTTP/1.1 413"), std::string::npos) << response;
  EXPECT_EQ(response.find("100 Continue"), std::string::npos);
  EXPECT_NE(response.find("Connection: close"), std::string::npos);
}

TEST_F(ServerTest, OversizedChunkedBodyGets413) {
  Server::Options options;
  options.max_body_bytes = 4;
  Start(options);
  Client c(server_->port());
  c.Send(
      "PUT /k HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
      "chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n");
  EXPECT_NE(c.ReadAll().find("HTTP/1.1 413"), std::string::npos);
}

TEST_F(ServerTest, OversizedHeadersGet431) {
  Server::Options options;
  options.max_header_bytes = 512;
  Start(options);
  Client c(server_->port());
  c.Send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(2000, 'a') + "\r\n\r\n");
  EXPECT_NE(c.ReadAll().find("HTTP/1.1 431"), std::string::npos);
}

TEST_F(ServerTest, MalformedTargetIsRejected) {
  Start();
  Client c(server_->port());
  c.Send("GET /a%zz HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_NE(c.ReadAll().find("HTTP/1.1 400"), std::string::npos);
}

TEST_F(ServerTest, StreamedBodyIsChunkedAndComplete) {
  Start();
  Client c(server_->port());
  c.Send("GET /stream/300000 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  std::string response = c.ReadAll();
  EXPECT_NE(response.find("Transfer-Encoding: chunked"), std::string::npos);
  std::string body = response.substr(response.find("\r\n\r\n"));
  EXPECT_EQ(std::count(body.begin(), body.end(), 'x'), 300000);
}

TEST_F(ServerTest, HeadSendsLengthButNoBody) {
  Start();
  Client c(server_->port());
  c.Send("HEAD /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string both = c.ReadUntil("GET 1 0 ");
  EXPECT_NE(both.find("Content-Length: 9"), std::string::npos) << both;  // "HEAD 1 0 "
  EXPECT_EQ(both.find("HEAD 1 0"), std::string::npos) << both;
}

TEST_F(ServerTest, HeadKeepsTheHandlersContentLength) {
  Start();
  Client c(server_->port());
  c.Send("HEAD /object HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  std::string response = c.ReadAll();
  EXPECT_NE(response.find("Content-Length: 12345"), std::string::npos) << response;
  EXPECT_NE(response.find("ETag: \"abc\""), std::string::npos) << response;
  EXPECT_EQ(response.substr(response.find("\r\n\r\n") + 4), "");
}

TEST_F(ServerTest, FileRangeSourceStreamsTheRange) {
  std::string path = ::testing::TempDir() + "/range.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out << "0123456789";
  }
  auto source = MakeFileRangeSource(path, 3, 4);
  ASSERT_TRUE(source.has_value());
  char buf[16];
  auto n = (*source)->Read(buf, sizeof(buf));
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(std::string(buf, *n), "3456");
  EXPECT_EQ((*source)->Read(buf, sizeof(buf)).value(), 0u);
  EXPECT_EQ(MakeFileRangeSource(path + ".missing", 0, 1).error().code(), StatusCode::kNotFound);
}

// A file range goes out with sendfile: every byte of the range, on a
// connection that stays usable; the 24 MiB body outruns the socket buffers,
// so the would-block wait is exercised too.
TEST_F(ServerTest, FileSpanIsSentWholeAndKeepsTheConnection) {
  handler_.file_path = ::testing::TempDir() + "/sendfile.bin";
  std::string content(24 << 20, '\0');
  uint64_t state = 42;
  for (char& byte : content) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    byte = static_cast<char>(state >> 56);
  }
  {
    std::ofstream out(handler_.file_path, std::ios::binary);
    out << content;
  }
  Start();
  Client c(server_->port());
  uint64_t offset = 12345;
  uint64_t length = content.size() - offset - 100;
  c.Send("GET /file/" + std::to_string(offset) + "/" + std::to_string(length) +
         " HTTP/1.1\r\nHost: x\r\n\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // Let the socket fill.
  std::string head = c.ReadUntil("\r\n\r\n");
  EXPECT_NE(head.find("Content-Length: " + std::to_string(length)), std::string::npos) << head;
  std::string body = c.ReadExactly(length);
  EXPECT_EQ(body.size(), length);
  EXPECT_TRUE(body == content.substr(offset, length));
  c.Send("GET /file/0/10 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  std::string second = c.ReadAll();
  EXPECT_EQ(second.substr(second.find("\r\n\r\n") + 4), content.substr(0, 10));
}

TEST_F(ServerTest, ShutdownLetsInFlightRequestFinishAndClosesIdle) {
  Start();
  Client idle(server_->port());
  idle.Send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
  idle.ReadUntil("GET 1 0 ");
  Client busy(server_->port());
  busy.Send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
  handler_.entered.get_future().wait();
  auto start = std::chrono::steady_clock::now();
  server_->Shutdown();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  std::string response = busy.ReadAll();
  EXPECT_NE(response.find("slow done"), std::string::npos) << response;
  EXPECT_NE(response.find("Connection: close"), std::string::npos);
  EXPECT_EQ(idle.ReadAll(), "");  // Closed without a response.
}

TEST_F(ServerTest, BindConflictIsAnIoErrorNamingTheAddress) {
  Start();
  Server::Options options;
  options.port = server_->port();
  auto second = Server::Make(options, handler_, logger_);
  ASSERT_FALSE(second.has_value());
  EXPECT_EQ(second.error().code(), StatusCode::kIo);
  EXPECT_NE(second.error().message().find(std::to_string(server_->port())), std::string::npos);
}

TEST_F(ServerTest, HandlersRunOnStacksOfTheConfiguredSize) {
  Server::Options options;
  options.threads = 1;
  options.thread_stack_bytes = 3 * 1024 * 1024;
  Start(options);
  Client c(server_->port());
  c.Send("GET /stack HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_NE(c.ReadUntil("\r\n\r\n").find("200 OK"), std::string::npos);
  // At least what was asked: glibc may hand out a larger cached stack.
  std::string body = c.ReadUntil("\n");
  ASSERT_EQ(body.rfind("stack ", 0), 0u) << body;
  EXPECT_GE(std::stoull(body.substr(6)), 3u * 1024 * 1024) << body;
}

TEST_F(ServerTest, TheDefaultStackIsEightMebibytesWhateverUlimitSays) {
  EXPECT_EQ(Server::Options{}.thread_stack_bytes, 8u * 1024 * 1024);
  Start();
  Client c(server_->port());
  c.Send("GET /stack HTTP/1.1\r\nHost: x\r\n\r\n");
  c.ReadUntil("\r\n\r\n");
  std::string body = c.ReadUntil("\n");
  ASSERT_EQ(body.rfind("stack ", 0), 0u) << body;
  EXPECT_GE(std::stoull(body.substr(6)), 8u * 1024 * 1024) << body;
}

TEST_F(ServerTest, ADrippingRequestHeadIsClosedAtTheHeaderTimeout) {
  Server::Options options;
  options.header_timeout = std::chrono::milliseconds(600);
  Start(options);
  Client c(server_->port());
  const std::string head = "GET /a HTTP/1.1\r\nHost: x\r\nX-Slow: ";
  std::atomic<bool> stop{false};
  auto start = std::chrono::steady_clock::now();
  std::thread dripper([&] {
    for (size_t i = 0; !stop && i < 100; ++i) {  // One byte every 50 ms, never a full head.
      c.Send(head.substr(i % head.size(), 1));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  EXPECT_EQ(c.ReadAll(), "");  // The server hung up without an answer...
  auto elapsed = std::chrono::steady_clock::now() - start;
  stop = true;
  dripper.join();
  EXPECT_GE(elapsed, std::chrono::milliseconds(550));   // ...at the head timeout,
  EXPECT_LT(elapsed, std::chrono::milliseconds(2500));  // not at the 60 s idle timeout.
  EXPECT_EQ(server_->requests_served(), 0u);
}

TEST_F(ServerTest, TheHeaderTimeoutStartsWithTheFirstByteNotAtIdle) {
  Server::Options options;
  options.header_timeout = std::chrono::milliseconds(300);
  Start(options);
  Client c(server_->port());
  c.Send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
  c.ReadUntil("GET 1 0 ");
  // Idle on keep-alive for longer than the head timeout: still open.
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  c.Send("GET /b/c HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_NE(c.ReadUntil("GET 2 0 ").find("200 OK"), std::string::npos);
}

TEST_F(ServerTest, ZeroHeaderTimeoutOrTinyStackIsRefused) {
  Server::Options options;
  options.header_timeout = std::chrono::milliseconds(0);
  EXPECT_EQ(Server::Make(options, handler_, logger_).error().code(), StatusCode::kInvalidArgument);
  options = {};
  options.thread_stack_bytes = 1024;
  EXPECT_EQ(Server::Make(options, handler_, logger_).error().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace st::http
