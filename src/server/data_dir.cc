#include "server/data_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace st::server {

namespace fs = std::filesystem;

namespace {

constexpr mode_t kDirMode = 0700;
constexpr mode_t kFileMode = 0600;
constexpr size_t kMaxExamples = 20;

// Created 0700 at once (mkdir's mode only loses bits to the umask), so a
// fresh data dir is never readable by others, not even briefly.
Status MakeDir(const fs::path& dir) {
  if (::mkdir(dir.c_str(), kDirMode) == 0 || errno == EEXIST) return Status::OK();
  return IoError("cannot create directory '" + dir.string() + "': " + std::strerror(errno));
}

std::string ModeText(mode_t mode) {
  char text[16];
  std::snprintf(text, sizeof(text), "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// Sets `path` to `want` unless it is already; lstat so links are left alone.
Status Tighten(const fs::path& path, ModeRepairs& repairs) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::OK();  // Removed meanwhile.
    return IoError("cannot stat '" + path.string() + "': " + std::strerror(errno));
  }
  mode_t want = 0;
  int64_t* counter = nullptr;
  if (S_ISDIR(st.st_mode)) {
    want = kDirMode;
    counter = &repairs.dirs;
  } else if (S_ISREG(st.st_mode)) {
    want = kFileMode;
    counter = &repairs.files;
  } else {
    return Status::OK();
  }
  if ((st.st_mode & 07777) == want) return Status::OK();
  if (::chmod(path.c_str(), want) != 0) {
    return IoError("cannot restrict '" + path.string() + "' to mode " + ModeText(want) + ": " +
                   std::strerror(errno) + "; the data dir must belong to the server's user");
  }
  ++*counter;
  if (repairs.examples.size() < kMaxExamples) {
    repairs.examples.push_back(path.string() + " " + ModeText(st.st_mode));
  }
  return Status::OK();
}

Status TightenTree(const fs::path& root, ModeRepairs& repairs) {
  ST_TRY(Tighten(root, repairs));
  std::error_code ec;
  // Does not follow directory links; Tighten skips the links themselves.
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    ST_TRY(Tighten(it->path(), repairs));
  }
  if (ec) return IoError("cannot list '" + root.string() + "': " + ec.message());
  return Status::OK();
}

bool IsTwelveDigits(const std::string& s) {
  return s.size() == 12 && s.find_first_not_of("0123456789") == std::string::npos;
}

Status WriteIdFile(const fs::path& id_path, const std::string& id) {
  fs::path tmp = id_path;
  tmp += ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, kFileMode);
  if (fd < 0) return IoError("cannot create '" + tmp.string() + "': " + std::strerror(errno));
  std::string text = id + "\n";
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ok = ::fsync(fd) == 0 && ok;
  ok = ::close(fd) == 0 && ok;
  if (!ok) return IoError("cannot write '" + tmp.string() + "': " + std::strerror(errno));
  std::error_code ec;
  fs::rename(tmp, id_path, ec);
  if (ec) return IoError("cannot create '" + id_path.string() + "': " + ec.message());
  return Status::OK();
}

// The id kept in `id_path`: its whole first line (`in >> id` would stop at a
// blank and take "bad id!" for the valid id "bad"), checked by `valid`.
// `what` names the kind of id in the error. Errors: Io, Corruption.
Result<std::string> ReadIdFile(const fs::path& id_path, bool (*valid)(const std::string&),
                               const char* what) {
  std::ifstream in(id_path);
  std::string stored;
  if (!std::getline(in, stored)) return Err(IoError("cannot read '" + id_path.string() + "'"));
  while (!stored.empty() && (stored.back() == '\r' || stored.back() == ' ')) stored.pop_back();
  if (!valid(stored)) {
    return Err(Corruption("'" + id_path.string() + "' holds '" + stored + "', not " + what +
                          "; fix or delete the file"));
  }
  return stored;
}

}  // namespace

Result<DataDirLayout> PrepareDataDir(const std::string& root, const std::string& account_id_flag,
                                     Random& random) {
  fs::path base(root);
  std::error_code parent_ec;
  // The parents are not ours to restrict; only the data dir itself is.
  if (base.has_parent_path()) fs::create_directories(base.parent_path(), parent_ec);
  ST_TRY(MakeDir(base));
  ST_TRY(MakeDir(base / "catalog"));
  ST_TRY(MakeDir(base / "objects"));
  ST_TRY(MakeDir(base / "keys"));

  DataDirLayout layout;
  ST_TRY(TightenTree(base, layout.repaired));
  layout.root = base.string();
  layout.catalog_db_path = (base / "catalog" / "catalog.db").string();
  layout.objects_dir = (base / "objects").string();
  layout.keys_dir = (base / "keys").string();
  layout.master_key_path = (base / "keys" / "master.key").string();

  fs::path id_path = base / "account-id";
  std::error_code ec;
  if (fs::exists(id_path, ec)) {
    ST_ASSIGN_OR_RETURN(std::string stored,
                        ReadIdFile(id_path, IsTwelveDigits, "a 12-digit account id"));
    if (!account_id_flag.empty() && account_id_flag != stored) {
      return Err(FailedPrecondition("data dir '" + root + "' belongs to account " + stored +
                                    ", not --account-id " + account_id_flag +
                                    "; drop the flag or use another --data-dir"));
    }
    layout.account_id = stored;
    return layout;
  }

  std::string id = account_id_flag;
  if (id.empty()) {
    // Leading digit 1-9 keeps the id readable as a number in tools that strip zeros.
    uint64_t bits = random.Next64();
    id = std::to_string(1 + bits % 9);
    for (int i = 0; i < 11; ++i) {
      bits = random.Next64();
      id += static_cast<char>('0' + bits % 10);
    }
  }
  ST_TRY(WriteIdFile(id_path, id));
  layout.account_id = id;
  return layout;
}

bool IsValidReplicaId(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

Result<std::string> SettleReplicaId(const DataDirLayout& layout, const std::string& replica_id_flag,
                                    Random& random) {
  fs::path id_path = fs::path(layout.root) / "replica-id";
  if (!replica_id_flag.empty()) {
    if (!IsValidReplicaId(replica_id_flag)) {
      return Err(InvalidArgument("--replica-id '" + replica_id_flag +
                                 "' must be 1-64 characters of A-Z a-z 0-9 . _ -"));
    }
    ST_TRY(WriteIdFile(id_path, replica_id_flag));
    return replica_id_flag;
  }
  std::error_code ec;
  if (fs::exists(id_path, ec)) {
    return ReadIdFile(id_path, IsValidReplicaId, "a replica id");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "r-";
  for (int i = 0; i < 12; ++i) id += kHex[random.Next64() % 16];
  ST_TRY(WriteIdFile(id_path, id));
  return id;
}

}  // namespace st::server
