// Test fixture: the S3 surface mounted on a Router over a fresh SQLite
// catalog and a local object store, with an authenticator that lets every
// request in as the admin and an authorizer that records what it was asked.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "api/s3/s3_surface.h"
#include "catalog/arns.h"
#include "catalog/id_generation.h"
#include "catalog/sqlite_metadata_store.h"
#include "common/clock.h"
#include "common/random.h"
#include "http/router.h"
#include "storage/local_object_store.h"

namespace st::api::s3 {

// Whether a response body mentions `part` (error codes, keys).
inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class AdminAuthenticator final : public http::Authenticator {
 public:
  tl::expected<auth::Principal, http::HttpError> Authenticate(const http::Request&) const override {
    auth::Principal principal;
    principal.type = auth::PrincipalType::kUser;
    principal.account_id = "111122223333";
    principal.arn = "arn:aws:iam::111122223333:user/admin";
    return principal;
  }
};

class RecordingAuthorizer final : public auth::Authorizer {
 public:
  Result<auth::AuthDecision> Authorize(const auth::CallContext&, const auth::Principal&,
                                       const auth::AccessRequest& access) const override {
    last = access;
    return auth::AuthDecision{!deny, deny ? "denied by test" : ""};
  }
  mutable auth::AccessRequest last;
  bool deny = false;
};

class S3SurfaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-s3-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    store_ = catalog::OpenSqliteMetadataStore({dir_ + "/catalog.db"}, clock_, random_).value();
    objects_ = storage::OpenLocalObjectStore(dir_ + "/objects").value();
    router_ = std::make_unique<http::Router>(authenticator_, authorizer_, logger_);
    ASSERT_TRUE(router_->Mount(MakeS3Surface({*store_, *objects_, "tables/", random_})).ok());
    auto bucket = store_->CreateTableBucket({"111122223333", "us-east-1", "analytics", {}});
    ASSERT_TRUE(bucket.has_value());
    ASSERT_TRUE(store_->CreateNamespace(bucket->arn, "ns", "111122223333").has_value());
    regular_ = *store_->CreateTable({bucket->arn, "ns", "regular", "111122223333", {}, {}});
    streaming_ = *store_->CreateTable(
        {bucket->arn, "ns", "clicks", "111122223333", std::string(kChannel), {}});
    bucket_ = catalog::WarehouseBucketName(regular_.warehouse_location);
    streaming_bucket_ = catalog::WarehouseBucketName(streaming_.warehouse_location);
  }
  void TearDown() override {
    router_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  // The store key the catalog's TableFileIO uses for `key` in `bucket`.
  std::string StoreKey(const std::string& bucket, const std::string& key) {
    return "tables/" + bucket + "/" + key;
  }

  http::Response Send(const std::string& method, const std::string& target, std::string body = "",
                      std::vector<http::Headers::Field> headers = {}) {
    auto request = http::MakeRequest(method, target, std::move(body));
    EXPECT_TRUE(request.has_value()) << target;
    request->request_id = "req-1";
    request->headers.Set("Host", "127.0.0.1:9000");
    for (auto& [name, value] : headers) request->headers.Set(name, value);
    return router_->Handle(*request);
  }

  // The whole body, drained from the stream when there is one.
  static std::string BodyOf(http::Response& response) {
    if (response.stream == nullptr) return response.body;
    std::string out;
    char buffer[7];  // Small on purpose: many Read calls.
    while (true) {
      auto got = response.stream->Read(buffer, sizeof buffer);
      EXPECT_TRUE(got.has_value());
      if (!got.has_value() || *got == 0) break;
      out.append(buffer, *got);
    }
    return out;
  }

  static constexpr const char* kChannel =
      "arn:aws:kafka:us-east-1:111122223333:channel/orders-channel";

  std::string dir_;
  ManualClock clock_{std::chrono::system_clock::from_time_t(1'780'000'000)};
  DefaultRandom random_{42};
  std::unique_ptr<catalog::MetadataStore> store_;
  std::unique_ptr<storage::ObjectStore> objects_;
  AdminAuthenticator authenticator_;
  RecordingAuthorizer authorizer_;
  NullLogger logger_;
  std::unique_ptr<http::Router> router_;
  catalog::Table regular_;
  catalog::Table streaming_;
  std::string bucket_;
  std::string streaming_bucket_;
};

}  // namespace st::api::s3
