// How delivery resolves Confluent schema ids (delivery::ConfluentSchemaLookup):
// in the built-in registry (the channel owner's account), or in the channel's
// external registry with its basic-auth secret unsealed for each lookup.
#pragma once

#include "auth/secret_sealer.h"
#include "delivery/record_format.h"
#include "registry/confluent_registry.h"
#include "registry/external_confluent_registry.h"

namespace st::server {

// A registry's schema as decoding reads it (schemaType AVRO, PROTOBUF, JSON).
decoding::WriterSchema ToWriterSchema(registry::confluent::RegisteredSchema found);

// All three must outlive the function. An external lookup whose sealed
// secret does not unseal (another master key, a document edited by hand) is
// a transient error naming the channel's registry, never a request without
// credentials.
delivery::ConfluentSchemaLookup MakeConfluentSchemaLookup(
    registry::confluent::ConfluentRegistry& builtin,
    registry::confluent::ExternalConfluentRegistry& external, const auth::SecretSealer& sealer);

}  // namespace st::server
