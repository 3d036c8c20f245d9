#include "common/mutex.h"

#include "common/status.h"

namespace st::common {

void Mutex::AssertHeld() const {
  ST_CHECK(owner_.load(std::memory_order_relaxed) == std::this_thread::get_id());
}

}  // namespace st::common
