// An explicit allow-list, not a prefix: librdkafka keeps adding sasl.* and
// ssl.* properties that run commands (sasl.kerberos.kinit.cmd), load code
// (ssl.engine.location, ssl.providers) or read files and URLs, and a new one
// must stay refused until someone has read what it does.
#include "catalog/kafka_client_properties.h"

#include <array>
#include <span>

namespace st::catalog {

namespace {

enum class ValueKind {
  kEnum,      // One of `values` (ASCII case-insensitive when `any_case`).
  kBool,      // "true" or "false".
  kText,      // 1..kMaxKafkaPropertyValueBytes bytes, no control characters.
  kClientId,  // 1..255 of [A-Za-z0-9._-].
  kPem,       // PEM text (BEGIN/END armour), no control characters but line breaks.
};

struct PropertySpec {
  std::string_view name;
  ValueKind kind;
  bool secret = false;
  std::span<const std::string_view> values = {};
  bool any_case = false;
};

constexpr std::array<std::string_view, 4> kProtocols = {"PLAINTEXT", "SSL", "SASL_PLAINTEXT",
                                                        "SASL_SSL"};
constexpr std::array<std::string_view, 4> kMechanisms = {"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512",
                                                         "OAUTHBEARER"};
constexpr std::array<std::string_view, 1> kOauthMethods = {"default"};
constexpr std::array<std::string_view, 2> kIdentification = {"none", "https"};

constexpr std::array<PropertySpec, 15> kSpecs = {{
    {"security.protocol", ValueKind::kEnum, false, kProtocols, true},
    {"sasl.mechanism", ValueKind::kEnum, false, kMechanisms},
    {"sasl.mechanisms", ValueKind::kEnum, false, kMechanisms},
    {"sasl.username", ValueKind::kText},
    {"sasl.password", ValueKind::kText, true},
    {"sasl.oauthbearer.config", ValueKind::kText, true},
    {"sasl.oauthbearer.method", ValueKind::kEnum, false, kOauthMethods, true},
    {"enable.sasl.oauthbearer.unsecure.jwt", ValueKind::kBool},
    {"ssl.ca.pem", ValueKind::kPem},
    {"ssl.certificate.pem", ValueKind::kPem},
    {"ssl.key.pem", ValueKind::kPem, true},
    {"ssl.key.password", ValueKind::kText, true},
    {"ssl.endpoint.identification.algorithm", ValueKind::kEnum, false, kIdentification, true},
    {"enable.ssl.certificate.verification", ValueKind::kBool},
    {"client.id", ValueKind::kClientId},
}};

const PropertySpec* FindSpec(std::string_view key) {
  for (const PropertySpec& spec : kSpecs) {
    if (spec.name == key) return &spec;
  }
  return nullptr;
}

// The key or value as it may appear in a message: printable ASCII, the rest
// as \xNN, at most 64 characters.
std::string Printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < text.size() && i < 64; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    }
  }
  if (text.size() > 64) out += "...";
  return out;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool EqualsAnyCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::string Join(std::span<const std::string_view> values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += i + 1 == values.size() ? " or " : ", ";
    out += values[i];
  }
  return out;
}

// Why an unlisted property is refused, with what to send instead.
std::string WhyRefused(std::string_view key) {
  if (key == "ssl.ca.location" || key == "ssl.certificate.location" || key == "ssl.key.location") {
    std::string pem(key.substr(0, key.size() - std::string_view("location").size()));
    return "it names a file on the server; send the PEM text in " + pem + "pem instead";
  }
  if (StartsWith(key, "ssl.keystore.")) {
    return "a PKCS#12 keystore is a file on the server; send the certificate and key as PEM "
           "text in ssl.certificate.pem and ssl.key.pem";
  }
  if (StartsWith(key, "sasl.kerberos.") || key == "sasl.kerberos") {
    return "Kerberos (GSSAPI) is not supported, since it runs kinit and reads keytabs on the "
           "server; use sasl.mechanism " +
           Join(kMechanisms);
  }
  if (StartsWith(key, "sasl.oauthbearer.")) {
    return "OAUTHBEARER takes only a static sasl.oauthbearer.config here; the server fetches no "
           "token from an endpoint";
  }
  if (StartsWith(key, "ssl.engine") || StartsWith(key, "ssl_engine") ||
      StartsWith(key, "ssl.providers") || StartsWith(key, "plugin.") ||
      key.ends_with(".location") || key.ends_with(".path") || key.ends_with(".paths") ||
      key.ends_with(".cmd")) {
    return "it makes the server load a file, a library or run a program";
  }
  return "a registration may set only " + SupportedKafkaClientProperties();
}

