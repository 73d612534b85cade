#pragma once
/// Looking findings up by id, the same way in every test. The pointer-returning lookups refuse a
/// temporary vector at compile time: `const Finding* f = find(run_checks(...), "id")` would
/// point into a vector destroyed at the end of the statement. For a temporary, ask has() or
/// take a copy with find_copy().
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/finding.hpp"

namespace gpudoctor::testing {

/// Every finding with this id, in order.
inline std::vector<const Finding*> all(const std::vector<Finding>& fs, std::string_view id) {
  std::vector<const Finding*> out;
  for (const Finding& f : fs) {
    if (f.id == id) out.push_back(&f);
  }
  return out;
}
std::vector<const Finding*> all(const std::vector<Finding>&& fs, std::string_view id) = delete;

/// The first finding with this id, or null.
inline const Finding* find(const std::vector<Finding>& fs, std::string_view id) {
  for (const Finding& f : fs) {
    if (f.id == id) return &f;
  }
  return nullptr;
}
const Finding* find(const std::vector<Finding>&& fs, std::string_view id) = delete;

inline bool has(const std::vector<Finding>& fs, std::string_view id) {
  return find(fs, id) != nullptr;
}

/// A copy of the first finding with this id; safe on a temporary vector.
inline std::optional<Finding> find_copy(const std::vector<Finding>& fs, std::string_view id) {
  const Finding* f = find(fs, id);
  return f ? std::optional<Finding>(*f) : std::nullopt;
}

/// "id(severity) id(severity) ", for failure messages.
inline std::string ids(const std::vector<Finding>& fs) {
  std::string s;
  for (const Finding& f : fs) s += f.id + "(" + to_string(f.severity) + ") ";
  return s;
}

}  // namespace gpudoctor::testing
