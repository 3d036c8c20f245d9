#include "server/confluent_schema_lookup.h"

#include <optional>
#include <string>
#include <utility>

#include "common/base64.h"

namespace st::server {

namespace {

// Transient for delivery: the batch is retried.
Status SecretUnavailable(std::string message) {
  return Status(StatusCode::kUnavailable, std::move(message));
}

Result<std::optional<registry::confluent::BasicAuth>> UnsealedAuth(
    const catalog::ExternalSchemaRegistry& registry, const std::string& context,
    const auth::SecretSealer& sealer) {
  if (!registry.basic_auth_key.has_value()) return std::nullopt;
  const std::string where = "external schema registry " + registry.url;
  if (!registry.sealed_basic_auth_secret.has_value()) {
    return Err(SecretUnavailable(where + ": the channel's basicAuth has no sealed secret"));
  }
  std::optional<std::string> sealed = common::Base64Decode(*registry.sealed_basic_auth_secret);
  if (!sealed.has_value()) {
    return Err(SecretUnavailable(where + ": the channel's sealed basicAuth secret is not base64"));
  }
  Result<std::string> secret = sealer.Unseal(*sealed, context);
  if (!secret.has_value()) {
    return Err(SecretUnavailable(where + ": the channel's basicAuth secret does not unseal (" +
                                 secret.error().message() + ")"));
  }
  return registry::confluent::BasicAuth{*registry.basic_auth_key, *std::move(secret)};
}

}  // namespace

decoding::WriterSchema ToWriterSchema(registry::confluent::RegisteredSchema found) {
  decoding::WriterSchema schema;
  if (found.schema_type == "PROTOBUF") schema.type = decoding::WriterSchemaType::kProtobuf;
  if (found.schema_type == "JSON") schema.type = decoding::WriterSchemaType::kJson;
  schema.text = std::move(found.schema);
  schema.references = std::move(found.references);
  return schema;
}

delivery::ConfluentSchemaLookup MakeConfluentSchemaLookup(
    registry::confluent::ConfluentRegistry& builtin,
    registry::confluent::ExternalConfluentRegistry& external, const auth::SecretSealer& sealer) {
  return [&builtin, &external, &sealer](const delivery::ConfluentSource& source,
                                        int32_t id) -> Result<decoding::WriterSchema> {
    if (!source.external.has_value()) {
      // Ids are per account in the built-in registry.
      ST_ASSIGN_OR_RETURN(registry::confluent::RegisteredSchema found,
                          registry::confluent::LookupSchemaById(builtin, source.account_id, id));
      return ToWriterSchema(std::move(found));
    }
    ST_ASSIGN_OR_RETURN(std::optional<registry::confluent::BasicAuth> auth,
                        UnsealedAuth(*source.external, source.seal_context, sealer));
    ST_ASSIGN_OR_RETURN(registry::confluent::RegisteredSchema found,
                        external.LookupSchemaById(*source.external, auth, id));
    return ToWriterSchema(std::move(found));
  };
}

}  // namespace st::server
