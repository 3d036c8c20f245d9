// UTF-8 encoding of single code points, shared by the Iceberg bound
// truncation and the test-data generators.
#pragma once

#include <cstdint>
#include <string>

namespace st {

// Appends `code_point` to `out` as 1-4 bytes of UTF-8. Precondition:
// code_point <= 0x10FFFF and not a surrogate (the caller's to check; nothing
// is validated here).
void AppendUtf8(std::string& out, uint32_t code_point);

}  // namespace st
