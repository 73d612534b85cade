#include "render/verify_render.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "model/json_codec.hpp"
#include "render/json_text.hpp"

namespace gpudoctor {
namespace {

/// The glyph of a step's status or a library's ("ok", "not-found", ...).
const char* mark(std::string_view status, bool color) {
  if (status == "passed" || status == "ok") return color ? "\x1b[32m✓\x1b[0m" : "✓";
  if (status == "skipped" || status == "not-found") return color ? "\x1b[33m-\x1b[0m" : "-";
  return color ? "\x1b[31m✗\x1b[0m" : "✗";
}

std::string where(const VerifyStep& s) {
  if (s.device) return "GPU " + std::to_string(*s.device);
  if (s.framework && !s.framework->environment.empty()) {
    // The environment's last two folder names ("vision/.venv"): two projects' `.venv` differ.
    std::string_view env = s.framework->environment;
    while (env.size() > 1 && (env.ends_with('/') || env.ends_with('\\'))) env.remove_suffix(1);
    const size_t last = env.find_last_of("/\\");
    const size_t before =
        last == std::string_view::npos || last == 0 ? std::string_view::npos : env.find_last_of("/\\", last - 1);
    return std::string(
        env.substr(before == std::string_view::npos ? (last == std::string_view::npos ? 0 : last + 1) : before + 1));
  }
  return s.name.starts_with("framework ") ? "python" : "all GPUs";
}

}  // namespace

std::string render_verify_step_line(const VerifyStep& s, bool color) {
  // A missing library is a failure of the run, not a skip: the red mark.
  const char* glyph = mark(s.status == StepStatus::not_found ? "failed" : to_string(s.status), color);
  std::string line = fmt::format("  {} {:<20} {:<8} {:>7} ms  {:<7}  {}\n", glyph, s.name, where(s), s.elapsed_ms,
                                 to_string(s.status), s.detail);
  for (const auto& n : s.notes) line += "        " + n + "\n";
  return line;
}

std::string render_verify_text(const VerifyReport& r, bool color) {
  std::string out = "gpudoctor verify: runtime libraries from " + r.libs_from + (r.quick ? " (--quick)" : "") + "\n\n";
  const bool framework_mode = r.libraries.empty() && r.driver.status == LibraryStatus::none;
  if (framework_mode) out = "gpudoctor verify --framework: each environment's own interpreter\n";
  if (!framework_mode) out += "Driver (libcuda): ";
  if (framework_mode) {
    // nothing: the frameworks load their own libraries
  } else if (r.driver.status == LibraryStatus::ok) {
    int v = r.driver.driver_version.value_or(0);
    out += fmt::format("{} {}, speaks CUDA {}.{}, {} GPU(s)\n", mark("ok", color), r.driver.path, v / 1000,
                       v % 1000 / 10, r.driver.device_count.value_or(0));
  } else {
    out += fmt::format("{} {}: {}\n", mark("failed", color),
                       r.driver.status == LibraryStatus::none ? "unknown" : to_string(r.driver.status), r.driver.error);
  }
  if (!framework_mode) out += "\nRuntime libraries:\n";
  for (const auto& l : r.libraries) {
    const bool sub = l.name.find('_') != std::string::npos;
    std::string what = l.status == LibraryStatus::ok ? l.path : to_string(l.status) + (": " + l.error);
    // The file that was refused is the one to replace (a stale copy early on LD_LIBRARY_PATH).
    if (l.status != LibraryStatus::ok && l.status != LibraryStatus::not_found && !l.path.empty())
      what += " (" + l.path + ")";
    if (l.status == LibraryStatus::not_found && !l.tried.empty()) {
      what = "not found (tried " + l.tried.front() +
             (l.tried.size() > 1 ? " and " + std::to_string(l.tried.size() - 1) + " more" : "") + ")";
    }
    out += fmt::format("  {}{} {:<{}} {:<10} {}\n", sub ? "  " : "", mark(to_string(l.status), color), l.name,
                       sub ? 31 : 33, l.version, what);
    for (const auto& p : l.problems) out += "      " + p + "\n";
  }
  out += "\nSteps:\n";
  for (const auto& s : r.steps) out += render_verify_step_line(s, color);
  for (const auto& p : r.problems) out += "  ✗ " + p + "\n";
  for (const auto& n : r.notes) out += "  note: " + n + "\n";
  size_t bad = 0;
  std::string first_bad;
  std::vector<std::string> missing;  ///< each distinct "cuBLAS not found in ..." once
  size_t not_run = 0;
  for (const auto& s : r.steps) {
    if (s.status == StepStatus::not_found) {
      ++not_run;
      if (std::find(missing.begin(), missing.end(), s.detail) == missing.end()) missing.push_back(s.detail);
      continue;
    }
    if (s.passed() || s.status == StepStatus::skipped) continue;
    if (bad++ == 0)
      first_bad = s.name + " on " + where(s) + (s.pci_bus_id.empty() ? "" : " at PCI " + s.pci_bus_id) + " (" +
                  to_string(s.status) + ")";
  }
  out += "\n";
  if (verify_passed(r)) {
    out += fmt::format("{} every step that could run passed\n", mark("ok", color));
    return out;
  }
  if (bad > 0) out += fmt::format("{} {} step(s) did not pass; the first: {}\n", mark("failed", color), bad, first_bad);
  if (not_run > 0) {
    std::string why;
    for (const auto& m : missing) why += (why.empty() ? "" : "; ") + m;
    out += fmt::format("{} {} step(s) not run: {}\n", mark("failed", color), not_run, why);
  }
  if (!r.problems.empty())
    out += fmt::format("{} {} problem(s) outside the steps; the first: {}\n", mark("failed", color), r.problems.size(),
                       r.problems.front());
  if (bad == 0 && not_run == 0 && r.problems.empty())
    out += fmt::format("{} no step could run here\n", mark("failed", color));
  return out;
}

std::string render_verify_json(const VerifyReport& r) {
  nlohmann::ordered_json doc;
  doc["schema_version"] = kVerifySchemaVersion;
  const nlohmann::ordered_json body = verify_report_to_json(r);
  for (const auto& [key, value] : body.items()) doc[key] = value;
  return json_text(doc);
}

}  // namespace gpudoctor
