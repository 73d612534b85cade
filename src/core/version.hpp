#pragma once
/// Version numbers as the field writes them: "535.104.05", "12.2", "2.15.0.post1",
/// "2.7.1+cu126", "2.16.0rc0", "9.3.0.75". Parsing never throws; garbage gives nullopt.
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

class Version {
 public:
  Version() = default;
  static std::optional<Version> parse(std::string_view text);
  /// Builds from components, e.g. Version::of({12, 2}).
  static Version of(std::initializer_list<int> parts);

  [[nodiscard]] const std::vector<int>& parts() const { return parts_; }
  [[nodiscard]] int part(size_t i) const { return i < parts_.size() ? parts_[i] : 0; }
  [[nodiscard]] int major() const { return part(0); }
  [[nodiscard]] int minor() const { return part(1); }
  [[nodiscard]] int patch() const { return part(2); }
  /// Pre-release tag ("rc0", "a1", "dev20240101"); empty for a release.
  [[nodiscard]] const std::string& pre() const { return pre_; }
  /// Local tag after '+' ("cu126"); never part of ordering.
  [[nodiscard]] const std::string& local() const { return local_; }
  /// Post-release number (2.15.0.post1 -> 1), -1 when none.
  [[nodiscard]] int post() const { return post_; }

  /// The version cut to n numeric components ("2.15.1" -> "2.15" for n = 2).
  [[nodiscard]] Version truncated(size_t n) const;
  /// True when the first n numeric components are equal (missing ones count as 0).
  [[nodiscard]] bool same_series(const Version& other, size_t n) const;
  /// Text: numeric parts as written (leading zeros kept), then pre, post and local tags.
  [[nodiscard]] std::string str() const;

  /// Numeric parts compared with zero padding; a pre-release sorts before its release,
  /// a post-release after it; the local tag is ignored.
  friend std::strong_ordering operator<=>(const Version& a, const Version& b);
  friend bool operator==(const Version& a, const Version& b) { return (a <=> b) == 0; }

 private:
  std::vector<int> parts_;
  /// The components as written ("05" in driver 535.104.05): shown, never compared.
  std::vector<std::string> written_;
  std::string pre_;
  std::string local_;
  int post_ = -1;
};

/// The major.minor series as text: "12.4" for 12.4.1.
std::string series_text(const Version& v);

/// A set of versions written as the tables write them:
///   "3.9-3.11" (inclusive on the shown components), ">=3.10,<=3.14", "==2.15.*",
///   "2.7, 3.5-3.7" (a union), "12.x", "any".
/// Bounds compare on the number of components written: "3.9-3.11" contains 3.11.9.
class VersionSpec {
 public:
  static std::optional<VersionSpec> parse(std::string_view text);
  /// A requirement as pip reads it (PEP 440): "<=", ">" and "!=" compare whole versions,
  /// zero-padded and with their pre-release tags, so "<=2.5" leaves 2.5.1 out, ">2.5" takes it,
  /// "!=2.5" drops 2.5.0 only and "<=2.5.0rc1" leaves 2.5.0 out; a wildcard goes only with "==" and
  /// "!=" ("<=2.5.*" is refused, as pip refuses it). An "==" without a wildcard keeps this tool's
  /// reading of a series ("==2.5" is 2.5.*, the tables' unit), "==2" being "==2.0".
  static std::optional<VersionSpec> parse_requirement(std::string_view text);
  [[nodiscard]] bool contains(const Version& v) const;
  /// True when some version of this major.minor series is contained: "==2.5.1" and ">=2.5.1,<2.6"
  /// admit the series 2.5, "<2.5.0" does not (tables that hold releases by series).
  [[nodiscard]] bool admits_series(const Version& series) const;
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] bool empty() const { return alternatives_.empty(); }
  /// Lowest and highest bounds mentioned (for gap/overlap checks and display).
  [[nodiscard]] std::optional<Version> lowest() const;
  [[nodiscard]] std::optional<Version> highest() const;

 private:
  struct Bound {
    Version version;
    size_t width = 0;  ///< components that count when comparing
    bool inclusive = true;
    bool whole = false;  ///< compared as a whole version, zero-padded, pre-release tag and all
  };
  struct Interval {
    std::optional<Bound> low;
    std::optional<Bound> high;
    std::vector<Bound> excluded;  ///< "!=" clauses
  };
  static std::optional<VersionSpec> parse_as(std::string_view text, bool requirement);
  static bool above(const Version& v, const Bound& b);
  static bool below(const Version& v, const Bound& b);
  std::vector<Interval> alternatives_;
  std::string text_;
};

}  // namespace gpudoctor
