#include "catalog/external_schema_registry.h"

#include <cctype>
#include <charconv>

#include "common/ascii.h"

namespace st::catalog {

namespace {

bool IsHostChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-';
}

// RFC 3986 pchar and '/', which keeps CR, LF, spaces and quotes out of the
// request target built from the prefix.
bool IsPathChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("-._~!$&'()*+,;=:@%/").find(c) != std::string_view::npos;
}

bool HasControlChar(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  }
  return false;
}

// "80" .. "65535" without a sign or leading zeros beyond the value.
bool ValidPort(std::string_view port) {
  if (port.empty() || port.size() > 5) return false;
  int value = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  return ec == std::errc() && end == port.data() + port.size() && value >= 1 && value <= 65535;
}

// Splits "host[:port]" (an IPv6 literal in brackets; `default_port` when
// none is named). Errors: InvalidArgument with `what` naming the value.
Status SplitHostPort(std::string_view authority, const std::string& what,
                     std::string_view default_port, std::string* host, std::string* port) {
  std::string_view host_part = authority;
  std::string_view port_part;
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) {
      return InvalidArgument(what + ": the IPv6 literal has no closing ']'.");
    }
    host_part = authority.substr(0, close + 1);
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return InvalidArgument(what + ": expected ':' after ']'.");
      port_part = rest.substr(1);
      if (port_part.empty()) return InvalidArgument(what + ": the port is empty.");
    }
    for (char c : host_part.substr(1, host_part.size() - 2)) {
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') {
        return InvalidArgument(what + ": '" + std::string(host_part) + "' is not an IPv6 literal.");
      }
    }
  } else if (size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host_part = authority.substr(0, colon);
    port_part = authority.substr(colon + 1);
    if (port_part.empty()) return InvalidArgument(what + ": the port is empty.");
    for (char c : host_part) {
      if (!IsHostChar(c)) {
        return InvalidArgument(what + ": '" + std::string(host_part) + "' is not a host name.");
      }
    }
  } else {
    for (char c : host_part) {
      if (!IsHostChar(c)) {
        return InvalidArgument(what + ": '" + std::string(host_part) + "' is not a host name.");
      }
    }
  }
  if (host_part.empty() || host_part == "[]") return InvalidArgument(what + ": the host is empty.");
  if (!port_part.empty() && !ValidPort(port_part)) {
    return InvalidArgument(what + ": the port '" + std::string(port_part) +
                           "' is not a number from 1 to 65535.");
  }
  *host = AsciiLower(host_part);
  *port = port_part.empty() ? std::string(default_port) : std::string(port_part);
  return Status::OK();
}

}  // namespace

Result<ExternalSchemaRegistry> ParseExternalRegistryUrl(std::string_view url) {
  if (url.size() > kMaxRegistryUrlBytes) {
    return Err(InvalidArgument("The registry URL is longer than " +
                               std::to_string(kMaxRegistryUrlBytes) + " bytes."));
  }
  const std::string lower = AsciiLower(url);
  const bool tls = lower.rfind("https://", 0) == 0;
  if (!tls && lower.rfind("http://", 0) != 0) {
    return Err(InvalidArgument("The registry URL '" + std::string(url) +
                               "' must start with http:// or https:// "
                               "(https://host:port[/path-prefix])."));
  }
  std::string_view rest = url.substr(tls ? 8 : 7);
  size_t authority_end = rest.find('/');
  std::string_view authority = rest.substr(0, authority_end);
  std::string_view path =
      authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  if (authority.find('@') != std::string_view::npos) {
    return Err(InvalidArgument(
        "The registry URL must not carry user info; put the credentials in basicAuth."));
  }
  if (url.find_first_of("?#") != std::string_view::npos) {
    return Err(InvalidArgument("The registry URL must not have a query or fragment."));
  }
  for (char c : path) {
    if (!IsPathChar(c)) {
      return Err(
          InvalidArgument("The registry URL's path holds a character outside the URL "
                          "grammar; percent-encode it."));
    }
  }
  ExternalSchemaRegistry out;
  out.tls = tls;
  ST_TRY(SplitHostPort(authority, "The registry URL '" + std::string(url) + "'", tls ? "443" : "80",
                       &out.host, &out.port));
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  out.path_prefix = std::string(path);
  out.url = (tls ? "https://" : "http://") + std::string(authority) + out.path_prefix;
  return out;
}

Status ValidateBasicAuthKey(std::string_view key) {
  if (key.empty() || key.size() > kMaxBasicAuthKeyBytes || HasControlChar(key) ||
      key.find(':') != std::string_view::npos) {
    return InvalidArgument("basicAuth.key must be 1 to " + std::to_string(kMaxBasicAuthKeyBytes) +
                           " characters without ':' or control characters.");
  }
  return Status::OK();
}

Status ValidateBasicAuthSecret(std::string_view secret) {
  if (secret.empty() || secret.size() > kMaxBasicAuthSecretBytes || HasControlChar(secret)) {
    return InvalidArgument("basicAuth.secret must be 1 to " +
                           std::to_string(kMaxBasicAuthSecretBytes) +
                           " characters without control characters.");
  }
  return Status::OK();
}

std::string ExternalRegistrySealContext(std::string_view cluster_arn, std::string_view channel_name,
                                        const ExternalSchemaRegistry& registry) {
  // NUL cannot occur in any part (they are validated), so the parts cannot
  // be shifted into one another.
  std::string out = "external-schema-registry";
  const std::string_view key =
      registry.basic_auth_key.has_value() ? std::string_view(*registry.basic_auth_key) : "";
  for (std::string_view part : {cluster_arn, channel_name, std::string_view(registry.url), key}) {
    out += '\0';
    out += part;
  }
  return out;
}

Result<std::vector<std::string>> ParseRegistryHostList(std::string_view flag) {
  std::vector<std::string> out;
  while (!flag.empty()) {
    size_t comma = flag.find(',');
    std::string_view entry = flag.substr(0, comma);
    flag = comma == std::string_view::npos ? std::string_view() : flag.substr(comma + 1);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    if (entry.empty()) continue;
    const std::string what = "--external-registry-hosts entry '" + std::string(entry) + "'";
    const bool has_port = entry.back() != ']' && entry.find(':') != std::string_view::npos &&
                          (entry.front() != '[' || entry.find("]:") != std::string_view::npos);
    if (!has_port) return Err(InvalidArgument(what + " must be host:port."));
    std::string host;
    std::string port;
    ST_TRY(SplitHostPort(entry, what, "80", &host, &port));
    out.push_back(host + ":" + port);
  }
  return out;
}

Status CheckRegistryHostAllowed(const ExternalSchemaRegistry& registry,
                                const std::vector<std::string>& allowed) {
  const std::string host_port = registry.host_port();
  for (const std::string& entry : allowed) {
    if (entry == host_port) return Status::OK();
  }
  std::string list;
  for (const std::string& entry : allowed) list += (list.empty() ? "" : ",") + entry;
  return FailedPrecondition("The external schema registry host " + host_port +
                            " is not allowed on this server: the operator lists the hosts "
                            "external registries may be on with `streamtables server "
                            "--external-registry-hosts host:port,...` (now " +
                            (list.empty() ? std::string("empty: none is allowed") : list) + ").");
}

}  // namespace st::catalog
