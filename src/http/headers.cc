#include "http/headers.h"

#include <algorithm>

namespace st::http {

namespace {
char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

bool HeaderNameEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (LowerAscii(a[i]) != LowerAscii(b[i])) return false;
  }
  return true;
}

void Headers::Add(std::string name, std::string value) {
  fields_.emplace_back(std::move(name), std::move(value));
}

void Headers::Set(std::string name, std::string value) {
  Remove(name);
  Add(std::move(name), std::move(value));
}

void Headers::Remove(std::string_view name) {
  std::erase_if(fields_, [&](const Field& f) { return HeaderNameEquals(f.first, name); });
}

std::optional<std::string_view> Headers::Get(std::string_view name) const {
  for (const Field& f : fields_) {
    if (HeaderNameEquals(f.first, name)) return std::string_view(f.second);
  }
  return std::nullopt;
}

std::vector<std::string_view> Headers::GetAll(std::string_view name) const {
  std::vector<std::string_view> out;
  for (const Field& f : fields_) {
    if (HeaderNameEquals(f.first, name)) out.emplace_back(f.second);
  }
  return out;
}

}  // namespace st::http
