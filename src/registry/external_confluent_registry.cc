#include "registry/external_confluent_registry.h"

#include <openssl/evp.h>

#include <atomic>
#include <list>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <utility>

#include "common/base64.h"
#include "common/json_nesting.h"
#include "common/mutex.h"
#include "common/percent_encoding.h"
#include "http_client/http_client.h"
#include "registry/confluent_references_internal.h"

namespace st::registry::confluent {

namespace {

using nlohmann::json;

// Transient for delivery: the batch is retried.
Status RegistryUnavailable(std::string message) {
  return Status(StatusCode::kUnavailable, std::move(message));
}

// Clients kept per host:port; beyond this the least recently used is dropped
// (in-flight requests keep theirs alive through the shared_ptr).
constexpr size_t kMaxClients = 64;
// How much of a registry's error message goes into ours.
constexpr size_t kMaxQuotedMessageBytes = 200;

std::string Sha256(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    return std::string(data.size(), '\0');  // Unreachable in practice; still no secret kept.
  }
  return std::string(reinterpret_cast<const char*>(digest), length);
}

// Confluent's reason phrases for the statuses a registry answers with.
std::string StatusText(int status) {
  switch (status) {
    case 401:
      return "401 Unauthorized";
    case 403:
      return "403 Forbidden";
    case 404:
      return "404 Not Found";
    case 500:
      return "500 Internal Server Error";
    case 502:
      return "502 Bad Gateway";
    case 503:
      return "503 Service Unavailable";
    case 504:
      return "504 Gateway Timeout";
    default:
      return std::to_string(status);
  }
}

// A schema or subject-version answer, as far as delivery needs it.
Result<SchemaText> ParseSchemaBody(const std::string& body, const std::string& what) {
  if (Status nested = CheckJsonNesting(body, what); !nested.ok()) {
    return Err(RegistryUnavailable(nested.message()));
  }
  json doc = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return Err(RegistryUnavailable(what + ": the answer is not a JSON object"));
  }
  SchemaText out;
  auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string()) {
    return Err(RegistryUnavailable(what + ": the answer has no \"schema\" string"));
  }
  out.schema = schema->get<std::string>();
  if (auto type = doc.find("schemaType"); type != doc.end() && !type->is_null()) {
    if (!type->is_string())
      return Err(RegistryUnavailable(what + ": \"schemaType\" is not a string"));
    out.schema_type = type->get<std::string>();
    if (out.schema_type != "AVRO" && out.schema_type != "PROTOBUF" && out.schema_type != "JSON") {
      return Err(RegistryUnavailable(what + ": unknown schemaType '" +
                                     out.schema_type.substr(0, kMaxQuotedMessageBytes) + "'"));
    }
  }
  if (auto refs = doc.find("references"); refs != doc.end() && !refs->is_null()) {
    if (!refs->is_array() || refs->size() > kMaxReferences) {
      return Err(RegistryUnavailable(what + ": \"references\" is not an array of at most " +
                                     std::to_string(kMaxReferences) + " references"));
    }
    for (const json& ref : *refs) {
      auto name = ref.find("name");
      auto subject = ref.find("subject");
      auto version = ref.find("version");
      if (!ref.is_object() || name == ref.end() || !name->is_string() || subject == ref.end() ||
          !subject->is_string() || version == ref.end() || !version->is_number_integer()) {
        return Err(RegistryUnavailable(what + ": a reference is not {name, subject, version}"));
      }
      out.references.push_back(Reference{name->get<std::string>(), subject->get<std::string>(),
                                         version->get<int64_t>()});
    }
  }
  return out;
}

struct CacheEntry {
  std::string key;
  RegisteredSchema schema;
  size_t bytes = 0;
};

}  // namespace

class ExternalConfluentRegistry::Impl {
 public:
  explicit Impl(ExternalRegistryOptions options) : options_(std::move(options)) {}

