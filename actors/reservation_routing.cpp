#include "actors/reservation_routing.hpp"

#include "plugins/reservation/reservation_status.hpp"

namespace troupe::actors {

ReservationMove reservation_move(const std::string& held_on, const Reservation* next) {
  ReservationMove move;
  if (next != nullptr && plugins::reservation::is_available(*next)) move.hold = next->status.node_name;
  if (!held_on.empty() && held_on != move.hold) move.leave = held_on;
  return move;
}

}  // namespace troupe::actors
