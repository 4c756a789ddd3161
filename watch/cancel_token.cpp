#include "watch/cancel_token.hpp"

#include <thread>

namespace troupe::watch {

void CancelToken::cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cancelled_) return;
  cancelled_ = true;
  for (auto& [id, fn] : hooks_) fn();
  wake_.notify_all();
}

bool CancelToken::cancelled() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cancelled_;
}

bool CancelToken::sleep_for(std::chrono::nanoseconds duration) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return !wake_.wait_for(lock, duration, [this] { return cancelled_; });
}

CancelToken::Hook CancelToken::on_cancel(std::function<void()> fn) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cancelled_) {
    fn();
    return Hook{};
  }
  const std::uint64_t id = next_hook_id_++;
  hooks_.emplace(id, std::move(fn));
  return Hook{this, id};
}

CancelToken::Hook::Hook(Hook&& other) noexcept : token_(other.token_), id_(other.id_) {
  other.token_ = nullptr;
}

CancelToken::Hook& CancelToken::Hook::operator=(Hook&& other) noexcept {
  if (this != &other) {
    release();
    token_ = other.token_;
    id_ = other.id_;
    other.token_ = nullptr;
  }
  return *this;
}

CancelToken::Hook::~Hook() { release(); }

void CancelToken::Hook::release() {
  if (token_ == nullptr) return;
  std::lock_guard<std::mutex> lock(token_->mutex_);
  token_->hooks_.erase(id_);
  token_ = nullptr;
}

bool sleep_unless_cancelled(const CancelToken* token, std::chrono::nanoseconds duration) {
  if (token != nullptr) return token->sleep_for(duration);
  std::this_thread::sleep_for(duration);
  return true;
}

}  // namespace troupe::watch
