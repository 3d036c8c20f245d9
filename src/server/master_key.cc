#include "server/master_key.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "auth/secure_random.h"

namespace st::server {

namespace {

constexpr char kHex[] = "0123456789abcdef";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// 32 raw bytes, or 64 hex digits with optional trailing whitespace.
Result<std::string> DecodeKey(std::string text) {
  if (text.size() == kMasterKeyBytes) return text;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
    text.pop_back();
  }
  if (text.size() != 2 * kMasterKeyBytes) {
    return Err(InvalidArgument("holds " + std::to_string(text.size()) + " bytes; a master key is " +
                               std::to_string(kMasterKeyBytes) + " raw bytes or " +
                               std::to_string(2 * kMasterKeyBytes) + " hex digits"));
  }
  std::string key(kMasterKeyBytes, '\0');
  for (size_t i = 0; i < kMasterKeyBytes; ++i) {
    int hi = HexValue(text[2 * i]);
    int lo = HexValue(text[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      return Err(
          InvalidArgument("is not 64 hex digits (character " + std::to_string(2 * i + 1) + ")"));
    }
    key[i] = static_cast<char>(hi * 16 + lo);
  }
  return key;
}

Status ErrnoError(const std::string& what, const std::string& path) {
  return IoError("cannot " + what + " master key file '" + path + "': " + std::strerror(errno));
}

Result<std::string> ReadAll(const std::string& path, std::string* warning) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Err(ErrnoError("open", path));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && (st.st_mode & 077) != 0) {
    char mode[16];
    std::snprintf(mode, sizeof(mode), "%04o", static_cast<unsigned>(st.st_mode & 07777));
    *warning = "master key file '" + path + "' has mode " + mode +
               ": readable by other users; chmod 600 it";
  }
  std::string text;
  char buffer[256];
  while (text.size() <= 4096) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return Err(ErrnoError("read", path));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return text;
}

Status WriteAll(int fd, const std::string& text) {
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return IoError(std::strerror(errno));
    written += static_cast<size_t>(n);
  }
  return ::fsync(fd) == 0 ? Status::OK() : IoError(std::strerror(errno));
}

// Writes a fresh key to "<path>.<pid>.tmp" (0600) and links it to `path`;
// false when another starter created `path` first.
Result<bool> CreateKeyFile(const std::string& path) {
  ST_ASSIGN_OR_RETURN(std::string key, auth::SecureRandomBytes(kMasterKeyBytes));
  std::string text;
  for (unsigned char byte : key) {
    text.push_back(kHex[byte >> 4]);
    text.push_back(kHex[byte & 15]);
  }
  text.push_back('\n');
  std::string tmp = path + "." + std::to_string(::getpid()) + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Err(ErrnoError("create", tmp));
  Status written = WriteAll(fd, text);
  ::close(fd);
  if (!written.ok()) {
    ::unlink(tmp.c_str());
    return Err(IoError("cannot write master key file '" + tmp + "': " + written.message()));
  }
  int linked = ::link(tmp.c_str(), path.c_str());
  int link_errno = errno;
  ::unlink(tmp.c_str());
  if (linked != 0) {
    if (link_errno == EEXIST) return false;
    errno = link_errno;
    return Err(ErrnoError("create", path));
  }
  return true;
}

}  // namespace

Result<MasterKey> LoadMasterKey(const MasterKeyOptions& options) {
  MasterKey out;
  if (!options.flag_path.empty() || !options.env_path.empty()) {
    bool from_flag = !options.flag_path.empty();
    out.path = from_flag ? options.flag_path : options.env_path;
    out.origin = from_flag ? options.flag_name : kMasterKeyEnv;
    auto text = ReadAll(out.path, &out.warning);
    if (!text.has_value()) {
      return Err(InvalidArgument(text.error().message() + " (given by " + out.origin +
                                 "); point it at the server's master key file"));
    }
    auto key = DecodeKey(*std::move(text));
    if (!key.has_value()) {
      return Err(InvalidArgument("master key file '" + out.path + "' (given by " + out.origin +
                                 ") " + key.error().message()));
    }
    out.bytes = *std::move(key);
    return out;
  }

  out.path = options.default_path;
  out.origin = "data dir";
  struct stat st {};
  if (::stat(out.path.c_str(), &st) != 0) {
    if (errno != ENOENT) return Err(ErrnoError("stat", out.path));
    ST_ASSIGN_OR_RETURN(out.created, CreateKeyFile(out.path));
  }
  ST_ASSIGN_OR_RETURN(std::string text, ReadAll(out.path, &out.warning));
  auto key = DecodeKey(std::move(text));
  if (!key.has_value()) {
    return Err(Corruption("master key file '" + out.path + "' " + key.error().message() +
                          "; restore it from its backup (without it the catalog's secret "
                          "access keys cannot be unsealed)"));
  }
  out.bytes = *std::move(key);
  return out;
}

void DiscardCreatedMasterKey(const MasterKey& key) {
  if (key.created) ::unlink(key.path.c_str());
}

Result<MasterKey> LoadKmsMasterKey(const std::string& flag_path, const std::string& default_path,
                                   const std::string& flag_name) {
  ST_ASSIGN_OR_RETURN(MasterKey key, LoadMasterKey({flag_path, "", default_path, flag_name}));
  if (!key.warning.empty()) {
    return Err(FailedPrecondition("the KMS master key file '" + key.path +
                                  "' is readable by group or others; run chmod 600 '" + key.path +
                                  "' (" + key.warning + ")"));
  }
  return key;
}

}  // namespace st::server
