#pragma once
// Kubernetes timestamps: metav1.Time is RFC 3339 in UTC with whole seconds
// ("2026-11-21T23:37:31Z"); metav1.MicroTime (events.k8s.io eventTime, Lease
// acquire/renew times) has exactly six fractional digits.

#include <chrono>
#include <string>

namespace troupe::watch {

std::string format_time(std::chrono::system_clock::time_point t);
std::string format_micro_time(std::chrono::system_clock::time_point t);

}  // namespace troupe::watch
