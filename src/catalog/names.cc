#include "catalog/names.h"

#include <array>
#include <string>

namespace st::catalog {

namespace {

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

Status BadName(std::string_view what, std::string_view name, std::string_view rule) {
  return InvalidArgument("The specified " + std::string(what) + " name '" + std::string(name) +
                         "' is not valid: " + std::string(rule) + ".");
}

// Namespaces and tables share one rule set.
Status ValidateLowerUnderscoreName(std::string_view what, std::string_view name) {
  if (name.empty() || name.size() > 255) {
    return BadName(what, name, "it must be 1 to 255 characters long");
  }
  for (char c : name) {
    if (!IsLowerAlnum(c) && c != '_') {
      return BadName(what, name, "use only lowercase letters, digits and underscores");
    }
  }
  if (!IsLowerAlnum(name.front())) {
    return BadName(what, name, "it must start with a lowercase letter or a digit");
  }
  return Status::OK();
}

}  // namespace

Status ValidateTableBucketName(std::string_view name) {
  constexpr std::string_view kWhat = "table bucket";
  if (name.size() < 3 || name.size() > 63) {
    return BadName(kWhat, name, "it must be 3 to 63 characters long");
  }
  for (char c : name) {
    if (!IsLowerAlnum(c) && c != '-') {
      return BadName(kWhat, name, "use only lowercase letters, digits and hyphens");
    }
  }
  if (!IsLowerAlnum(name.front()) || !IsLowerAlnum(name.back())) {
    return BadName(kWhat, name, "it must start and end with a lowercase letter or a digit");
  }
  constexpr std::array<std::string_view, 4> kReservedPrefixes = {"xn--", "sthree-", "amzn-s3-demo-",
                                                                 "aws"};
  for (std::string_view prefix : kReservedPrefixes) {
    if (StartsWith(name, prefix)) {
      return BadName(kWhat, name, "the prefix '" + std::string(prefix) + "' is reserved");
    }
  }
  constexpr std::array<std::string_view, 4> kReservedSuffixes = {"-s3alias", "--ol-s3", "--x-s3",
                                                                 "--table-s3"};
  for (std::string_view suffix : kReservedSuffixes) {
    if (EndsWith(name, suffix)) {
      return BadName(kWhat, name, "the suffix '" + std::string(suffix) + "' is reserved");
    }
  }
  return Status::OK();
}

Status ValidateNamespaceName(std::string_view name) {
  ST_TRY(ValidateLowerUnderscoreName("namespace", name));
  if (StartsWith(name, "aws")) {
    return BadName("namespace", name, "the prefix 'aws' is reserved");
  }
  return Status::OK();
}

Status ValidateTableName(std::string_view name) {
  return ValidateLowerUnderscoreName("table", name);
}

Status ValidateAccountId(std::string_view account_id) {
  bool ok = account_id.size() == 12;
  for (char c : account_id) ok = ok && c >= '0' && c <= '9';
  if (!ok) {
    return InvalidArgument("The account id '" + std::string(account_id) +
                           "' is not valid: it must be exactly 12 digits.");
  }
  return Status::OK();
}

Status ValidateIamName(std::string_view name) {
  bool ok = !name.empty() && name.size() <= 64;
  for (char c : name) {
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                std::string_view("+=,.@_-").find(c) != std::string_view::npos);
  }
  if (!ok) {
    return InvalidArgument("The IAM name '" + std::string(name) +
                           "' is not valid: use 1 to 64 characters of A-Z, a-z, 0-9 and +=,.@_-.");
  }
  return Status::OK();
}

Status ValidateTag(std::string_view key, std::string_view value) {
  if (key.empty() || key.size() > 128) {
    return InvalidArgument("The tag key '" + std::string(key) +
                           "' is not valid: it must be 1 to 128 characters long.");
  }
  if (StartsWith(key, "aws:")) {
    return InvalidArgument("The tag key '" + std::string(key) +
                           "' is not valid: the prefix 'aws:' is reserved.");
  }
  if (value.size() > 256) {
    return InvalidArgument("The value of tag '" + std::string(key) +
                           "' is too long: at most 256 characters.");
  }
  return Status::OK();
}

namespace {

bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

bool IsDottedQuad(std::string_view name) {
  int dots = 0;
  for (char c : name) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots == 3;
}

}  // namespace

Status ValidateGeneralPurposeBucketName(std::string_view name) {
  constexpr std::string_view kWhat = "bucket";
  if (name.size() < 3 || name.size() > 63) {
    return BadName(kWhat, name, "it must be 3 to 63 characters long");
  }
  for (char c : name) {
    if (!IsLowerAlnum(c) && c != '-' && c != '.') {
      return BadName(kWhat, name, "use only lowercase letters, digits, dots and hyphens");
    }
  }
  if (!IsLowerAlnum(name.front()) || !IsLowerAlnum(name.back())) {
    return BadName(kWhat, name, "it must start and end with a lowercase letter or a digit");
  }
  if (name.find("..") != std::string_view::npos) {
    return BadName(kWhat, name, "it must not contain two adjacent dots");
  }
  if (IsDottedQuad(name)) return BadName(kWhat, name, "it must not look like an IP address");
  constexpr std::array<std::string_view, 3> kReservedPrefixes = {"xn--", "sthree-",
                                                                 "amzn-s3-demo-"};
  for (std::string_view prefix : kReservedPrefixes) {
    if (StartsWith(name, prefix)) {
      return BadName(kWhat, name, "the prefix '" + std::string(prefix) + "' is reserved");
    }
  }
  constexpr std::array<std::string_view, 5> kReservedSuffixes = {"-s3alias", "--ol-s3", ".mrap",
                                                                 "--x-s3", "--table-s3"};
  for (std::string_view suffix : kReservedSuffixes) {
    if (EndsWith(name, suffix)) {
      return BadName(kWhat, name, "the suffix '" + std::string(suffix) + "' is reserved");
    }
  }
  return Status::OK();
}

Status ValidateKafkaClusterName(std::string_view name) {
  constexpr std::string_view kWhat = "cluster";
  if (name.empty() || name.size() > 64) {
    return BadName(kWhat, name, "it must be 1 to 64 characters long");
  }
  for (char c : name) {
    if (!IsAlnum(c) && c != '-')
      return BadName(kWhat, name, "use only letters, digits and hyphens");
  }
  if (!IsAlnum(name.front()) || (name.front() >= '0' && name.front() <= '9')) {
    return BadName(kWhat, name, "it must start with a letter");
  }
  return Status::OK();
}

Status ValidateChannelName(std::string_view name) {
  constexpr std::string_view kWhat = "channel";
  if (name.empty() || name.size() > 64) {
    return BadName(kWhat, name, "it must be 1 to 64 characters long");
  }
  for (char c : name) {
    if (!IsAlnum(c) && c != '.' && c != '_' && c != '-') {
      return BadName(kWhat, name, "use only letters, digits, '.', '_' and '-'");
    }
  }
  return Status::OK();
}

Status ValidateKafkaTopicName(std::string_view name) {
  constexpr std::string_view kWhat = "topic";
  if (name.empty() || name.size() > 249 || name == "." || name == "..") {
    return BadName(kWhat, name, "it must be 1 to 249 characters long and not '.' or '..'");
  }
  for (char c : name) {
    if (!IsAlnum(c) && c != '.' && c != '_' && c != '-') {
      return BadName(kWhat, name, "use only letters, digits, '.', '_' and '-'");
    }
  }
  return Status::OK();
}

}  // namespace st::catalog
