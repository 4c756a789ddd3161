// The `labelSelector=` query syntax, lexed and parsed the way apimachinery's
// labels.Parse does (same tokens, same context rule that lets `in`/`notin` be
// values, same treatment of empty values), so that a selector the API server
// accepts is accepted here and one it rejects is rejected.
//
//   <selector>    ::= <requirement> | <requirement> "," <selector>
//   <requirement> ::= [!] KEY [ ("in"|"notin") "(" VALUES ")" | ("="|"=="|"!="|">"|"<") VALUE ]

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "model/label_selector.hpp"
#include "model/label_selector_internal.hpp"

namespace troupe {
namespace {

using label_selector_detail::quote;
using Op = LabelRequirement::Op;

enum class Token {
  end,
  close_par,
  comma,
  not_sign,  // "!" (does-not-exist)
  double_equals,
  equals,
  greater,
  identifier,
  in,
  less,
  not_equals,
  not_in,
  open_par,
};

struct Item {
  Token token;
  std::string literal;
};

bool is_whitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool is_special(char c) {
  switch (c) {
    case '=': case '!': case '(': case ')': case ',': case '>': case '<':
      return true;
    default:
      return false;
  }
}

/// The operator and punctuation tokens; keywords are matched separately.
bool symbol_token(std::string_view text, Token& token) {
  static const std::pair<std::string_view, Token> symbols[] = {
      {")", Token::close_par}, {",", Token::comma},  {"!", Token::not_sign}, {"==", Token::double_equals},
      {"=", Token::equals},    {">", Token::greater}, {"<", Token::less},     {"!=", Token::not_equals},
      {"(", Token::open_par},
  };
  for (const auto& [spelling, kind] : symbols) {
    if (spelling == text) {
      token = kind;
      return true;
    }
  }
  return false;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  std::vector<Item> scan_all() {
    std::vector<Item> items;
    while (true) {
      items.push_back(next());
      if (items.back().token == Token::end) return items;
    }
  }

 private:
  Item next() {
    while (pos_ < text_.size() && is_whitespace(text_[pos_])) ++pos_;
    if (pos_ == text_.size()) return {Token::end, "end of string"};
    return is_special(text_[pos_]) ? scan_symbol() : scan_identifier_or_keyword();
  }

  /// Longest run of special characters that still spells a token ("!=" but
  /// "=" then "(" for "=(").
  Item scan_symbol() {
    Item best{Token::end, ""};
    std::size_t end = pos_;
    while (end < text_.size() && is_special(text_[end])) {
      Token token;
      if (!symbol_token(text_.substr(pos_, end + 1 - pos_), token)) break;
      best = {token, std::string(text_.substr(pos_, end + 1 - pos_))};
      ++end;
    }
    pos_ = end;
    return best;
  }

  Item scan_identifier_or_keyword() {
    std::size_t start = pos_;
    while (pos_ < text_.size() && !is_special(text_[pos_]) && !is_whitespace(text_[pos_])) ++pos_;
    std::string word(text_.substr(start, pos_ - start));
    if (word == "in") return {Token::in, word};
    if (word == "notin") return {Token::not_in, word};
    return {Token::identifier, word};
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

/// Where a token is read: after a key `in`/`notin` are operators, elsewhere
/// they are ordinary words ("x in (in)").
enum class Context { key_and_operator, values };

class Parser {
 public:
  explicit Parser(std::string_view text) : items_(Lexer(text).scan_all()) {}

  Result<std::vector<LabelRequirement>> parse() {
    std::vector<LabelRequirement> requirements;
    while (true) {
      Item item = lookahead(Context::values);
      if (item.token == Token::end) return requirements;
      if (item.token != Token::identifier && item.token != Token::not_sign)
        return Error{"found '" + item.literal + "', expected: !, identifier, or 'end of string'"};
      Result<LabelRequirement> requirement = parse_requirement();
      if (!requirement) return Error{"unable to parse requirement: " + requirement.message()};
      requirements.push_back(std::move(*requirement));
      Item after = consume(Context::values);
      if (after.token == Token::end) return requirements;
      if (after.token != Token::comma)
        return Error{"found '" + after.literal + "', expected: ',' or 'end of string'"};
      Item next = lookahead(Context::values);
      if (next.token != Token::identifier && next.token != Token::not_sign)
        return Error{"found '" + next.literal + "', expected: identifier after ','"};
    }
  }

 private:
  Item lookahead(Context context) const { return as_seen_in(items_[position_], context); }

  Item consume(Context context) {
    Item item = as_seen_in(items_[position_], context);
    // The end token repeats forever, so the parser can never run past it.
    if (items_[position_].token != Token::end) ++position_;
    return item;
  }

  static Item as_seen_in(Item item, Context context) {
    if (context == Context::values && (item.token == Token::in || item.token == Token::not_in))
      item.token = Token::identifier;
    return item;
  }

  Result<LabelRequirement> parse_requirement() {
    LabelRequirement requirement;
    bool negated = false;
    Item key = consume(Context::values);
    if (key.token == Token::not_sign) {
      negated = true;
      key = consume(Context::values);
    }
    if (key.token != Token::identifier) return Error{"found '" + key.literal + "', expected: identifier"};
    if (Status valid = validate_label_key(key.literal); !valid.ok())
      return Error{"key: Invalid value: " + quote(key.literal) + ": " + valid.message()};
    requirement.key = key.literal;
    Token next = lookahead(Context::values).token;
    if (negated || next == Token::end || next == Token::comma) {
      requirement.op = negated ? Op::does_not_exist : Op::exists;
      return requirement;
    }
    Item op = consume(Context::key_and_operator);
    if (!operator_of(op.token, requirement.op))
      return Error{"found '" + op.literal + "', expected: in, notin, =, ==, !=, gt, lt"};
    Status values = (requirement.op == Op::in || requirement.op == Op::not_in)
                        ? parse_value_set(requirement.values)
                        : parse_exact_value(requirement.values);
    if (!values.ok()) return Error{values.message()};
    if (Status valid = label_selector_detail::check_requirement(requirement, "", /*validate_values=*/true); !valid.ok())
      return Error{valid.message()};
    return requirement;
  }

  static bool operator_of(Token token, Op& op) {
    switch (token) {
      case Token::in: op = Op::in; return true;
      case Token::not_in: op = Op::not_in; return true;
      case Token::equals:
      case Token::double_equals: op = Op::equals; return true;
      case Token::not_equals: op = Op::not_equals; return true;
      case Token::greater: op = Op::gt; return true;
      case Token::less: op = Op::lt; return true;
      default: return false;
    }
  }

  /// "(a,b)", "()", "(a,,b)" and "(,a)": empty entries stand for the empty
  /// value, as upstream.
  Status parse_value_set(std::vector<std::string>& values) {
    Item open = consume(Context::values);
    if (open.token != Token::open_par) return Error{"found '" + open.literal + "', expected: '('"};
    Item first = lookahead(Context::values);
    if (first.token == Token::close_par) {
      consume(Context::values);
      values = {""};  // "()"
      return Status::success();
    }
    if (first.token != Token::identifier && first.token != Token::comma)
      return Error{"found '" + first.literal + "', expected: ',', ')' or identifier"};
    if (Status list = parse_identifier_list(values); !list.ok()) return list;
    Item close = consume(Context::values);
    if (close.token != Token::close_par) return Error{"found '" + close.literal + "', expected: ')'"};
    normalize(values);
    return Status::success();
  }

  /// Mirrors upstream's parseIdentifiersList step for step, including its
  /// quirks: "(a,)" and "(,a)" hold "", "(a,,b)" holds "", but "(a,,)" is an error.
  Status parse_identifier_list(std::vector<std::string>& values) {
    while (true) {
      Item item = consume(Context::values);
      if (item.token == Token::identifier) {
        values.push_back(item.literal);
        Item next = lookahead(Context::values);
        if (next.token == Token::comma) continue;
        if (next.token == Token::close_par) return Status::success();
        return Error{"found '" + next.literal + "', expected: ',' or ')'"};
      }
      if (item.token != Token::comma) return Error{"found '" + item.literal + "', expected: ',', or identifier"};
      if (values.empty()) values.push_back("");  // "(,"
      Token next = lookahead(Context::values).token;
      if (next == Token::close_par) {
        values.push_back("");  // ",)"
        return Status::success();
      }
      if (next == Token::comma) {
        consume(Context::values);
        values.push_back("");  // ",,"
      }
    }
  }

  Status parse_exact_value(std::vector<std::string>& values) {
    Item next = lookahead(Context::values);
    if (next.token == Token::end || next.token == Token::comma) {
      values = {""};
      return Status::success();
    }
    Item value = consume(Context::values);
    if (value.token != Token::identifier) return Error{"found '" + value.literal + "', expected: identifier"};
    values = {value.literal};
    return Status::success();
  }

  /// Upstream collects values in a set: sorted, without duplicates.
  static void normalize(std::vector<std::string>& values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
  }

  std::vector<Item> items_;
  std::size_t position_ = 0;
};

}  // namespace

Result<LabelSelector> parse_label_selector(std::string_view text) {
  Result<std::vector<LabelRequirement>> requirements = Parser(text).parse();
  if (!requirements) return Error{"invalid label selector " + quote(text) + ": " + requirements.message()};
  label_selector_detail::sort_by_key(*requirements);
  return LabelSelector(std::move(*requirements));
}

}  // namespace troupe
