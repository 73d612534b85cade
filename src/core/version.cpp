#include "core/version.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

constexpr int kMaxComponent = 1'000'000'000;

bool parse_int(std::string_view s, int& out) {
  if (s.empty() || s.size() > 9) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && out < kMaxComponent;
}

/// PEP 440's order of what follows the numbers: .devN < aN < bN < rcN (c, pre, preview too),
/// tags in any case, each by its number ("rc10" after "rc2", however many digits); a ".devM" after
/// that goes before the same tag without it ("a1.dev3" < "a1"); an unknown tag after all those.
struct PreKey {
  int rank = 4;
  std::size_t digits = 0;  ///< the number's length without leading zeros, then
  std::string number;      ///< its digits: numbers of any length compare as numbers
  int dev_after = 1;       ///< 0: ".devM" follows the number; 1: nothing; 2: something else
  std::string rest;
  auto operator<=>(const PreKey&) const = default;
};

PreKey pre_key(std::string_view pre) {
  size_t letters = 0;
  while (letters < pre.size() && std::isalpha(static_cast<unsigned char>(pre[letters]))) ++letters;
  const std::string tag = to_lower(pre.substr(0, letters));
  PreKey k;
  k.rank = tag == "dev"                                                    ? 0
           : tag == "a" || tag == "alpha"                                  ? 1
           : tag == "b" || tag == "beta"                                   ? 2
           : tag == "rc" || tag == "c" || tag == "pre" || tag == "preview" ? 3
                                                                           : 4;
  if (k.rank == 4) {
    k.rest = std::string(pre);
    return k;
  }
  size_t end = letters;
  while (end < pre.size() && std::isdigit(static_cast<unsigned char>(pre[end]))) ++end;
  std::string_view number = pre.substr(letters, end - letters);
  while (number.size() > 1 && number.front() == '0') number.remove_prefix(1);
  k.digits = number.size();
  k.number = std::string(number);
  std::string_view rest = pre.substr(end);
  if (!rest.empty() && rest.front() == '.') rest.remove_prefix(1);
  k.dev_after = rest.empty() ? 1 : k.rank != 0 && to_lower(rest).starts_with("dev") ? 0 : 2;
  k.rest = std::string(rest);
  return k;
}

int compare_pre(const std::string& a, const std::string& b) {
  // A release (empty pre) sorts after any pre-release of the same numbers.
  if (a == b) return 0;
  if (a.empty()) return 1;
  if (b.empty()) return -1;
  const auto c = pre_key(a) <=> pre_key(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

}  // namespace

std::optional<Version> Version::parse(std::string_view text) {
  std::string_view s = trim(text);
  if (!s.empty() && (s[0] == 'v' || s[0] == 'V')) s.remove_prefix(1);
  if (s.empty() || s.size() > 64 || !std::isdigit(static_cast<unsigned char>(s[0]))) {
    return std::nullopt;
  }
  Version v;
  if (auto plus = s.find('+'); plus != std::string_view::npos) {
    v.local_ = std::string(s.substr(plus + 1));
    s = s.substr(0, plus);
  }
  size_t i = 0;
  while (i < s.size()) {
    size_t j = i;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j == i) break;
    int n = 0;
    if (!parse_int(s.substr(i, j - i), n)) return std::nullopt;
    v.parts_.push_back(n);
    v.written_.emplace_back(s.substr(i, j - i));
    i = j;
    if (i < s.size() && s[i] == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      ++i;
      continue;
    }
    break;
  }
  if (v.parts_.empty() || v.parts_.size() > 8) return std::nullopt;
  std::string_view rest = s.substr(i);
  if (!rest.empty() && (rest[0] == '.' || rest[0] == '-' || rest[0] == '_')) rest.remove_prefix(1);
  if (rest.starts_with("post")) {
    int n = 0;
    std::string_view num = rest.substr(4);
    v.post_ = num.empty() ? 0 : (parse_int(num, n) ? n : 0);
  } else if (!rest.empty()) {
    for (char c : rest) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.') return std::nullopt;
    }
    // A pre-release tag starts with a letter ("rc0", "a1", "dev"): "64_101" is no version.
    if (!std::isalpha(static_cast<unsigned char>(rest[0]))) return std::nullopt;
    v.pre_ = std::string(rest);
  }
  return v;
}

Version Version::of(std::initializer_list<int> parts) {
  Version v;
  v.parts_.assign(parts.begin(), parts.end());
  for (int p : parts) v.written_.push_back(std::to_string(p));
  return v;
}

Version Version::truncated(size_t n) const {
  Version v;
  for (size_t i = 0; i < n && i < parts_.size(); ++i) {
    v.parts_.push_back(parts_[i]);
    v.written_.push_back(written_[i]);
  }
  return v;
}

