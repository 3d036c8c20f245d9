// What a real S3 server cannot be made to produce on demand: 503 SlowDown,
// 500s, a 412 after an ambiguous retry. A tiny scripted HTTP server on a
// loopback socket answers each request with the next canned reply. The
// happy paths run against real s3proxy (tests/integration/test_object_store_s3.py).
#include "s3store/s3_object_store.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <deque>
#include <thread>

#include "common/clock.h"
#include "common/mutex.h"
#include "common/random.h"
#include "s3store/s3_xml_internal.h"

namespace st::s3store {
namespace {

// Serves one request per connection (Connection: close) from a script.
class ScriptedServer {
 public:
  explicit ScriptedServer(std::deque<std::string> replies) : replies_(std::move(replies)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    ::listen(fd_, 16);
    thread_ = std::thread([this] { Serve(); });
  }
  ~ScriptedServer() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  int port() const { return port_; }
  std::vector<std::string> requests() {
    common::MutexLock lock(mu_);
    return requests_;
  }

 private:
  void Serve() {
    while (!stop_) {
      int client = ::accept(fd_, nullptr, nullptr);
      if (client < 0) return;
      std::string request;
      char buf[4096];
      size_t body_needed = std::string::npos;
      while (true) {
        ssize_t n = ::read(client, buf, sizeof buf);
        if (n <= 0) break;
        request.append(buf, static_cast<size_t>(n));
        size_t end = request.find("\r\n\r\n");
        if (end == std::string::npos) continue;
        if (body_needed == std::string::npos) {
          size_t cl = request.find("Content-Length: ");
          body_needed =
              cl == std::string::npos || cl > end ? 0 : std::stoul(request.substr(cl + 16));
        }
        if (request.size() >= end + 4 + body_needed) break;
      }
      std::string reply;
      {
        common::MutexLock lock(mu_);
        requests_.push_back(request.substr(0, request.find("\r\n")));
        if (!replies_.empty()) {
          reply = replies_.front();
          replies_.pop_front();
        }
      }
      if (reply.empty()) reply = Reply(500, "");
      (void)!::write(client, reply.data(), reply.size());
      ::close(client);
    }
  }

 public:
  static std::string Reply(int status, const std::string& body,
                           const std::string& extra_headers = "") {
    return "HTTP/1.1 " + std::to_string(status) +
           " X\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n" +
           extra_headers + "\r\n" + body;
  }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  common::Mutex mu_;
  std::deque<std::string> replies_ GUARDED_BY(mu_);
  std::vector<std::string> requests_ GUARDED_BY(mu_);
};

const std::string kSlowDown =
    "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";

struct Fixture {
  explicit Fixture(int port, int max_attempts = 4) {
    S3StoreOptions options;
    options.location = S3Location{"bkt", "pre", "127.0.0.1", std::to_string(port), "us-east-1"};
    options.credentials = {"AKID", "SECRET", ""};
    options.retry.max_attempts = max_attempts;
    options.io_timeout = std::chrono::milliseconds(2000);
    store = *OpenS3ObjectStore(options, clock, random,
                               [this](std::chrono::milliseconds d) { sleeps.push_back(d); });
  }
  ManualClock clock{std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000))};
  DefaultRandom random{42};
  std::vector<std::chrono::milliseconds> sleeps;
  std::unique_ptr<storage::ObjectStore> store;
};

TEST(S3ObjectStoreTest, RetriesSlowDownAndServerErrorsWithBackoff) {
  ScriptedServer server({ScriptedServer::Reply(503, kSlowDown), ScriptedServer::Reply(500, ""),
                         ScriptedServer::Reply(200, "hello", "ETag: \"e\"\r\n")});
  Fixture f(server.port());
  Result<std::string> got = f.store->Get("a/b");
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ(*got, "hello");
  EXPECT_EQ(server.requests(), std::vector<std::string>(3, "GET /bkt/pre/a/b HTTP/1.1"));
  ASSERT_EQ(f.sleeps.size(), 2u);
  EXPECT_LE(f.sleeps[0].count(), 50);  // Full jitter under base 50 ms, then 100 ms.
  EXPECT_LE(f.sleeps[1].count(), 100);
}

