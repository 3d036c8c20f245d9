#include "catalog/kafka_client_properties.h"

#include <gtest/gtest.h>

namespace st::catalog {
namespace {

constexpr const char* kPem =
    "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n";

struct Case {
  std::string key;
  std::string value;
};

TEST(KafkaClientPropertiesTest, AcceptsTheListedPropertiesWithGoodValues) {
  const Case kGood[] = {
      {"security.protocol", "SASL_SSL"},
      {"security.protocol", "plaintext"},  // librdkafka ignores case here.
      {"security.protocol", "SSL"},
      {"security.protocol", "SASL_PLAINTEXT"},
      {"sasl.mechanism", "SCRAM-SHA-512"},
      {"sasl.mechanisms", "PLAIN"},
      {"sasl.mechanism", "OAUTHBEARER"},
      {"sasl.username", "alice"},
      {"sasl.password", "p@ss word ü"},
      {"sasl.oauthbearer.config", "principal=alice scope=read"},
      {"sasl.oauthbearer.method", "default"},
      {"enable.sasl.oauthbearer.unsecure.jwt", "true"},
      {"ssl.ca.pem", kPem},
      {"ssl.ca.pem", "-----BEGIN CERTIFICATE-----\r\nAA==\r\n-----END CERTIFICATE-----"},
      {"ssl.key.password", "secret"},
      {"ssl.endpoint.identification.algorithm", "https"},
      {"enable.ssl.certificate.verification", "false"},
      {"client.id", "streamtables-prod_1.a"},
  };
  for (const Case& c : kGood) {
    EXPECT_TRUE(ValidateKafkaClientProperty(c.key, c.value).ok())
        << c.key << "=" << c.value << ": " << ValidateKafkaClientProperty(c.key, c.value).message();
  }
  EXPECT_TRUE(
      ValidateKafkaClientProperties(
          {{"security.protocol", "SSL"}, {"ssl.certificate.pem", kPem}, {"ssl.key.pem", kPem}})
          .ok());
  EXPECT_TRUE(ValidateKafkaClientProperties({}).ok());
}

TEST(KafkaClientPropertiesTest, RefusesEveryOtherPropertyByName) {
  const char* kForbidden[] = {
      "sasl.kerberos.kinit.cmd",
      "sasl.kerberos.keytab",
      "sasl.kerberos.principal",
      "sasl.kerberos.service.name",
      "sasl.kerberos.min.time.before.relogin",
      "ssl.engine.location",
      "ssl.engine.id",
      "ssl_engine_callback_data",
      "ssl.providers",
      "ssl.ca.location",
      "ssl.ca.certificate.stores",
      "ssl.crl.location",
      "ssl.keystore.location",
      "ssl.keystore.password",
      "ssl.certificate.location",
      "ssl.key.location",
      "ssl.cipher.suites",
      "sasl.oauthbearer.token.endpoint.url",
      "sasl.oauthbearer.client.id",
      "sasl.oauthbearer.client.secret",
      "sasl.oauthbearer.scope",
      "sasl.oauthbearer.extensions",
      "plugin.library.paths",
      "bootstrap.servers",
      "group.id",
      "debug",
      "interceptor.x",
      "SECURITY.PROTOCOL",
      "",
  };
  for (const char* key : kForbidden) {
    Status status = ValidateKafkaClientProperty(key, "x");
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << key;
    EXPECT_NE(status.message().find(std::string("'") + key + "'"), std::string::npos)
        << status.message();
  }
  EXPECT_NE(
      ValidateKafkaClientProperty("ssl.ca.location", "/etc/passwd").message().find("ssl.ca.pem"),
      std::string::npos);
  EXPECT_NE(ValidateKafkaClientProperty("sasl.kerberos.kinit.cmd", "touch /tmp/x")
                .message()
                .find("GSSAPI"),
            std::string::npos);
  // A key with control characters is named in a printable form.
  Status odd = ValidateKafkaClientProperty(std::string("ssl.\x01key\nx", 10), "x");
  EXPECT_NE(odd.message().find("'ssl.\\x01key\\x0ax'"), std::string::npos) << odd.message();
  Status nul = ValidateKafkaClientProperty(std::string("client.id\0x", 11), "x");
  EXPECT_EQ(nul.code(), StatusCode::kInvalidArgument);
}

TEST(KafkaClientPropertiesTest, RefusesBadValuesNamingTheProperty) {
  const Case kBad[] = {
      {"security.protocol", "SASL"},
      {"security.protocol", ""},
      {"sasl.mechanism", "GSSAPI"},
      {"sasl.mechanism", "plain"},  // librdkafka's mechanism names are case-sensitive.
      {"sasl.mechanisms", "PLAIN,GSSAPI"},
      {"sasl.oauthbearer.method", "oidc"},
      {"enable.sasl.oauthbearer.unsecure.jwt", "yes"},
      {"enable.ssl.certificate.verification", "0"},
      {"ssl.endpoint.identification.algorithm", "dns"},
      {"sasl.username", ""},
      {"sasl.username", "al\nice"},
      {"sasl.username", std::string("al\0ice", 6)},
      {"sasl.password", std::string(kMaxKafkaPropertyValueBytes + 1, 'a')},
      {"sasl.oauthbearer.config", "principal=a\x7f"},
      {"ssl.ca.pem", "/etc/ssl/certs/ca.pem"},
      {"ssl.ca.pem", std::string(kPem) + std::string(1, '\x01')},
      {"ssl.ca.pem", "-----BEGIN CERTIFICATE-----\n" + std::string(kMaxKafkaPemValueBytes, 'A') +
                         "\n-----END CERTIFICATE-----"},
      {"ssl.key.pem", "file:///root/key.pem"},
      {"client.id", "a b"},
      {"client.id", "$(id)"},
      {"client.id", std::string(256, 'a')},
  };
  for (const Case& c : kBad) {
    Status status = ValidateKafkaClientProperty(c.key, c.value);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << c.key << "=" << c.value;
    EXPECT_NE(status.message().find("'" + c.key + "'"), std::string::npos) << status.message();
  }
  // Secrets are not echoed.
  Status secret = ValidateKafkaClientProperty("sasl.password", "hunter2\n");
  EXPECT_EQ(secret.message().find("hunter2"), std::string::npos) << secret.message();
  Status key = ValidateKafkaClientProperty("ssl.key.pem", "not-a-pem-private");
  EXPECT_EQ(key.message().find("not-a-pem-private"), std::string::npos) << key.message();
  // Enum refusals list the choices.
  EXPECT_NE(ValidateKafkaClientProperty("sasl.mechanism", "GSSAPI")
                .message()
                .find("PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER"),
            std::string::npos);
}

TEST(KafkaClientPropertiesTest, ChecksCombinations) {
  Status both =
      ValidateKafkaClientProperties({{"sasl.mechanism", "PLAIN"}, {"sasl.mechanisms", "PLAIN"}});
  EXPECT_EQ(both.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(both.message().find("'sasl.mechanisms'"), std::string::npos);
  Status cert_only = ValidateKafkaClientProperties({{"ssl.certificate.pem", kPem}});
  EXPECT_EQ(cert_only.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(cert_only.message().find("'ssl.key.pem'"), std::string::npos);
  Status key_only = ValidateKafkaClientProperties({{"ssl.key.pem", kPem}});
  EXPECT_NE(key_only.message().find("'ssl.certificate.pem'"), std::string::npos);
  // The first bad property in key order is named, even among good ones.
  Status mixed = ValidateKafkaClientProperties({{"security.protocol", "SASL_SSL"},
                                                {"sasl.kerberos.kinit.cmd", "id"},
                                                {"sasl.mechanism", "PLAIN"}});
  EXPECT_NE(mixed.message().find("'sasl.kerberos.kinit.cmd'"), std::string::npos);
}

TEST(KafkaClientPropertiesTest, SecretsAreMasked) {
  for (const char* key :
       {"sasl.password", "ssl.key.pem", "ssl.key.password", "sasl.oauthbearer.config",
        "sasl.oauthbearer.client.secret", "ssl.keystore.password", "sasl.kerberos.keytab"}) {
    EXPECT_TRUE(IsSecretKafkaClientProperty(key)) << key;
  }
  for (const char* key :
       {"security.protocol", "sasl.username", "ssl.ca.pem", "ssl.certificate.pem", "client.id"}) {
    EXPECT_FALSE(IsSecretKafkaClientProperty(key)) << key;
  }
  EXPECT_NE(SupportedKafkaClientProperties().find("ssl.ca.pem"), std::string::npos);
}

}  // namespace
}  // namespace st::catalog
