#pragma once
// Where a Reservation watch event goes (the informer's decision, pure so it
// is table-tested): an Available reservation with status.nodeName is held by
// the actor owning that node; the actor that held it before is told to drop
// it when it moves node, leaves Available (Succeeded, Failed, expired) or is
// deleted.

#include <string>

#include "model/reservation.hpp"

namespace troupe::actors {

struct ReservationMove {
  std::string leave;  // node whose actor must drop the reservation ("" none)
  std::string hold;   // node whose actor must (re)apply it ("" none)
};

/// `held_on`: the node holding the reservation so far ("" none); `next`: the
/// new version, nullptr when it was deleted.
ReservationMove reservation_move(const std::string& held_on, const Reservation* next);

}  // namespace troupe::actors
