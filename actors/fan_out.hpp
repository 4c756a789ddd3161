#pragma once
// fan_out: send the same request to every worker and collect all replies.
// CAF 0.17.6 has no fan_out_request (0.18 adds it with select_all); this is
// the hand-rolled equivalent (see ../shared/docs/style.md §7.7).

#include <memory>
#include <utility>
#include <vector>

#include <caf/all.hpp>

namespace troupe::actors {

/// Calls `done(results)` once, with the replies in worker order, or
/// `fail(error)` once with the first error. An empty worker list completes
/// immediately. `timeout` may be caf::infinite (no clock entry per request).
template <class T, class Self, class Handle, class Timeout, class Done, class Fail, class... Ts>
void fan_out(Self* self, const std::vector<Handle>& workers, Timeout timeout, Done done, Fail fail,
             Ts... xs) {
  struct Pending {
    std::vector<T> results;
    size_t outstanding = 0;
    bool finished = false;
  };
  auto pending = std::make_shared<Pending>();
  pending->results.resize(workers.size());
  pending->outstanding = workers.size();
  if (workers.empty()) {
    done(std::move(pending->results));
    return;
  }
  for (size_t i = 0; i < workers.size(); ++i)
    self->request(workers[i], timeout, xs...)
        .then(
            [=](T& x) mutable {
              if (pending->finished) return;
              pending->results[i] = std::move(x);
              if (--pending->outstanding == 0) {
                pending->finished = true;
                done(std::move(pending->results));
              }
            },
            [=](caf::error& err) mutable {
              if (pending->finished) return;
              pending->finished = true;
              fail(std::move(err));
            });
}

}  // namespace troupe::actors
