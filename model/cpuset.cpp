#include "model/cpuset.hpp"

#include <ostream>

namespace troupe {
namespace {

// Reads one CPU id. Returns an empty problem on success.
std::string read_cpu_id(std::string_view digits, int& out) {
  if (digits.empty()) return "missing CPU number";
  if (digits[0] == '-') return "negative CPU number";
  int value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return "\"" + std::string(digits) + "\" is not a CPU number";
    // Stop growing once past the limit so long inputs cannot overflow.
    if (value <= CpuSet::kMaxCpus) value = value * 10 + (c - '0');
  }
  if (value >= CpuSet::kMaxCpus)
    return "CPU " + std::string(digits) + " is above the maximum " + std::to_string(CpuSet::kMaxCpus - 1);
  out = value;
  return {};
}

// Adds one list element ("5" or "2-7") to the set. Returns an empty problem on success.
std::string add_element(CpuSet& set, std::string_view element) {
  if (element.empty()) return "empty element";
  if (element[0] == '-') return "negative CPU number";
  size_t dash = element.find('-');
  int from = 0;
  if (auto problem = read_cpu_id(element.substr(0, dash), from); !problem.empty()) return problem;
  int to = from;
  if (dash != std::string_view::npos) {
    if (auto problem = read_cpu_id(element.substr(dash + 1), to); !problem.empty()) return problem;
    if (to < from) return "range end before start";
  }
  for (int cpu = from; cpu <= to; ++cpu) set.insert(cpu);
  return {};
}

Error cpuset_error(std::string_view text, std::string_view element, const std::string& problem) {
  std::string message = "invalid cpuset \"";
  message.append(text).append("\": ").append(problem);
  if (element != text) message.append(" in \"").append(element).append("\"");
  return Error{std::move(message)};
}

}  // namespace

Result<CpuSet> CpuSet::parse(std::string_view text) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  CpuSet set;
  if (text.empty()) return set;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view element =
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (auto problem = add_element(set, element); !problem.empty()) return cpuset_error(text, element, problem);
    if (comma == std::string_view::npos) return set;
    start = comma + 1;
  }
}

Result<CpuSet> CpuSet::from_range(int from, int to) {
  if (from < 0 || to >= kMaxCpus)
    return Error{"CPU range " + std::to_string(from) + ".." + std::to_string(to) + " is outside 0-" +
                 std::to_string(kMaxCpus - 1)};
  if (to < from)
    return Error{"CPU range " + std::to_string(from) + ".." + std::to_string(to) + " ends before it starts"};
  CpuSet set;
  for (int cpu = from; cpu <= to; ++cpu) set.insert(cpu);
  return set;
}

Result<CpuSet> CpuSet::from_ids(const std::vector<int>& ids) {
  CpuSet set;
  for (int cpu : ids)
    if (!set.insert(cpu))
      return Error{"CPU id " + std::to_string(cpu) + " is outside 0-" + std::to_string(kMaxCpus - 1)};
  return set;
}

CpuSet::CpuSet(std::initializer_list<int> ids) {
  for (int cpu : ids) insert(cpu);
}

bool CpuSet::insert(int cpu) {
  if (cpu < 0 || cpu >= kMaxCpus) return false;
  words_[cpu / kWordBits] |= uint64_t{1} << (cpu % kWordBits);
  return true;
}

void CpuSet::erase(int cpu) {
  if (cpu < 0 || cpu >= kMaxCpus) return;
  words_[cpu / kWordBits] &= ~(uint64_t{1} << (cpu % kWordBits));
}

bool CpuSet::contains(int cpu) const {
  if (cpu < 0 || cpu >= kMaxCpus) return false;
  return (words_[cpu / kWordBits] >> (cpu % kWordBits)) & 1;
}

std::size_t CpuSet::size() const {
  std::size_t count = 0;
  for (uint64_t word : words_) count += static_cast<std::size_t>(__builtin_popcountll(word));
  return count;
}

bool CpuSet::empty() const {
  for (uint64_t word : words_)
    if (word != 0) return false;
  return true;
}

int CpuSet::first() const {
  int cpu = next_at_or_after(0);
  return cpu == kMaxCpus ? -1 : cpu;
}

int CpuSet::last() const {
  for (int w = kWords - 1; w >= 0; --w)
    if (words_[w] != 0) return w * kWordBits + (kWordBits - 1 - __builtin_clzll(words_[w]));
  return -1;
}

CpuSet CpuSet::first_n(std::size_t k) const {
  CpuSet result;
  for (int w = 0; w < kWords && k > 0; ++w) {
    uint64_t word = words_[w];
    auto count = static_cast<std::size_t>(__builtin_popcountll(word));
    if (count <= k) {
      result.words_[w] = word;
      k -= count;
      continue;
    }
    // Keep only the k lowest bits of this word.
    uint64_t kept = 0;
    for (; k > 0; --k) {
      uint64_t lowest = word & (~word + 1);
      kept |= lowest;
      word ^= lowest;
    }
    result.words_[w] = kept;
  }
  return result;
}

std::vector<int> CpuSet::to_vector() const {
  std::vector<int> ids;
  ids.reserve(size());
  for (int cpu : *this) ids.push_back(cpu);
  return ids;
}

bool CpuSet::is_subset_of(const CpuSet& other) const {
  for (int w = 0; w < kWords; ++w)
    if ((words_[w] & ~other.words_[w]) != 0) return false;
  return true;
}

bool CpuSet::intersects(const CpuSet& other) const {
  for (int w = 0; w < kWords; ++w)
    if ((words_[w] & other.words_[w]) != 0) return true;
  return false;
}

CpuSet& CpuSet::operator|=(const CpuSet& other) {
  for (int w = 0; w < kWords; ++w) words_[w] |= other.words_[w];
  return *this;
}

CpuSet& CpuSet::operator&=(const CpuSet& other) {
  for (int w = 0; w < kWords; ++w) words_[w] &= other.words_[w];
  return *this;
}

CpuSet& CpuSet::operator-=(const CpuSet& other) {
  for (int w = 0; w < kWords; ++w) words_[w] &= ~other.words_[w];
  return *this;
}

int CpuSet::next_at_or_after(int cpu) const {
  if (cpu >= kMaxCpus) return kMaxCpus;
  int w = cpu / kWordBits;
  uint64_t bits = words_[w] & (~uint64_t{0} << (cpu % kWordBits));
  while (bits == 0) {
    if (++w == kWords) return kMaxCpus;
    bits = words_[w];
  }
  return w * kWordBits + __builtin_ctzll(bits);
}

std::string CpuSet::to_string() const {
  std::string out;
  int cpu = next_at_or_after(0);
  while (cpu < kMaxCpus) {
    int run_end = cpu;
    while (run_end + 1 < kMaxCpus && contains(run_end + 1)) ++run_end;
    if (!out.empty()) out.push_back(',');
    out.append(std::to_string(cpu));
    if (run_end > cpu) out.append("-").append(std::to_string(run_end));
    cpu = next_at_or_after(run_end + 1);
  }
  return out;
}

CpuSet::const_iterator& CpuSet::const_iterator::operator++() {
  cpu_ = set_->next_at_or_after(cpu_ + 1);
  return *this;
}

std::ostream& operator<<(std::ostream& out, const CpuSet& set) { return out << '"' << set.to_string() << '"'; }

}  // namespace troupe