  Result<RegisteredSchema> Lookup(const catalog::ExternalSchemaRegistry& registry,
                                  const std::optional<BasicAuth>& auth, int64_t id) {
    ST_TRY(catalog::CheckRegistryHostAllowed(registry, options_.allowed_hosts));
    std::string authorization;
    if (auth.has_value()) {
      authorization = "Basic " + common::Base64Encode(auth->key + ":" + auth->secret);
    }
    const std::string cache_key =
        registry.url + '\0' + Sha256(authorization) + '\0' + std::to_string(id);
    if (std::optional<RegisteredSchema> hit = Cached(cache_key)) return *std::move(hit);

    std::shared_ptr<http_client::HttpClient> client = ClientFor(registry);
    const std::string where = "external schema registry " + registry.url;
    Result<std::string> body =
        Get(*client, registry, authorization, "/schemas/ids/" + std::to_string(id), where);
    if (!body) return Err(body.error());
    ST_ASSIGN_OR_RETURN(SchemaText text,
                        ParseSchemaBody(*body, where + " (schema " + std::to_string(id) + ")"));
    RegisteredSchema out{text.schema_type, std::move(text.schema), {}};
    size_t fetched = 0;
    Status resolved = ResolveReferences(
        text.references,
        [&](const std::string& subject, std::optional<int64_t> version) -> Outcome<SubjectVersion> {
          if (++fetched > options_.max_references) {
            return tl::unexpected(
                Error{kStoreError, "schema " + std::to_string(id) + " has more than " +
                                       std::to_string(options_.max_references) + " references"});
          }
          const std::string target =
              "/subjects/" + PercentEncode(subject) + "/versions/" +
              (version.has_value() ? std::to_string(*version) : std::string("latest"));
          int not_found_code = 0;
          Result<std::string> got =
              Get(*client, registry, authorization, target, where, &not_found_code);
          if (!got) {
            const bool missing = got.error().code() == StatusCode::kNotFound;
            return tl::unexpected(
                Error{missing ? not_found_code : kStoreError, got.error().message()});
          }
          Result<SchemaText> parsed = ParseSchemaBody(*got, where + " (subject " + subject + ")");
          if (!parsed) return tl::unexpected(Error{kStoreError, parsed.error().message()});
          SubjectVersion out_version;
          out_version.subject = subject;
          out_version.schema = *std::move(parsed);
          return out_version;
        },
        &out, options_.max_reference_depth);
    if (!resolved.ok()) {
      // The depth bound is the registry's fault, not the record's: transient.
      if (resolved.code() == StatusCode::kInvalidArgument) {
        return Err(RegistryUnavailable(where + ": " + resolved.message()));
      }
      return Err(resolved);
    }
    Store(cache_key, out);
    return out;
  }

  size_t cached() const {
    common::MutexLock lock(mu_);
    return lru_.size();
  }
  int64_t requests() const { return requests_.load(); }

 private:
  // GET `path` under the registry's prefix; the body of a 200. NotFound for
  // a 404 carrying one of Confluent's not-found codes (into
  // `not_found_code`), Unavailable for everything else that is not a 200.
  Result<std::string> Get(http_client::HttpClient& client,
                          const catalog::ExternalSchemaRegistry& registry,
                          const std::string& authorization, const std::string& path,
                          const std::string& where, int* not_found_code = nullptr) {
    // Checked per request too: a lookup's references are fetched later.
    ST_TRY(catalog::CheckRegistryHostAllowed(registry, options_.allowed_hosts));
    http_client::HttpRequest request;
    request.method = "GET";
    request.target = registry.path_prefix + path;
    request.headers = {{"Accept", "application/vnd.schemaregistry.v1+json, application/json"},
                       {"User-Agent", "streamtables"}};
    if (!authorization.empty()) request.headers.emplace_back("Authorization", authorization);
    requests_.fetch_add(1);
    Result<std::unique_ptr<http_client::HttpResponse>> sent = client.Send(request);
    if (!sent) {
      return Err(
          RegistryUnavailable(where + ": GET " + request.target + ": " + sent.error().message()));
    }
    http_client::HttpResponse& response = **sent;
    Result<std::string> body = response.ReadAll(options_.max_body_bytes);
    if (!body) {
      return Err(RegistryUnavailable(where + ": GET " + request.target +
                                     ": the response body could not be read or is larger than " +
                                     std::to_string(options_.max_body_bytes) + " bytes (" +
                                     body.error().message() + ")"));
    }
    const int status = response.status();
    if (status == 200) return body;
    int error_code = 0;
    std::string message;
    json doc = CheckJsonNesting(*body, "error").ok()
                   ? json::parse(*body, nullptr, /*allow_exceptions=*/false)
                   : json();
    if (doc.is_object()) {
      if (auto code = doc.find("error_code"); code != doc.end() && code->is_number_integer()) {
        error_code = code->get<int>();
      }
      if (auto text = doc.find("message"); text != doc.end() && text->is_string()) {
        message = text->get<std::string>().substr(0, kMaxQuotedMessageBytes);
      }
    }
    const std::string detail = where + ": " + StatusText(status) + " (GET " + request.target +
                               (message.empty() ? "" : ": " + message) + ")";
    if (status == 404 && (error_code == kSchemaNotFound || error_code == kSubjectNotFound ||
                          error_code == kVersionNotFound)) {
      if (not_found_code != nullptr) *not_found_code = error_code;
      return Err(NotFound(detail));
    }
    if (status >= 300 && status < 400) {
      return Err(RegistryUnavailable(detail +
                                     ": redirects are not followed; name the registry's final "
                                     "URL in the channel"));
    }
    if (status == 404) {
      return Err(RegistryUnavailable(detail +
                                     ": no Confluent error code, so this is probably not a "
                                     "schema registry path; check the URL's path prefix"));
    }
    return Err(RegistryUnavailable(detail));
  }