TEST(S3ObjectStoreTest, GivesUpAfterMaxAttemptsNamingTheS3Error) {
  ScriptedServer server(
      {ScriptedServer::Reply(503, kSlowDown), ScriptedServer::Reply(503, kSlowDown)});
  Fixture f(server.port(), 2);
  Result<std::string> got = f.store->Get("k");
  ASSERT_FALSE(got.has_value());
  EXPECT_EQ(got.error().code(), StatusCode::kUnavailable);
  EXPECT_NE(got.error().message().find("SlowDown"), std::string::npos) << got.error().message();
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(S3ObjectStoreTest, ClientErrorsAreNotRetried) {
  ScriptedServer server({ScriptedServer::Reply(403, "<Error><Code>AccessDenied</Code></Error>")});
  Fixture f(server.port());
  Result<std::string> got = f.store->Get("k");
  ASSERT_FALSE(got.has_value());
  EXPECT_EQ(got.error().code(), StatusCode::kAccessDenied);
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(f.sleeps.empty());
}

TEST(S3ObjectStoreTest, PutIfAbsentRetriedInto412IsOkWhenTheStoredBytesAreOurs) {
  // Attempt 1 fails with 500 (it may still have landed), attempt 2 sees
  // 412; the read-back finds our bytes.
  ScriptedServer server({ScriptedServer::Reply(500, ""), ScriptedServer::Reply(412, ""),
                         ScriptedServer::Reply(200, "meta")});
  Fixture f(server.port());
  EXPECT_TRUE(f.store->PutIfAbsent("m.json", "meta").ok());
  ScriptedServer other({ScriptedServer::Reply(500, ""), ScriptedServer::Reply(412, ""),
                        ScriptedServer::Reply(200, "someone else's")});
  Fixture g(other.port());
  EXPECT_EQ(g.store->PutIfAbsent("m.json", "meta").code(), StatusCode::kAlreadyExists);
}

TEST(S3ObjectStoreTest, PutIfAbsentFirstTry412IsAlreadyExists) {
  ScriptedServer server({ScriptedServer::Reply(412, "")});
  Fixture f(server.port());
  EXPECT_EQ(f.store->PutIfAbsent("m.json", "meta").code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(S3ObjectStoreTest, UnreachableServerIsUnavailableAfterRetries) {
  int port;
  {
    ScriptedServer gone({});
    port = gone.port();
  }
  Fixture f(port, 3);
  Result<storage::ObjectInfo> head = f.store->Head("k");
  ASSERT_FALSE(head.has_value());
  EXPECT_EQ(head.error().code(), StatusCode::kUnavailable) << head.error().ToString();
  EXPECT_EQ(f.sleeps.size(), 2u);
}

TEST(S3UrlTest, ParsesBucketPrefixEndpointAndRegion) {
  Result<S3Location> l =
      ParseS3Url("s3://bkt/a/b/?endpoint=http://127.0.0.1:9999&region=eu-west-1");
  ASSERT_TRUE(l.has_value()) << l.error().ToString();
  EXPECT_EQ(l->bucket, "bkt");
  EXPECT_EQ(l->prefix, "a/b");
  EXPECT_EQ(l->host, "127.0.0.1");
  EXPECT_EQ(l->port, "9999");
  EXPECT_EQ(l->region, "eu-west-1");
  EXPECT_FALSE(ParseS3Url("s3://bkt").has_value());  // No endpoint.
  EXPECT_FALSE(l->tls);
  Result<S3Location> secure = ParseS3Url("s3://bkt?endpoint=https://s3.example.com");
  ASSERT_TRUE(secure.has_value()) << secure.error().ToString();
  EXPECT_TRUE(secure->tls);
  EXPECT_EQ(secure->host, "s3.example.com");
  EXPECT_EQ(secure->port, "443");
  EXPECT_FALSE(ParseS3Url("s3://bkt?endpoint=ftp://h:1").has_value());
  EXPECT_FALSE(ParseS3Url("s3:///p?endpoint=http://h:1").has_value());
  EXPECT_FALSE(ParseS3Url("s3://b?endpoint=http://h:1&colour=red").has_value());
  EXPECT_FALSE(ParseS3Url("file:///tmp").has_value());
}

TEST(S3XmlTest, ParsesAListObjectsV2Page) {
  std::optional<ListPage> page = ParseListObjectsV2(
      "<?xml version=\"1.0\"?><ListBucketResult><IsTruncated>true</IsTruncated>"
      "<Contents><Key>p/a&amp;b</Key><LastModified>2026-12-03T06:42:24.500Z</LastModified>"
      "<Size>12</Size></Contents><Contents><Key>p/c&#x1;</Key><Size>0</Size></Contents>"
      "<NextContinuationToken>tok==</NextContinuationToken></ListBucketResult>");
  ASSERT_TRUE(page.has_value());
  ASSERT_EQ(page->objects.size(), 2u);
  EXPECT_EQ(page->objects[0].key, "p/a&b");
  EXPECT_EQ(page->objects[0].size, 12);
  EXPECT_EQ(page->objects[1].key, std::string("p/c\x01"));
  EXPECT_TRUE(page->truncated);
  EXPECT_EQ(page->next_token, "tok==");
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(
                page->objects[0].last_modified.time_since_epoch())
                .count(),
            1796280144500);
  EXPECT_EQ(ParseS3Time("Thu, 03 Dec 2026 06:42:24 GMT"),
            std::chrono::system_clock::time_point(std::chrono::seconds(1796280144)));
  EXPECT_FALSE(ParseListObjectsV2("<Error/>").has_value());
}

TEST(RetryTest, BackoffIsCappedFullJitter) {
  RetryPolicy policy{10, std::chrono::milliseconds(100), std::chrono::milliseconds(1000)};
  DefaultRandom random(7);
  for (int attempt = 1; attempt < 10; ++attempt) {
    int64_t ceiling = std::min<int64_t>(1000, 100LL << (attempt - 1));
    for (int i = 0; i < 50; ++i) {
      auto d = BackoffDelay(policy, attempt, random);
      EXPECT_GE(d.count(), 0);
      EXPECT_LE(d.count(), ceiling);
    }
  }
  EXPECT_TRUE(IsRetryableStatus(503));
  EXPECT_FALSE(IsRetryableStatus(404));
}

}  // namespace
}  // namespace st::s3store
