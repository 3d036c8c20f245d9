#include "server/data_dir.h"

#include <filesystem>
#include <fstream>

namespace st::server {

namespace fs = std::filesystem;

namespace {

Status MakeDir(const fs::path& dir, bool private_dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return IoError("cannot create directory '" + dir.string() + "': " + ec.message());
  if (private_dir) {
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
    if (ec) return IoError("cannot restrict '" + dir.string() + "' to mode 0700: " + ec.message());
  }
  return Status::OK();
}

bool IsTwelveDigits(const std::string& s) {
  return s.size() == 12 && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

Result<DataDirLayout> PrepareDataDir(const std::string& root, const std::string& account_id_flag,
                                     Random& random) {
  fs::path base(root);
  ST_TRY(MakeDir(base, false));
  ST_TRY(MakeDir(base / "catalog", false));
  ST_TRY(MakeDir(base / "objects", false));
  ST_TRY(MakeDir(base / "keys", true));

  DataDirLayout layout;
  layout.root = base.string();
  layout.catalog_db_path = (base / "catalog" / "catalog.db").string();
  layout.objects_dir = (base / "objects").string();
  layout.keys_dir = (base / "keys").string();

  fs::path id_path = base / "account-id";
  std::error_code ec;
  if (fs::exists(id_path, ec)) {
    std::ifstream in(id_path);
    std::string stored;
    if (!(in >> stored)) return Err(IoError("cannot read '" + id_path.string() + "'"));
    if (!IsTwelveDigits(stored)) {
      return Err(Corruption("'" + id_path.string() + "' holds '" + stored +
                            "', not a 12-digit account id; fix or delete the file"));
    }
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
  fs::path tmp = id_path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << id << "\n";
    if (!out.flush()) return Err(IoError("cannot write '" + tmp.string() + "'"));
  }
  fs::rename(tmp, id_path, ec);
  if (ec) return Err(IoError("cannot create '" + id_path.string() + "': " + ec.message()));
  layout.account_id = id;
  return layout;
}

}  // namespace st::server
