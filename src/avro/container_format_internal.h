// The object container file's framing constants (Avro spec, "Object Container
// Files"), shared by the reader and the writer so the two cannot disagree.
#pragma once

#include <cstddef>
#include <string_view>

namespace st::avro::internal {

// "Obj" followed by the format version byte 1.
inline constexpr std::string_view kContainerMagic("Obj\x01", 4);
// The header's and every block's sync marker.
inline constexpr size_t kContainerSyncSize = 16;

}  // namespace st::avro::internal
