// The server master key: 32 bytes, kept apart from the catalog database,
// under which secrets at rest are sealed (auth::SecretSealer). Loading the
// key is separate from using it, so other consumers (KMS data keys) can take
// the same bytes.
//
// Where it comes from, first match wins:
//   1. --master-key-file PATH                (the operator's file; never created)
//   2. $STREAMTABLES_MASTER_KEY_FILE = PATH  (same, for containers and units)
//   3. <data-dir>/keys/master.key            (created on first start, mode 0600)
// A key file holds the 32 bytes raw, or as 64 hex digits (a trailing newline
// is fine), so `openssl rand -hex 32 > master.key` makes one. Losing the key
// loses every secret access key in the catalog: back it up apart from the
// database.
#pragma once

#include <string>

#include "common/status.h"

namespace st::server {

inline constexpr const char* kMasterKeyEnv = "STREAMTABLES_MASTER_KEY_FILE";
inline constexpr size_t kMasterKeyBytes = 32;

struct MasterKeyOptions {
  std::string flag_path;     // --master-key-file; empty: not given.
  std::string env_path;      // $STREAMTABLES_MASTER_KEY_FILE; empty: not set.
  std::string default_path;  // <data-dir>/keys/master.key (its directory exists).
  // How messages name the flag (the KMS master key has its own).
  std::string flag_name = "--master-key-file";
};

struct MasterKey {
  std::string bytes;     // kMasterKeyBytes bytes.
  std::string path;      // The file it was read from (or created as).
  std::string origin;    // "--master-key-file", "STREAMTABLES_MASTER_KEY_FILE" or "data dir".
  bool created = false;  // The default file was created just now.
  // Non-empty when the file is readable by group or others: the server
  // still starts (mounted secrets are often 0644) but says so.
  std::string warning;
};

// Reads the key from the first source that is set; creates the default file
// (32 bytes from the CSPRNG, written to a 0600 temporary file and linked into
// place, so a racing starter reads the winner's key) when neither the flag
// nor the variable is set and it does not exist. Errors: kInvalidArgument (an
// operator's file that is missing, unreadable or not 32 bytes / 64 hex
// digits, naming the file and the source); kCorruption (the default file is
// malformed: restore it from the backup); kIo; kInternal (no entropy).
Result<MasterKey> LoadMasterKey(const MasterKeyOptions& options);

// The KMS master key, which wraps the material of every KMS key: from
// `flag_path` (--kms-master-key-file; never created) or `default_path`
// (<data-dir>/keys/kms-master.key, created on first start), in the formats
// LoadMasterKey reads. Unlike the secrets master key, a file readable by
// group or others is refused (kFailedPrecondition naming the file and the
// chmod that fixes it): it decrypts every KMS key.
// `flag_name` is how messages name the flag (the SSE-S3 key is loaded the
// same way, from --sse-s3-key-file).
Result<MasterKey> LoadKmsMasterKey(const std::string& flag_path, const std::string& default_path,
                                   const std::string& flag_name = "--kms-master-key-file");

// Deletes a default key file created by this start (used when the catalog
// refuses it, so that a restored key can take its place). Best effort.
void DiscardCreatedMasterKey(const MasterKey& key);

}  // namespace st::server
