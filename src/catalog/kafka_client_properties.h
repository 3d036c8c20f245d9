// The librdkafka client properties a registered Kafka cluster may carry: the
// one list of names and value checks, used where a registration enters (the
// admin API) and again where delivery builds a librdkafka configuration, so a
// cluster stored before a property was forbidden is never applied.
//
// Only connection security is accepted, and only in forms that cannot reach
// the server's file system, run a program, load a library or fetch a URL:
// security.protocol, sasl.mechanism(s) (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512,
// OAUTHBEARER with a static sasl.oauthbearer.config only), sasl.username,
// sasl.password, TLS material as PEM text (ssl.ca.pem, ssl.certificate.pem,
// ssl.key.pem, ssl.key.password), ssl.endpoint.identification.algorithm,
// enable.ssl.certificate.verification and client.id. Everything else
// (file locations, keystores, Kerberos, OIDC token endpoints, engines,
// providers, plugins, tuning) is refused by name.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "common/status.h"

namespace st::catalog {

// Longest accepted value of an ordinary property and of a PEM property.
inline constexpr size_t kMaxKafkaPropertyValueBytes = 1024;
inline constexpr size_t kMaxKafkaPemValueBytes = 256 * 1024;

// Checks one property. Errors: InvalidArgument whose message names the
// property (printable form, cut to 64 characters) and what to send instead.
Status ValidateKafkaClientProperty(std::string_view key, std::string_view value);

// Checks every property (in key order) and the combinations: at most one of
// sasl.mechanism / sasl.mechanisms; ssl.certificate.pem and ssl.key.pem
// together or not at all. Errors: InvalidArgument naming the first bad property.
Status ValidateKafkaClientProperties(const std::map<std::string, std::string>& properties);

// True for properties whose values are masked in every response
// (passwords, private keys, the OAUTHBEARER config).
bool IsSecretKafkaClientProperty(std::string_view key);

// "security.protocol, sasl.mechanism, ..." for help texts and messages.
std::string SupportedKafkaClientProperties();

}  // namespace st::catalog