bool Version::same_series(const Version& other, size_t n) const {
  for (size_t i = 0; i < n; ++i) {
    if (part(i) != other.part(i)) return false;
  }
  return true;
}

std::string series_text(const Version& v) {
  return v.truncated(2).str();
}

std::string Version::str() const {
  std::string out;
  for (size_t i = 0; i < parts_.size(); ++i) {
    if (i) out += '.';
    out += written_[i];
  }
  // PEP 440's normal form: "2.22.0rc0", but "2.23.0.dev20261026" (pip accepts both spellings).
  if (pre_.starts_with("dev")) out += '.';
  out += pre_;
  if (post_ >= 0) out += ".post" + std::to_string(post_);
  if (!local_.empty()) out += "+" + local_;
  return out;
}

std::strong_ordering operator<=>(const Version& a, const Version& b) {
  size_t n = std::max(a.parts_.size(), b.parts_.size());
  for (size_t i = 0; i < n; ++i) {
    if (auto c = a.part(i) <=> b.part(i); c != 0) return c;
  }
  if (int c = compare_pre(a.pre_, b.pre_); c != 0) {
    return c < 0 ? std::strong_ordering::less : std::strong_ordering::greater;
  }
  return a.post_ <=> b.post_;
}

// ---- VersionSpec ------------------------------------------------------------------------

namespace {

/// Compares v with bound b on b's width components only.
std::string join_parts(const std::vector<int>& parts) {
  std::string out;
  for (int p : parts) out += (out.empty() ? "" : ".") + std::to_string(p);
  return out;
}

int compare_on_width(const Version& v, const Version& b, size_t width) {
  for (size_t i = 0; i < width; ++i) {
    if (v.part(i) != b.part(i)) return v.part(i) < b.part(i) ? -1 : 1;
  }
  return 0;
}

}  // namespace

