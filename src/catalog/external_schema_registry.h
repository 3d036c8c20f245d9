// An external Confluent-compatible schema registry that a *_CONFLUENT
// channel names instead of the built-in one (extension:
// topicConfigurationList[0].recordSchema.externalSchemaRegistry), and the
// operator's allow-list of the hosts such registries may be on
// (`streamtables server --external-registry-hosts`). The JSON members are read
// and written by channel_model.cc; this header is the typed part both the API
// (which refuses a host that is not allowed and seals the secret) and the
// delivery side (which checks the host again before every request) share.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace st::catalog {

// Bounds on what a channel may store (hostile input).
inline constexpr size_t kMaxRegistryUrlBytes = 2048;
inline constexpr size_t kMaxBasicAuthKeyBytes = 256;
inline constexpr size_t kMaxBasicAuthSecretBytes = 1024;

struct ExternalSchemaRegistry {
  // As parsed by ParseExternalRegistryUrl:
  // "http[s]://host[:port][/prefix]", without a trailing '/'.
  std::string url;
  // https: requests go over TLS, the registry's certificate verified
  // (--external-registry-ca-file or the system's trust store) for `host`.
  bool tls = false;
  std::string host;         // Lower-cased; an IPv6 literal keeps its brackets.
  std::string port;         // "80" (http) or "443" (https) when the URL names none.
  std::string path_prefix;  // "" or "/a/b" (no trailing '/').
  // basicAuth.key (Confluent's basic.auth.user.info before the ':'); absent:
  // requests carry no Authorization header.
  std::optional<std::string> basic_auth_key;
  // basicAuth.secret, only in a parsed CreateChannel body: the API seals it
  // into sealed_basic_auth_secret and clears it. Never serialized.
  std::optional<std::string> basic_auth_secret;
  // basicAuth.sealedSecret of the stored document: base64 of what an
  // auth::SecretSealer sealed under ExternalRegistrySealContext. Never echoed
  // by DescribeChannel.
  std::optional<std::string> sealed_basic_auth_secret;

  // "host:port", as the allow-list names hosts.
  std::string host_port() const { return host + ":" + port; }
};

// Splits an http or https URL. Errors: InvalidArgument naming what is
// wrong: another scheme, user info in the URL (credentials go
// in basicAuth), a query or fragment, a character outside the URL grammar
// (so nothing can be smuggled into a request line or header), a bad port,
// longer than kMaxRegistryUrlBytes.
Result<ExternalSchemaRegistry> ParseExternalRegistryUrl(std::string_view url);

// Errors: InvalidArgument: empty, over the bound, a control character, or (a
// key) a ':' (HTTP Basic splits user id and password at the first ':').
Status ValidateBasicAuthKey(std::string_view key);
Status ValidateBasicAuthSecret(std::string_view secret);

// The context a channel's registry secret is sealed under: the channel's
// cluster ARN and name (what its ARN is made of before the store adds the
// uuid, which does not exist yet when the body is sealed), the registry URL
// and the key. A sealed value copied into another channel, or a document
// whose URL or key was changed, does not unseal: the secret only ever goes to
// the registry it was given for.
std::string ExternalRegistrySealContext(std::string_view cluster_arn, std::string_view channel_name,
                                        const ExternalSchemaRegistry& registry);

// `--external-registry-hosts host:port,host:port`: the hosts external
// registries may be on, lower-cased; "" is the empty list (no external
// registry allowed). Errors: InvalidArgument naming the entry (each must be
// host:port with a port of 1-65535).
Result<std::vector<std::string>> ParseRegistryHostList(std::string_view flag);

// OK when `registry`'s host:port is on `allowed` (exact match: no DNS
// lookups, no wildcards). Errors: FailedPrecondition naming the host and the
// flag that allows it.
Status CheckRegistryHostAllowed(const ExternalSchemaRegistry& registry,
                                const std::vector<std::string>& allowed);

}  // namespace st::catalog
