// Fresh identifiers for catalog entities, drawn from an injected Random so
// tests are deterministic. Shared by every MetadataStore implementation so
// that ids look the same whichever database holds them.
#pragma once

#include <string>
#include <string_view>

#include "common/random.h"

namespace st::catalog {

// Lower-case RFC 4122 text: table, namespace and table-bucket ids.
std::string NewEntityId(Random& random);
// 20 lower-case hex characters (the length moto uses); opaque to clients.
std::string NewVersionToken(Random& random);
// "s3://<53 characters of [0-9a-z-]>--table-s3": a 63-character bucket name
// of the S3 Tables warehouse form, unique per table.
std::string NewWarehouseLocation(Random& random);
// "AKIA" + 16 characters of [A-Z2-7], like an IAM long-term key id.
// Credentials ignore `random` and draw from OpenSSL's CSPRNG
// (auth/secure_random.h): the injected Random is seeded and predictable, and
// the key id is half of what an attacker needs to guess. The process aborts
// if the CSPRNG has no entropy (no safe key exists then).
std::string NewAccessKeyId(Random& random);
// 40 characters of [A-Za-z0-9], uniformly drawn from OpenSSL's CSPRNG.
std::string NewSecretAccessKey(Random& random);

// The bucket part of a warehouse location ("s3://x--table-s3" → "x--table-s3");
// empty when the location is not an s3:// URI.
std::string WarehouseBucketName(std::string_view warehouse_location);

}  // namespace st::catalog
