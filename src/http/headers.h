// HTTP header fields as an ordered, case-insensitive multimap, library-free so
// that route handlers and API surfaces never see Beast.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace st::http {

// Case-insensitive ASCII comparison of header names.
bool HeaderNameEquals(std::string_view a, std::string_view b);

// Field lines in arrival order; a repeated header appears once per line, so
// SigV4 can join repeated values as the client sent them. Not thread-safe.
class Headers {
 public:
  using Field = std::pair<std::string, std::string>;

  // Appends a field line, keeping any existing ones of the same name.
  void Add(std::string name, std::string value);
  // Replaces every field named `name` with one line (appended if absent).
  void Set(std::string name, std::string value);
  // Removes every field named `name`.
  void Remove(std::string_view name);

  // The first value of `name`; nullopt when absent. The view lives until the
  // Headers is next modified.
  std::optional<std::string_view> Get(std::string_view name) const;
  // Every value of `name`, in arrival order.
  std::vector<std::string_view> GetAll(std::string_view name) const;
  bool Has(std::string_view name) const { return Get(name).has_value(); }

  const std::vector<Field>& fields() const { return fields_; }
  bool empty() const { return fields_.empty(); }

 private:
  std::vector<Field> fields_;
};

}  // namespace st::http
