#pragma once
// What the actor tests that talk real HTTP to an API server start from: a
// client of the server's URL, and a wait for a condition the actors reach on
// their own threads.

#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "watch/api_client.hpp"
#include "watch/http_client.hpp"

namespace troupe::actors::testing {

inline std::shared_ptr<watch::ApiClient> client_of(const std::string& url) {
  watch::ClusterConfig cluster;
  cluster.server = url;
  auto http = watch::HttpClient::create(cluster);
  REQUIRE(http);
  return std::make_shared<watch::ApiClient>(*http);
}

/// Polls `condition` until it holds or `timeout` passes; its last answer.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return condition();
}

}  // namespace troupe::actors::testing
