#include "watch/token_source.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <spdlog/spdlog.h>

#include "model/text.hpp"

namespace troupe::watch {

Result<std::string> read_trimmed_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{what + " " + path + ": cannot open: " + std::strerror(errno)};
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return Error{what + " " + path + ": read failed"};
  return trim(content.str());
}

TokenSource::TokenSource(std::string token, std::string path, std::chrono::seconds period, NowFn now)
    : token_(std::move(token)), path_(std::move(path)), refresh_period_(period), now_(std::move(now)) {
  read_at_ = now_();
}

std::shared_ptr<TokenSource> TokenSource::fixed(std::string token) {
  return std::shared_ptr<TokenSource>(new TokenSource(std::move(token), "", std::chrono::seconds(0), &Clock::now));
}

Result<std::shared_ptr<TokenSource>> TokenSource::from_file(std::string path, std::chrono::seconds refresh_period,
                                                           NowFn now) {
  auto token = read_trimmed_file(path, "token file");
  if (!token) return token.error();
  if (token->empty()) return Error{"token file " + path + ": file is empty"};
  return std::shared_ptr<TokenSource>(
      new TokenSource(std::move(*token), std::move(path), refresh_period, std::move(now)));
}

bool TokenSource::reread_locked() {
  read_at_ = now_();
  auto fresh = read_trimmed_file(path_, "token file");
  if (!fresh || fresh->empty()) {
    spdlog::warn("token-source keeping the previous token: {}", fresh ? "token file " + path_ + " is empty"
                                                                     : fresh.message());
    return false;
  }
  if (*fresh == token_) return false;
  token_ = std::move(*fresh);
  spdlog::info("token-source re-read a rotated token from {}", path_);
  return true;
}

std::string TokenSource::token() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!path_.empty() && now_() - read_at_ >= refresh_period_) reread_locked();
  return token_;
}

bool TokenSource::refresh_after_unauthorized() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (path_.empty()) return false;
  return reread_locked();
}

}  // namespace troupe::watch
