#include "actors/messages.hpp"

namespace troupe::actors {

const Result<std::shared_ptr<const Pod>>& ObjectEvent::pod() const {
  std::call_once(pod_once_, [this] {
    auto decoded = decode_pod(object);
    if (decoded) {
      pod_.emplace(std::shared_ptr<const Pod>(std::make_shared<const Pod>(std::move(*decoded))));
    } else {
      pod_.emplace(Error{decoded.message()});
    }
  });
  return *pod_;
}

}  // namespace troupe::actors
