// <data-dir>/keys/admin.json: the administrator's credentials and the
// endpoints of the running server, for the CLI (`streamtables bucket ...`
// reads it by default), tests and SDK configuration:
//
//   {"access_key_id": "AKIA...", "secret_access_key": "...",
//    "region": "us-east-1", "account_id": "123456789012",
//    "user_arn": "arn:aws:iam::123456789012:user/admin",
//    "endpoints": {"api": "http://127.0.0.1:8181",
//                  "iceberg": "http://127.0.0.1:8181/iceberg",
//                  "s3": "http://127.0.0.1:9000"}}
//
// The file is mode 0600 inside the 0700 keys directory. It is rewritten on
// every start (the key stays the same; the endpoints may change with port 0).
#pragma once

#include <string>

#include "catalog/bootstrap.h"
#include "common/status.h"

namespace st::server {

struct AdminKeyFile {
  catalog::AdminCredentials credentials;
  std::string region;
  std::string account_id;
  std::string api_url;
  std::string s3_url;
};

// "<keys_dir>/admin.json".
std::string AdminKeyFilePath(const std::string& keys_dir);

// Writes `file` atomically (temporary file created 0600, then renamed).
// Errors: kIo naming the path.
Status WriteAdminKeyFile(const std::string& path, const AdminKeyFile& file);

}  // namespace st::server