  std::shared_ptr<http_client::HttpClient> ClientFor(
      const catalog::ExternalSchemaRegistry& registry) {
    const std::string key = (registry.tls ? "https://" : "http://") + registry.host_port();
    common::MutexLock lock(mu_);
    auto it = clients_.find(key);
    if (it != clients_.end()) {
      it->second.second = ++client_clock_;
      return it->second.first;
    }
    if (clients_.size() >= kMaxClients) {
      auto oldest = clients_.begin();
      for (auto c = clients_.begin(); c != clients_.end(); ++c) {
        if (c->second.second < oldest->second.second) oldest = c;
      }
      clients_.erase(oldest);
    }
    http_client::HttpClientOptions options;
    // The resolver wants an IPv6 literal without its brackets.
    options.host = registry.host.size() > 1 && registry.host.front() == '['
                       ? registry.host.substr(1, registry.host.size() - 2)
                       : registry.host;
    options.port = registry.port;
    options.connect_timeout = options_.connect_timeout;
    options.io_timeout = options_.io_timeout;
    options.max_idle_connections = 2;
    options.tls = registry.tls;
    options.ca_file = options_.tls_ca_file;
    auto client = std::make_shared<http_client::HttpClient>(std::move(options));
    clients_.emplace(key, std::make_pair(client, ++client_clock_));
    return client;
  }

  std::optional<RegisteredSchema> Cached(const std::string& key) {
    common::MutexLock lock(mu_);
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->schema;
  }

  void Store(const std::string& key, const RegisteredSchema& schema) {
    size_t bytes = key.size() + schema.schema.size();
    for (const auto& [name, text] : schema.references) bytes += name.size() + text.size();
    if (bytes > options_.cache_bytes || options_.cache_entries == 0) return;
    common::MutexLock lock(mu_);
    if (index_.count(key) > 0) return;
    lru_.push_front(CacheEntry{key, schema, bytes});
    index_[key] = lru_.begin();
    cached_bytes_ += bytes;
    while (lru_.size() > options_.cache_entries || cached_bytes_ > options_.cache_bytes) {
      cached_bytes_ -= lru_.back().bytes;
      index_.erase(lru_.back().key);
      lru_.pop_back();
    }
  }

  const ExternalRegistryOptions options_;
  std::atomic<int64_t> requests_{0};
  mutable common::Mutex mu_;
  std::map<std::string, std::pair<std::shared_ptr<http_client::HttpClient>, uint64_t>> clients_
      GUARDED_BY(mu_);
  uint64_t client_clock_ GUARDED_BY(mu_) = 0;
  std::list<CacheEntry> lru_ GUARDED_BY(mu_);
  std::unordered_map<std::string, std::list<CacheEntry>::iterator> index_ GUARDED_BY(mu_);
  size_t cached_bytes_ GUARDED_BY(mu_) = 0;
};

ExternalConfluentRegistry::ExternalConfluentRegistry(ExternalRegistryOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}
ExternalConfluentRegistry::~ExternalConfluentRegistry() = default;

Result<RegisteredSchema> ExternalConfluentRegistry::LookupSchemaById(
    const catalog::ExternalSchemaRegistry& registry, const std::optional<BasicAuth>& auth,
    int64_t id) {
  return impl_->Lookup(registry, auth, id);
}

size_t ExternalConfluentRegistry::cached_schemas() const { return impl_->cached(); }
int64_t ExternalConfluentRegistry::requests_sent() const { return impl_->requests(); }

}  // namespace st::registry::confluent