Status BadValue(const PropertySpec& spec, std::string_view value, const std::string& rule) {
  std::string what = spec.secret ? std::string(" has a value that")
                                 : " has the value '" + Printable(value) + "', which";
  return InvalidArgument("The client property '" + std::string(spec.name) + "'" + what +
                         " is not allowed: " + rule + ".");
}

bool IsControl(unsigned char c) { return c < 0x20 || c == 0x7f; }

Status CheckValue(const PropertySpec& spec, std::string_view value) {
  switch (spec.kind) {
    case ValueKind::kEnum:
      for (std::string_view allowed : spec.values) {
        if (spec.any_case ? EqualsAnyCase(value, allowed) : value == allowed) return Status::OK();
      }
      return BadValue(spec, value, "use " + Join(spec.values));
    case ValueKind::kBool:
      if (value == "true" || value == "false") return Status::OK();
      return BadValue(spec, value, "use true or false");
    case ValueKind::kText: {
      bool ok = !value.empty() && value.size() <= kMaxKafkaPropertyValueBytes;
      for (char c : value) ok = ok && !IsControl(static_cast<unsigned char>(c));
      if (ok) return Status::OK();
      return BadValue(spec, value,
                      "send 1 to " + std::to_string(kMaxKafkaPropertyValueBytes) +
                          " bytes without control characters");
    }
    case ValueKind::kClientId: {
      bool ok = !value.empty() && value.size() <= 255;
      for (char c : value) {
        ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-');
      }
      if (ok) return Status::OK();
      return BadValue(spec, value, "send 1 to 255 characters of [A-Za-z0-9._-]");
    }
    case ValueKind::kPem: {
      bool ok = value.size() <= kMaxKafkaPemValueBytes &&
                value.find("-----BEGIN ") != std::string_view::npos &&
                value.find("-----END ") != std::string_view::npos;
      for (char c : value) {
        unsigned char u = static_cast<unsigned char>(c);
        ok = ok && (!IsControl(u) || c == '\n' || c == '\r' || c == '\t');
      }
      if (ok) return Status::OK();
      return BadValue(spec, value,
                      "send PEM text (-----BEGIN ...----- ... -----END ...-----) of at most " +
                          std::to_string(kMaxKafkaPemValueBytes) + " bytes, not a file path");
    }
  }
  return Internal("unknown client property kind");
}

}  // namespace

Status ValidateKafkaClientProperty(std::string_view key, std::string_view value) {
  const PropertySpec* spec = FindSpec(key);
  if (spec == nullptr) {
    return InvalidArgument("The client property '" + Printable(key) +
                           "' is not allowed: " + WhyRefused(key) + ".");
  }
  return CheckValue(*spec, value);
}

Status ValidateKafkaClientProperties(const std::map<std::string, std::string>& properties) {
  for (const auto& [key, value] : properties) ST_TRY(ValidateKafkaClientProperty(key, value));
  if (properties.count("sasl.mechanism") != 0 && properties.count("sasl.mechanisms") != 0) {
    return InvalidArgument(
        "The client property 'sasl.mechanisms' repeats 'sasl.mechanism': set only one of them.");
  }
  bool certificate = properties.count("ssl.certificate.pem") != 0;
  bool key = properties.count("ssl.key.pem") != 0;
  if (certificate != key) {
    return InvalidArgument(std::string("The client property '") +
                           (certificate ? "ssl.key.pem" : "ssl.certificate.pem") +
                           "' is missing: a client certificate needs both ssl.certificate.pem "
                           "and ssl.key.pem.");
  }
  return Status::OK();
}

bool IsSecretKafkaClientProperty(std::string_view key) {
  const PropertySpec* spec = FindSpec(key);
  // Unlisted keys only appear on clusters stored before this list: mask them
  // when they look secret, as responses always did.
  if (spec == nullptr) {
    return key.find("password") != std::string_view::npos ||
           key.find("secret") != std::string_view::npos ||
           key.find("keytab") != std::string_view::npos;
  }
  return spec->secret;
}

std::string SupportedKafkaClientProperties() {
  std::string out;
  for (size_t i = 0; i < kSpecs.size(); ++i) {
    if (i > 0) out += ", ";
    out += kSpecs[i].name;
  }
  return out;
}

}  // namespace st::catalog
