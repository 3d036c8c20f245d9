#include "common/json_nesting.h"

#include <string>

namespace st {

Status CheckJsonNesting(std::string_view text, std::string_view what, int max_nesting) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // The escaped character cannot end the string.
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_nesting) {
        return InvalidArgument(std::string(what) + " nests JSON arrays/objects deeper than " +
                               std::to_string(max_nesting) +
                               " levels; flatten the document (the limit is " +
                               std::to_string(max_nesting) + ")");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return Status::OK();
}

}  // namespace st
