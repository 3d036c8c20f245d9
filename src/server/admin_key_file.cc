#include "server/admin_key_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

namespace st::server {

std::string AdminKeyFilePath(const std::string& keys_dir) { return keys_dir + "/admin.json"; }

Status WriteAdminKeyFile(const std::string& path, const AdminKeyFile& file) {
  nlohmann::json doc = {
      {"access_key_id", file.credentials.access_key_id},
      {"secret_access_key", file.credentials.secret_access_key},
      {"region", file.region},
      {"account_id", file.account_id},
      {"user_arn", file.credentials.user_arn},
      {"endpoints",
       {{"api", file.api_url}, {"iceberg", file.api_url + "/iceberg"}, {"s3", file.s3_url}}},
  };
  std::string text = doc.dump(2) + "\n";
  std::string tmp = path + ".tmp";
  auto fail = [&](const std::string& what) {
    return IoError("cannot " + what + " '" + tmp + "': " + std::strerror(errno) +
                   "; check the permissions of the data dir's keys/ directory");
  };
  // O_CREAT with 0600 so the secret is never readable by others, not even briefly.
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return fail("create");
  if (::fchmod(fd, 0600) != 0) {
    ::close(fd);
    return fail("chmod 0600");
  }
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return fail("write");
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) return fail("sync");
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return IoError("cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(errno));
  }
  return Status::OK();
}

}  // namespace st::server
