#include "cli/partition_expression.h"

#include <cctype>
#include <charconv>
#include <string>

namespace st::cli {
namespace {

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// Splits on commas outside parentheses.
Result<std::vector<std::string>> SplitTopLevel(std::string_view text) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth < 0) break;
    if (text[i] == ',' && depth == 0) {
      parts.push_back(Trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (depth != 0) {
    return Err(InvalidArgument("partition expression '" + std::string(text) +
                               "' has unbalanced parentheses"));
  }
  parts.push_back(Trim(text.substr(start)));
  return parts;
}

Result<int32_t> ParsePositive(const std::string& term, const std::string& text) {
  int32_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v <= 0) {
    return Err(
        InvalidArgument("partition term '" + term + "': '" + text + "' is not a positive integer"));
  }
  return v;
}

Result<iceberg::PartitionField> ParseTerm(const iceberg::Schema& schema, const std::string& term) {
  std::string function = "identity";
  std::vector<std::string> args = {term};
  size_t open = term.find('(');
  if (open != std::string::npos) {
    if (term.back() != ')') {
      return Err(InvalidArgument("partition term '" + term + "' must end with ')'"));
    }
    function = Trim(std::string_view(term).substr(0, open));
    ST_ASSIGN_OR_RETURN(
        args, SplitTopLevel(std::string_view(term).substr(open + 1, term.size() - open - 2)));
  }
  iceberg::Transform transform = iceberg::Transform::Identity();
  std::string column;
  if (function == "bucket" || function == "truncate") {
    if (args.size() != 2) {
      return Err(
          InvalidArgument("partition term '" + term + "': " + function + " takes (N, column)"));
    }
    ST_ASSIGN_OR_RETURN(int32_t n, ParsePositive(term, args[0]));
    transform =
        function == "bucket" ? iceberg::Transform::Bucket(n) : iceberg::Transform::Truncate(n);
    column = args[1];
  } else {
    if (args.size() != 1) {
      return Err(
          InvalidArgument("partition term '" + term + "': " + function + " takes one column"));
    }
    column = args[0];
    if (function == "identity")
      transform = iceberg::Transform::Identity();
    else if (function == "year" || function == "years")
      transform = iceberg::Transform::Year();
    else if (function == "month" || function == "months")
      transform = iceberg::Transform::Month();
    else if (function == "day" || function == "days")
      transform = iceberg::Transform::Day();
    else if (function == "hour" || function == "hours")
      transform = iceberg::Transform::Hour();
    else if (function == "void")
      transform = iceberg::Transform::Void();
    else {
      return Err(InvalidArgument("partition term '" + term + "': unknown transform '" + function +
                                 "'; use identity, year, month, day, hour, bucket, truncate"));
    }
  }
  const iceberg::NestedField* source = schema.FindFieldByName(column);
  if (source == nullptr) {
    return Err(InvalidArgument("partition term '" + term + "': no column named '" + column + "'"));
  }
  iceberg::PartitionField field;
  field.source_id = source->id;
  field.transform = transform;
  std::string suffix = transform.DefaultNameSuffix();
  field.name = suffix.empty() ? column : column + "_" + suffix;
  return field;
}

}  // namespace

Result<std::vector<iceberg::PartitionField>> ParsePartitionExpression(const iceberg::Schema& schema,
                                                                      std::string_view text) {
  std::vector<iceberg::PartitionField> fields;
  if (Trim(text).empty()) return fields;
  ST_ASSIGN_OR_RETURN(auto terms, SplitTopLevel(text));
  for (const auto& term : terms) {
    if (term.empty()) {
      return Err(
          InvalidArgument("partition expression '" + std::string(text) + "' has an empty term"));
    }
    ST_ASSIGN_OR_RETURN(auto field, ParseTerm(schema, term));
    field.field_id = iceberg::kPartitionFieldIdStart + static_cast<int32_t>(fields.size());
    fields.push_back(std::move(field));
  }
  return fields;
}

}  // namespace st::cli