namespace {

template <typename Bound>
int compare_to_bound(const Version& v, const Bound& b) {
  if (!b.whole) return compare_on_width(v, b.version, b.width);
  const auto c = v <=> b.version;
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

}  // namespace

bool VersionSpec::above(const Version& v, const Bound& b) {
  int c = compare_to_bound(v, b);
  return b.inclusive ? c >= 0 : c > 0;
}

bool VersionSpec::below(const Version& v, const Bound& b) {
  int c = compare_to_bound(v, b);
  return b.inclusive ? c <= 0 : c < 0;
}

std::optional<VersionSpec> VersionSpec::parse(std::string_view text) {
  return parse_as(text, false);
}

std::optional<VersionSpec> VersionSpec::parse_requirement(std::string_view text) {
  return parse_as(text, true);
}

std::optional<VersionSpec> VersionSpec::parse_as(std::string_view text, bool requirement) {
  VersionSpec spec;
  spec.text_ = std::string(trim(text));
  std::string_view t = trim(text);
  if (t.empty() || t.size() > 256) return std::nullopt;
  if (t == "any" || t == "*") {
    spec.alternatives_.push_back(Interval{});
    return spec;
  }
  // How a requirement's bound compares: as a whole version (padded), on the components written
  // (written: ">=", "<", "~=", where that is the same), or on at least its major.minor (an "=="
  // pin's series). Only "==" and "!=" (series, padded) take a wildcard in a requirement.
  enum class Width { written, padded, series };
  auto make_bound = [&](std::string_view s, bool inclusive, Width width = Width::written,
                        bool wildcard_allowed = false) -> std::optional<Bound> {
    s = trim(s);
    bool wildcard = false;
    if (s.ends_with(".*") || s.ends_with(".x")) {
      s.remove_suffix(2);
      wildcard = true;
    }
    auto v = Version::parse(s);
    if (!v) return std::nullopt;
    Bound b{*v, v->parts().size(), inclusive};
    if (requirement && wildcard && !wildcard_allowed) return std::nullopt;
    if (requirement && !wildcard && width == Width::padded) b.whole = true;
    if (requirement && !wildcard && width == Width::series) b.width = std::max<size_t>(b.width, 2);
    return b;
  };
  // Comparison clauses (">=3.10,<3.15") form one interval; otherwise commas separate
  // alternatives ("2.7, 3.5-3.7").
  bool has_operator = t.find_first_of("<>=!~") != std::string_view::npos;
  std::vector<std::string_view> pieces = split(t, ',');
  if (has_operator) {
    Interval iv;
    for (std::string_view raw : pieces) {
      std::string_view p = trim(raw);
      if (p.empty()) continue;
      std::optional<Bound> b;
      if (p.starts_with(">=")) {
        b = make_bound(p.substr(2), true);
        if (!b) return std::nullopt;
        iv.low = b;
      } else if (p.starts_with("<=")) {
        b = make_bound(p.substr(2), true, Width::padded);
        if (!b) return std::nullopt;
        iv.high = b;
      } else if (p.starts_with("==")) {
        b = make_bound(p.substr(2), true, Width::series, true);
        if (!b) return std::nullopt;
        iv.low = b;
        iv.high = b;
      } else if (p.starts_with("!=")) {
        b = make_bound(p.substr(2), true, Width::padded, true);
        if (!b) return std::nullopt;
        iv.excluded.push_back(*b);
      } else if (p.starts_with("~=")) {
        // PEP 440 compatible release: ~=2.5.1 means >=2.5.1, ==2.5.*
        b = make_bound(p.substr(2), true);
        if (!b || b->width < 2) return std::nullopt;
        iv.low = b;
        Bound hi = *b;
        hi.width = b->width - 1;
        iv.high = hi;
      } else if (p.starts_with(">")) {
        b = make_bound(p.substr(1), false, Width::padded);
        if (!b) return std::nullopt;
        iv.low = b;
      } else if (p.starts_with("<")) {
        b = make_bound(p.substr(1), false);
        if (!b) return std::nullopt;
        iv.high = b;
      } else {
        return std::nullopt;
      }
    }
    spec.alternatives_.push_back(std::move(iv));
    return spec;
  }
  for (std::string_view raw : pieces) {
    std::string_view p = trim(raw);
    if (p.empty()) continue;
    Interval iv;
    // A dash between two versions is a range; a dash inside a tag is not ("2.16.0-rc0").
    size_t dash = std::string_view::npos;
    for (size_t i = 1; i + 1 < p.size(); ++i) {
      if (p[i] == '-' && std::isdigit(static_cast<unsigned char>(p[i - 1])) &&
          std::isdigit(static_cast<unsigned char>(p[i + 1]))) {
        dash = i;
        break;
      }
    }
    if (dash != std::string_view::npos) {
      auto lo = make_bound(p.substr(0, dash), true);
      auto hi = make_bound(p.substr(dash + 1), true);
      if (!lo || !hi) return std::nullopt;
      iv.low = lo;
      iv.high = hi;
    } else {
      auto b = make_bound(p, true);
      if (!b) return std::nullopt;
      iv.low = b;
      iv.high = b;
    }
    spec.alternatives_.push_back(std::move(iv));
  }
  if (spec.alternatives_.empty()) return std::nullopt;
  return spec;
}

bool VersionSpec::contains(const Version& v) const {
  for (const Interval& iv : alternatives_) {
    if (iv.low && !above(v, *iv.low)) continue;
    if (iv.high && !below(v, *iv.high)) continue;
    bool excluded = std::any_of(iv.excluded.begin(), iv.excluded.end(),
                                [&](const Bound& b) { return compare_to_bound(v, b) == 0; });
    if (excluded) continue;
    return true;
  }
  return false;
}

bool VersionSpec::admits_series(const Version& series) const {
  const int major = series.major(), minor = series.minor();
  auto in_interval = [](const Interval& iv, const Version& v) {
    if (iv.low && !above(v, *iv.low)) return false;
    if (iv.high && !below(v, *iv.high)) return false;
    return std::none_of(iv.excluded.begin(), iv.excluded.end(),
                        [&](const Bound& b) { return compare_to_bound(v, b) == 0; });
  };
  for (const Interval& iv : alternatives_) {
    // The lowest version of the series inside the interval, if any, is the series' first release
    // or just at or above one of the interval's bounds: those are the only candidates to try.
    std::vector<Version> candidates = {Version::of({major, minor})};
    auto add = [&](const Bound& b) {
      std::vector<int> parts(b.version.parts().begin(), b.version.parts().end());
      parts.resize(std::max<size_t>(b.width, 2), 0);
      candidates.push_back(Version::parse(join_parts(parts)).value_or(Version{}));
      ++parts[parts.size() - 1];
      candidates.push_back(Version::parse(join_parts(parts)).value_or(Version{}));
    };
    if (iv.low) add(*iv.low);
    if (iv.high) add(*iv.high);
    for (const Bound& b : iv.excluded) add(b);
    for (const Version& c : candidates) {
      if (c.major() == major && c.minor() == minor && in_interval(iv, c)) return true;
    }
  }
  return false;
}

std::optional<Version> VersionSpec::lowest() const {
  std::optional<Version> out;
  for (const Interval& iv : alternatives_) {
    if (!iv.low) return std::nullopt;
    if (!out || iv.low->version < *out) out = iv.low->version;
  }
  return out;
}

std::optional<Version> VersionSpec::highest() const {
  std::optional<Version> out;
  for (const Interval& iv : alternatives_) {
    if (!iv.high) return std::nullopt;
    if (!out || iv.high->version > *out) out = iv.high->version;
  }
  return out;
}

}  // namespace gpudoctor
