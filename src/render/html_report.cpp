#include "render/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mstch/mstch.hpp>
#include <optional>
#include <set>

#include "core/text.hpp"
#include "core/timestamp.hpp"
#include "model/build_info.hpp"
#include "model/fleet.hpp"
#include "model/monitor_snapshot.hpp"
#include "render/finding_words.hpp"
#include "render/html_templates.hpp"

namespace gpudoctor {
namespace {

/// Every string from the report goes through here before the template engine escapes it:
/// control characters, bidi overrides and invalid UTF-8 become visible escapes (line by line, so
/// that a multi-line detail keeps its lines), and a runaway value is cut.
std::string text(std::string_view s, size_t max_len = 4000) {
  std::string out;
  for (auto line : lines(s.substr(0, std::min(s.size(), max_len)))) {
    if (!out.empty()) out += '\n';
    out += terminal_safe(line);
  }
  if (s.size() > max_len) out += "…";
  return out;
}

std::string or_dash(const std::string& s) {
  return s.empty() ? "—" : text(s);
}
std::string or_dash(const std::optional<Version>& v) {
  return v ? v->str() : "—";
}

/// A number as people read it: at most 3 decimals, no trailing zeros; below 1, 3 significant
/// digits (0.000368, not 0).
std::string number(double v) {
  std::string s = v != 0 && std::abs(v) < 1 ? fmt::format("{:.3g}", v) : fmt::format("{:.3f}", v);
  if (s.find_first_of("eE") != std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// ---- charts: horizontal bars, each optionally against its ceiling ----

struct Bar {
  std::string label;
  double value = 0;
  std::optional<double> ceiling;
  std::string value_text;
  std::string cls;  ///< CSS class: "error", "warning", "ok", "outlier", ""
};

constexpr int kChartLabelX = 200;  ///< right edge of the labels
constexpr int kChartBarX = 210;
// Leaves 164 px of the 640-wide viewBox for the value after a full bar: 17 characters at the
// phone's 16 px (about 9 px a character in Chromium's DejaVu Sans; "0.000305 TFLOP/s" is 144 px).
// With 300 a phone cut "109.132 GFLOP/" at the right (review 43B, 04).
constexpr int kChartBarWidth = 260;
constexpr int kChartRow = 28;
constexpr int kChartWidth = 640;         ///< the viewBox's width (chart.mustache)
constexpr double kChartCharWidth = 9.5;  ///< a character at the largest font size (16 px, the phone's)

/// Where a bar's value text goes: right of `after`, or, when it would pass the viewBox's right edge
/// at the phone's font size, ending at that edge (over the bar, on a halo: style.mustache).
mstch::map value_place(int after, const std::string& value) {
  const int end = kChartWidth - 4;
  // Characters, not bytes: a UTF-8 continuation byte (10xxxxxx) starts none.
  const auto chars = std::count_if(value.begin(), value.end(), [](char c) { return (c & 0xC0) != 0x80; });
  const bool fits = after + 6 + kChartCharWidth * static_cast<double>(chars) <= end;
  return mstch::map{{"value_x", std::to_string(fits ? after + 6 : end)}, {"value_end", !fits}};
}

/// What the bars' line stands for, as the chart's table heads its two columns.
struct CeilingWords {
  const char* name = "Ceiling";
  const char* share = "Share of ceiling";
};

mstch::map bar_chart(const std::string& id, const std::string& title, const std::string& label_header,
                     const std::vector<Bar>& bars, CeilingWords ceiling = {}) {
  double scale = 0;
  bool has_ceiling = false;
  for (const Bar& b : bars) {
    scale = std::max(scale, b.value);
    if (b.ceiling) {
      scale = std::max(scale, *b.ceiling);
      has_ceiling = true;
    }
  }
  if (scale <= 0) scale = 1;
  auto x_of = [&](double v) { return kChartBarX + static_cast<int>(std::clamp(v / scale, 0.0, 1.0) * kChartBarWidth); };
  mstch::array rows;
  std::string desc;
  int i = 0;
  for (const Bar& b : bars) {
    int y = 10 + i * kChartRow;
    mstch::map row{{"label", text(b.label, 60)},       {"y", std::to_string(y)},
                   {"text_y", std::to_string(y + 14)}, {"w", std::to_string(std::max(1, x_of(b.value) - kChartBarX))},
                   {"value_text", text(b.value_text)}, {"cls", b.cls}};
    // Right of the bar, or of the ceiling's line when the bar stops short of it.
    for (auto& [k, v] : value_place(std::max(x_of(b.value), b.ceiling ? x_of(*b.ceiling) : 0), b.value_text))
      row[k] = v;
    if (b.ceiling) {
      int cx = x_of(*b.ceiling);
      row["ceiling"] = mstch::map{{"x", std::to_string(cx)},
                                  {"y1", std::to_string(y - 3)},
                                  {"y2", std::to_string(y + 21)},
                                  {"text", number(*b.ceiling)},
                                  {"share", *b.ceiling > 0 ? number(100.0 * b.value / *b.ceiling) + " %" : "—"}};
    }
    desc += fmt::format("{}{}: {}{}", desc.empty() ? "" : "; ", b.label, b.value_text,
                        b.ceiling ? " of " + number(*b.ceiling) : "");
    rows.emplace_back(std::move(row));
    ++i;
  }
  return mstch::map{{"id", id},
                    {"title", text(title)},
                    {"desc", text(desc)},
                    {"label_header", label_header},
                    {"height", std::to_string(20 + i * kChartRow)},
                    {"label_x", std::to_string(kChartLabelX)},
                    {"bar_x", std::to_string(kChartBarX)},
                    {"has_ceiling", has_ceiling},
                    {"ceiling_header", std::string(ceiling.name)},
                    {"share_header", std::string(ceiling.share)},
                    {"bars", rows}};
}

// ---- charts: lines over time, one per series (watch) ----

struct Series {
  std::string label;
  std::vector<std::pair<double, std::optional<double>>> points;  ///< (x, y); nullopt breaks the line
};

constexpr int kPlotLeft = 80;  // "1000 W" at the phone's 16 px is 62 px; with 60 it was cut at the left
constexpr int kPlotRight = 620;
constexpr int kPlotTop = 12;
constexpr int kPlotBottom = 172;

/// "45 s", "12 min", "3.5 h": an axis label for seconds since the start.
std::string duration_text(double s) {
  if (s < 120) return number(std::round(s)) + " s";
  if (s < 7200) return number(std::round(s / 6) / 10) + " min";
  return number(std::round(s / 360) / 10) + " h";
}

mstch::map line_chart(const std::string& id, const std::string& title, const std::string& unit, double y_max,
                      double x_max, const std::vector<Series>& series) {
  if (y_max <= 0) y_max = 1;
  if (x_max <= 0) x_max = 1;
  auto x_of = [&](double x) { return kPlotLeft + std::clamp(x / x_max, 0.0, 1.0) * (kPlotRight - kPlotLeft); };
  auto y_of = [&](double y) { return kPlotBottom - std::clamp(y / y_max, 0.0, 1.0) * (kPlotBottom - kPlotTop); };
  mstch::array grid;
  for (int i = 0; i <= 4; ++i) {
    double v = y_max * i / 4;
    int y = static_cast<int>(std::lround(y_of(v)));
    grid.emplace_back(mstch::map{{"x1", std::to_string(kPlotLeft)},
                                 {"x2", std::to_string(kPlotRight)},
                                 {"y", std::to_string(y)},
                                 {"label_x", std::to_string(kPlotLeft - 6)},
                                 {"text_y", std::to_string(y + 4)},
                                 {"label", number(v) + (i == 4 ? " " + unit : "")}});
  }
  mstch::array ticks;
  for (int i = 0; i <= 4; ++i) {
    ticks.emplace_back(mstch::map{{"x", std::to_string(static_cast<int>(std::lround(x_of(x_max * i / 4))))},
                                  {"y", std::to_string(kPlotBottom + 18)},
                                  {"label", duration_text(x_max * i / 4)}});
  }
  mstch::array lines_view;
  std::string desc;
  int n = 0;
  for (const Series& s : series) {
    std::string d;
    bool pen_down = false;
    std::vector<double> ys;
    for (const auto& [x, y] : s.points) {
      if (!y) {
        pen_down = false;
        continue;
      }
      ys.push_back(*y);
      d += fmt::format("{}{:.1f} {:.1f} ", pen_down ? "L" : "M", x_of(x), y_of(*y));
      pen_down = true;
    }
    if (!ys.empty()) {
      auto [lo, hi] = std::minmax_element(ys.begin(), ys.end());
      desc += fmt::format("{}{}: from {} to {} {}", desc.empty() ? "" : "; ", s.label, number(*lo), number(*hi), unit);
    } else {
      desc += fmt::format("{}{}: no readings", desc.empty() ? "" : "; ", s.label);
    }
    lines_view.emplace_back(mstch::map{{"d", d}, {"n", std::to_string(n % 8)}, {"label", text(s.label, 80)}});
    ++n;
  }
  return mstch::map{
      {"id", id},     {"title", text(title)}, {"desc", text(desc)},  {"height", std::to_string(kPlotBottom + 28)},
      {"grid", grid}, {"ticks", ticks},       {"series", lines_view}};
}

// ---- the doctor's verdicts ----

mstch::map finding_view(const Finding& f) {
  mstch::array evidence;
  for (const auto& e : f.evidence) {
    if (!e.empty()) evidence.emplace_back(text(e));
  }
  return mstch::map{{"id", text(f.id, 100)},
                    {"severity", std::string(to_string(f.severity))},
                    {"mark", std::string(severity_mark(f.severity))},
                    {"area", std::string(area_title(f.area))},
                    {"title", text(f.title)},
                    {"detail", text(f.detail)},
                    {"fix", text(f.fix)},
                    {"has_evidence", !evidence.empty()},
                    {"evidence", evidence},
                    {"source", text(f.source)}};
}

mstch::map verdicts_view(const std::vector<Finding>& findings) {
  std::vector<const Finding*> sorted;
  for (const auto& f : findings) sorted.push_back(&f);
  // Problems first, worst first; the report's area order within a severity.
  std::stable_sort(sorted.begin(), sorted.end(), [](const Finding* a, const Finding* b) {
    if (a->severity != b->severity) return a->severity > b->severity;
    return a->area < b->area;
  });
  mstch::array problems;
  mstch::array fine;
  int counts[4] = {0, 0, 0, 0};
  for (const Finding* f : sorted) {
    ++counts[static_cast<int>(f->severity)];
    (f->severity >= Severity::warning ? problems : fine).emplace_back(finding_view(*f));
  }
  std::vector<Bar> bars;
  const std::pair<Severity, const char*> order[] = {{Severity::error, "errors"},
                                                    {Severity::warning, "warnings"},
                                                    {Severity::info, "notes"},
                                                    {Severity::ok, "passed"}};
  for (const auto& [s, name] : order) {
    int n = counts[static_cast<int>(s)];
    bars.push_back(
        {.label = name, .value = static_cast<double>(n), .value_text = std::to_string(n), .cls = to_string(s)});
  }
  Severity w = worst(findings);
  std::string status = w == Severity::error     ? "Problems found"
                       : w == Severity::warning ? "Warnings found"
                                                : "No issues found";
  return mstch::map{{"status", status},
                    {"status_class", std::string(to_string(w))},
                    {"errors", counts[static_cast<int>(Severity::error)]},
                    {"warnings", counts[static_cast<int>(Severity::warning)]},
                    {"problems", problems},
                    {"has_problems", !problems.empty()},
                    {"fine", fine},
                    {"has_fine", !fine.empty()},
                    {"chart", bar_chart("chart-verdicts", "Verdicts by severity", "Severity", bars)}};
}

// ---- the inventory ----

mstch::map inventory_view(const Facts& facts) {
  mstch::array gpus;
  for (const auto& g : facts.gpus) {
    std::string cc = g.cc_major ? fmt::format("{}.{}", *g.cc_major, g.cc_minor.value_or(0)) : "—";
    std::string mem =
        g.memory_total_bytes
            ? fmt::format("{:.1f} GiB", static_cast<double>(*g.memory_total_bytes) / (1024.0 * 1024 * 1024))
            : "—";
    gpus.emplace_back(mstch::map{{"name", or_dash(g.name)},
                                 {"cc", cc},
                                 {"memory", mem},
                                 {"bus", or_dash(g.pci_bus_id)},
                                 {"source", or_dash(g.source)},
                                 {"kernel_driver", or_dash(g.kernel_driver)}});
  }
  mstch::array toolkits;
  for (const auto& t : facts.toolkits) {
    toolkits.emplace_back(mstch::map{{"path", text(t.path)},
                                     {"version", or_dash(t.version)},
                                     {"kind", or_dash(t.kind)},
                                     {"nvcc", std::string(t.has_nvcc ? "yes" : "no")},
                                     {"found_via", text(join(t.found_via, ", "))}});
  }
  mstch::array libs;
  for (const auto& l : facts.libraries) {
    libs.emplace_back(mstch::map{{"name", text(l.name)},
                                 {"version", or_dash(l.version)},
                                 {"origin", or_dash(l.origin)},
                                 {"path", text(l.path)},
                                 {"cuda", l.cuda_major ? std::to_string(*l.cuda_major) : "—"}});
  }
  mstch::array envs;
  for (const auto& e : facts.python_envs) {
    mstch::array fws;
    for (const auto& f : e.frameworks) {
      std::string build = !f.cuda_build ? "unknown" : *f.cuda_build ? "CUDA" : "CPU only";
      fws.emplace_back(mstch::map{{"name", text(f.name)},
                                  {"version", text(f.version.str())},
                                  {"build", build},
                                  {"cuda", or_dash(f.cuda_version)},
                                  {"cudnn", or_dash(f.cudnn_version)},
                                  {"variant", or_dash(f.variant)}});
    }
    envs.emplace_back(mstch::map{{"path", text(e.path)},
                                 {"kind", or_dash(e.kind)},
                                 {"python", or_dash(e.python_version)},
                                 {"frameworks", fws},
                                 {"has_frameworks", !fws.empty()}});
  }
  mstch::array vars;
  for (const auto& v : facts.env) vars.emplace_back(mstch::map{{"name", text(v.name)}, {"value", text(v.value)}});
  const DriverFacts& d = facts.driver;
  std::string os = facts.os.name.empty() ? std::string(to_string(facts.platform)) : text(facts.os.name);
  return mstch::map{{"os", os},
                    {"kernel", or_dash(facts.os.kernel)},
                    {"platform", std::string(to_string(facts.platform))},
                    {"container", or_dash(facts.os.container)},
                    {"driver", or_dash(d.version)},
                    {"driver_source", or_dash(d.version_source)},
                    {"cuda_driver", or_dash(d.cuda_driver_version)},
                    {"nvml", or_dash(to_string(d.nvml_status))},
                    {"gpus", gpus},
                    {"has_gpus", !gpus.empty()},
                    {"toolkits", toolkits},
                    {"has_toolkits", !toolkits.empty()},
                    {"libraries", libs},
                    {"has_libraries", !libs.empty()},
                    {"envs", envs},
                    {"has_envs", !envs.empty()},
                    {"vars", vars},
                    {"has_vars", !vars.empty()}};
}

// ---- the install plan ----

mstch::map plan_view(const Plan& plan) {
  mstch::array frameworks;
  for (const FrameworkPlan& fp : plan.frameworks) {
    mstch::map v{{"request", text(fp.request.text.empty() ? to_string(fp.request.name) : fp.request.text)}};
    if (fp.best) {
      mstch::array reasons;
      for (const auto& r : fp.best->reasons) reasons.emplace_back(text(r));
      mstch::array issues;
      for (const auto& i : fp.best->issues)
        issues.emplace_back(mstch::map{{"message", text(i.message)}, {"fatal", i.fatal}});
      v["best"] = mstch::map{{"summary", text(fp.best->summary())},
                             {"install", text(fp.best->install_spec)},
                             {"verified", fp.best->verified() && !fp.best->needs_driver_update()},
                             {"driver_update", fp.best->needs_driver_update()},
                             {"reasons", reasons},
                             {"issues", issues}};
    }
    mstch::array notes;
    for (const auto& n : fp.notes) notes.emplace_back(text(n));
    v["notes"] = notes;
    frameworks.emplace_back(std::move(v));
  }
  mstch::array steps;
  for (const PlanStep& s : plan_steps(plan)) {
    mstch::array commands;
    for (const PlanCommand& c : s.commands) {
      commands.emplace_back(
          mstch::map{{"line", text(c.line)}, {"manual", c.manual}, {"shell", std::string(to_string(c.shell))}});
    }
    steps.emplace_back(mstch::map{{"title", text(s.title)}, {"detail", text(s.detail)}, {"commands", commands}});
  }
  mstch::array notes;
  for (const auto& n : plan.notes) notes.emplace_back(text(n.message));
  return mstch::map{{"gpu", or_dash(plan.gpu_model)},        {"frameworks", frameworks},
                    {"has_frameworks", !frameworks.empty()}, {"steps", steps},
                    {"has_steps", !steps.empty()},           {"notes", notes}};
}

// ---- other commands' JSON (docs/html-report.md names the keys read) ----

// ---- watch: a recorded `watch --jsonl` log (monitor/watch_summary) ----

/// A bound on the y axis that reads well: 1, 2 or 5 times a power of ten, at least `v`.
double round_up(double v) {
  if (v <= 0) return 1;
  double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= v) return m * p;
  }
  return 10 * p;
}

std::string opt_number(const std::optional<double>& v, const char* unit) {
  return v ? number(*v) + unit : "—";
}

mstch::map watch_view(const WatchSummary& w) {
  const double span_s = static_cast<double>(w.end_ms - w.start_ms) / 1000.0;
  auto gpu_label = [](const WatchGpuSummary& g) {
    return "GPU " + std::to_string(g.index) + (g.name.empty() ? "" : " (" + g.name + ")");
  };
  // One chart per reading, one line per GPU.
  struct Metric {
    const char* id;
    const char* title;
    const char* unit;
    std::optional<double> WatchPoint::*field;
  };
  const Metric metrics[] = {{"util", "GPU utilisation", "%", &WatchPoint::util_percent},
                            {"memory", "Memory used", "GiB", &WatchPoint::memory_used_gib},
                            {"temperature", "Temperature", "°C", &WatchPoint::temperature_c},
                            {"power", "Power draw", "W", &WatchPoint::power_w}};
  mstch::array charts;
  for (const Metric& m : metrics) {
    std::vector<Series> series;
    double y_max = 0;
    bool any = false;
    for (const auto& g : w.gpus) {
      Series s{.label = gpu_label(g)};
      for (const auto& p : g.points) {
        s.points.emplace_back(p.t_s, p.*m.field);
        if (p.*m.field) {
          any = true;
          y_max = std::max(y_max, *(p.*m.field));
        }
      }
      series.push_back(std::move(s));
    }
    if (!any) continue;
    if (m.field == &WatchPoint::util_percent) y_max = 100;
    for (const auto& g : w.gpus) {
      // The chart's scale shows the headroom: the card's memory and power limit.
      if (m.field == &WatchPoint::memory_used_gib && g.memory_total_gib) y_max = std::max(y_max, *g.memory_total_gib);
      if (m.field == &WatchPoint::power_w && g.power_limit_w) y_max = std::max(y_max, *g.power_limit_w);
    }
    charts.emplace_back(
        line_chart(std::string("chart-watch-") + m.id, m.title, m.unit, round_up(y_max), span_s, series));
  }
  mstch::array gpus;
  for (const auto& g : w.gpus) {
    std::string throttled = "never";
    if (g.throttled_samples > 0) {
      throttled =
          fmt::format("{} % of samples ({})", number(100.0 * g.throttled_samples / std::max<size_t>(1, g.samples)),
                      throttle_reason_names(g.throttle_reasons_seen));
    }
    std::string memory = opt_number(g.memory_max_gib, " GiB");
    if (g.memory_total_gib) memory += " of " + number(*g.memory_total_gib) + " GiB";
    std::string power = opt_number(g.power_median_w, " W");
    if (g.power_limit_w) power += " (" + number(*g.power_limit_w) + " W)";
    gpus.emplace_back(
        mstch::map{{"label", text(gpu_label(g), 120)},
                   {"samples", std::to_string(g.samples)},
                   {"util", opt_number(g.util_median_percent, " %") + " / " + opt_number(g.util_max_percent, " %")},
                   {"memory", memory},
                   {"temperature", opt_number(g.temperature_max_c, " °C")},
                   {"power", power},
                   {"throttled", throttled}});
  }
  mstch::array diagnoses;
  for (const auto& d : w.diagnoses) {
    mstch::map v = finding_view(d.finding);
    v["samples"] = std::to_string(d.samples);
    v["first"] = duration_text(d.first_t_s);
    diagnoses.emplace_back(std::move(v));
  }
  mstch::array problems;
  if (w.samples_not_ok > 0)
    problems.emplace_back(
        fmt::format("In {} of {} samples the GPU query failed (no readings).", w.samples_not_ok, w.samples));
  if (w.unreadable_lines > 0)
    problems.emplace_back(
        fmt::format("{} line(s) of the log were not watch samples, or held readings no GPU reports, and were skipped.",
                    w.unreadable_lines));
  if (!w.left_out.empty()) problems.emplace_back(text("Not read: " + w.left_out + "."));
  if (w.samples == 0) problems.emplace_back(std::string("The log holds no sample."));
  return mstch::map{{"samples", std::to_string(w.samples)},
                    {"duration", duration_text(span_s)},
                    {"start", w.samples > 0 ? utc_timestamp(w.start_ms / 1000) : std::string("—")},
                    {"problems", problems},
                    {"has_diagnoses", !diagnoses.empty()},
                    {"diagnoses", diagnoses},
                    {"charts", charts},
                    {"gpus", gpus}};
}

// ---- bench and verify: their reports (model/bench_report.hpp, model/verify_report.hpp) ----

/// "GFLOP/s" for the unit a bench key ends in.
std::string unit_text(const std::string& unit) {
  static const std::map<std::string, std::string> names = {
      {"gflops", "GFLOP/s"}, {"tflops", "TFLOP/s"}, {"gbps", "GB/s"}, {"images_per_s", "images/s"},
      {"ratio", "×"},        {"us", "µs"},          {"ms", "ms"}};
  auto it = names.find(unit);
  return it != names.end() ? it->second : unit;
}

/// "CPU", "GPU 0 (NVIDIA H200)", or the key's first part as it is ("tensorflow").
std::string bench_group_title(const std::string& first, const BenchReport& r) {
  if (first == "cpu") return r.cpu_model.empty() ? "CPU" : "CPU (" + r.cpu_model + ")";
  if (first.size() > 3 && first.starts_with("gpu") &&
      std::all_of(first.begin() + 3, first.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    size_t i = std::stoul(first.substr(3));
    std::string title = "GPU " + first.substr(3);
    if (i < r.gpu_names.size() && !r.gpu_names[i].empty()) title += " (" + r.gpu_names[i] + ")";
    return title;
  }
  return first;
}

/// The GPUs' links as `nvidia-smi topo -m` prints them: a cell per pair, the link and NVML's P2P
/// read status, with what a copy over it allows.
mstch::map topology_view(const BenchTopology& t) {
  const size_t n = t.links.size();
  mstch::array header;
  for (size_t j = 0; j < n; ++j) header.emplace_back(mstch::map{{"name", "GPU" + std::to_string(j)}});
  mstch::array rows;
  for (size_t i = 0; i < n; ++i) {
    mstch::array cells;
    for (size_t j = 0; j < n; ++j) {
      auto at = [&](const std::vector<std::vector<std::string>>& m) {
        return i < m.size() && j < m[i].size() ? m[i][j] : std::string("?");
      };
      std::string cell = at(t.links);
      if (i != j) {
        cell += " · P2P " + at(t.p2p_read);
        if (i < t.link_gbps.size() && j < t.link_gbps[i].size() && t.link_gbps[i][j] > 0)
          cell += " · " + number(t.link_gbps[i][j]) + " GB/s";
      }
      cells.emplace_back(mstch::map{{"cell", text(cell, 200)}});
    }
    std::string bus = i < t.bus_ids.size() ? " " + t.bus_ids[i] : "";
    rows.emplace_back(mstch::map{{"name", text("GPU" + std::to_string(i) + bus, 80)}, {"cells", cells}});
  }
  return mstch::map{{"header", header}, {"rows", rows}, {"note", text(t.note)}};
}

/// One chart per device (the key's first part) and unit, each figure against its ceiling; the
/// figures that were not measured, the guides' claims and the change since the last run as tables.
mstch::map bench_view(const BenchReport& r) {
  std::vector<std::pair<std::string, std::vector<Bar>>> groups;
  mstch::array unmeasured;
  for (const BenchMeasurement& m : r.measurements) {
    if (!m.ok()) {
      unmeasured.emplace_back(mstch::map{{"key", text(m.json_key())},
                                         {"status", text(to_string(m.status))},
                                         {"cls", m.status == BenchStatus::skipped ? "info" : "error"},
                                         {"detail", text(m.detail)}});
      continue;
    }
    size_t dot = m.key.find('.');
    std::string first = m.key.substr(0, dot);
    std::string group = bench_group_title(first, r) + " · " + unit_text(m.unit);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == group; });
    if (it == groups.end()) it = groups.insert(groups.end(), {group, {}});
    it->second.push_back({.label = dot == std::string::npos ? m.key : m.key.substr(dot + 1),
                          .value = *m.value,
                          .ceiling = m.ceiling,
                          .value_text = number(*m.value) + " " + unit_text(m.unit),
                          .cls = m.check.empty() || m.check_passed ? "" : "error"});
  }
  mstch::array charts;
  int i = 0;
  for (const auto& [group, bars] : groups) {
    charts.emplace_back(bar_chart(fmt::format("chart-bench-{}", i++), group, "Measurement", bars));
  }
  mstch::array claims;
  for (const BenchClaim& c : r.claims) {
    claims.emplace_back(mstch::map{{"what", text(c.what)},
                                   {"guide", text(c.guide)},
                                   {"measured", c.ratio ? number(*c.ratio) + "×" : std::string("—")},
                                   {"basis", text(c.basis)}});
  }
  mstch::array changes;
  for (const BenchChange& c : r.changes) {
    changes.emplace_back(mstch::map{
        {"key", text(c.key)},
        {"previous", number(c.previous)},
        {"current", c.verdict == "not measured" ? std::string("—") : number(c.current)},
        {"change", c.verdict == "not measured" ? text(c.detail)
                                               : fmt::format("{:+.1f} % (noise {:.1f} %)", c.change_pct, c.noise_pct)},
        {"verdict", text(c.verdict)},
        {"cls", is_regression(c) ? "error" : ""}});
  }
  mstch::array notes;
  for (const auto& n : r.notes) notes.emplace_back(text(n));
  mstch::array problems;
  for (const auto& p : r.problems) problems.emplace_back(text(p));
  mstch::map v{{"charts", charts},
               {"run", text(fmt::format("{} run on {} at {}", r.mode.empty() ? "a" : r.mode,
                                        r.host.empty() ? "an unnamed host" : r.host,
                                        r.started_utc.empty() ? "an unknown time" : r.started_utc))},
               {"unmeasured", unmeasured},
               {"has_unmeasured", !unmeasured.empty()},
               {"claims", claims},
               {"has_claims", !claims.empty()},
               {"changes", changes},
               {"has_changes", !changes.empty()},
               {"compared_with", text(r.compared_with_utc)},
               {"notes", notes},
               {"problems", problems}};
  if (r.topology && !r.topology->links.empty()) v["topology"] = topology_view(*r.topology);
  return v;
}

/// verify: the steps as a table, and a chart of the seconds each took.
mstch::map verify_view(const VerifyReport& r) {
  mstch::array steps;
  std::vector<Bar> bars;
  for (const VerifyStep& s : r.steps) {
    std::string cls = s.status == StepStatus::passed ? "ok" : s.status == StepStatus::skipped ? "info" : "error";
    std::string name = s.name + (s.device ? " (GPU " + std::to_string(*s.device) + ")" : "");
    double seconds = static_cast<double>(s.elapsed_ms) / 1000.0;
    std::string detail = s.detail;
    for (const auto& n : s.notes) detail += (detail.empty() ? "" : "\n") + n;
    steps.emplace_back(mstch::map{{"name", text(name)},
                                  {"status", text(to_string(s.status))},
                                  {"cls", cls},
                                  {"seconds", number(seconds)},
                                  {"detail", text(detail)}});
    bars.push_back({.label = name, .value = seconds, .value_text = number(seconds) + " s", .cls = cls});
  }
  mstch::array problems;
  for (const auto& p : r.problems) problems.emplace_back(text(p));
  mstch::map v{{"steps", steps},
               {"passed", verify_passed(r)},
               {"libs_from", text(r.libs_from)},
               {"problems", problems},
               {"has_chart", !bars.empty()}};
  if (!bars.empty()) v["chart"] = bar_chart("chart-verify", "Time per verify step", "Step", bars);
  return v;
}

/// A node's verify or bench run as one table cell: its status, and why when it did not pass.
mstch::map run_cell(const FleetRun& run) {
  if (!run.ran) return mstch::map{{"text", std::string("—")}, {"cls", std::string()}};
  std::string cell = text(to_string(run.status), 40);
  if (!run.detail.empty() && run.status != FleetRunStatus::passed) cell += ": " + text(run.detail, 400);
  return mstch::map{{"text", cell}, {"cls", std::string(run.status == FleetRunStatus::passed ? "ok" : "error")}};
}

std::string node_list_text(const std::vector<std::string>& nodes) {
  return text(join(nodes, ", "), 4000);
}

/// The most bars of one per-node chart; a bigger fleet is shown by its tables alone.
constexpr size_t kMaxNodeBars = 64;

/// fleet: `gpudoctor fleet --json` read back (model/json_codec's fleet_report_from_json): who did
/// not report, the outliers, the groups and what differs, every node's verify, bench and NCCL
/// part, the fleet's bench figures (median, MAD) and all-reduce, GPU memory health, findings.
mstch::map fleet_view(const FleetReport& r) {
  mstch::array groups;
  std::vector<Bar> bars;
  mstch::array header;
  std::map<std::string, std::string> group_of;
  for (const FleetGroup& g : r.groups) {
    groups.emplace_back(mstch::map{{"id", text(g.id, 100)},
                                   {"nodes", node_list_text(g.nodes)},
                                   {"count", std::to_string(g.nodes.size())},
                                   {"outlier", g.outlier}});
    bars.push_back({.label = "group " + g.id,
                    .value = static_cast<double>(g.nodes.size()),
                    .value_text = std::to_string(g.nodes.size()) + (g.nodes.size() == 1 ? " node" : " nodes"),
                    .cls = g.outlier ? "outlier" : "ok"});
    header.emplace_back(mstch::map{{"id", text(g.id, 100)}});
    for (const auto& n : g.nodes) group_of.try_emplace(n, g.id);
  }
  mstch::array diffs;
  for (const FleetDifference& d : r.differences) {
    mstch::array values;
    for (const auto& v : d.values) values.emplace_back(mstch::map{{"value", text(v)}});
    diffs.emplace_back(mstch::map{{"key", text(d.key)}, {"values", values}});
  }
  mstch::array outliers;
  for (const FleetOutlier& o : r.outliers)
    outliers.emplace_back(mstch::map{{"node", text(o.node, 200)}, {"reason", text(o.reason)}});
  mstch::array missing;
  mstch::array nodes;
  mstch::array memory;
  bool any_verify = false;
  bool any_bench = false;
  bool any_nccl = false;
  size_t reported = 0;
  for (const FleetNode& n : r.nodes) {
    if (n.status == NodeStatus::ok) ++reported;
    if (n.status != NodeStatus::ok) {
      missing.emplace_back(mstch::map{{"node", text(n.name, 200)},
                                      {"rank", std::to_string(n.rank)},
                                      {"status", text(to_string(n.status), 40)},
                                      {"reason", text(n.error)}});
    }
    int errors = 0;
    int warnings = 0;
    for (const Finding& f : n.findings) {
      errors += f.severity == Severity::error;
      warnings += f.severity == Severity::warning;
    }
    any_verify = any_verify || n.verify.ran;
    any_bench = any_bench || n.bench.ran;
    any_nccl = any_nccl || n.nccl.ran;
    std::string nccl = "—";
    if (n.nccl.ran) {
      nccl = text(to_string(n.nccl.status), 40);
      if (n.nccl.status == FleetRunStatus::passed) nccl += ", " + number(n.nccl.busbw_gbps) + " GB/s";
      if (!n.nccl.transport.empty()) nccl += ", " + text(n.nccl.transport, 80);
      if (n.nccl.status != FleetRunStatus::passed && !n.nccl.detail.empty()) nccl += ": " + text(n.nccl.detail, 400);
    }
    auto group = group_of.find(n.name);
    nodes.emplace_back(
        mstch::map{{"node", text(n.name, 200)},
                   {"status", text(to_string(n.status), 40)},
                   {"cls", std::string(n.status == NodeStatus::ok ? (errors > 0 ? "error" : "") : "error")},
                   {"group", group == group_of.end() ? std::string("—") : text(group->second, 100)},
                   {"errors", std::to_string(errors)},
                   {"warnings", std::to_string(warnings)},
                   {"verify", run_cell(n.verify)},
                   {"bench", run_cell(n.bench)},
                   {"nccl", nccl},
                   {"nccl_cls", std::string(!n.nccl.ran                               ? ""
                                            : n.nccl.status == FleetRunStatus::passed ? "ok"
                                                                                      : "error")}});
    for (size_t i = 0; i < n.facts.gpus.size(); ++i) {
      const GpuFacts& g = n.facts.gpus[i];
      if (!g.ecc_uncorrected_volatile && !g.retired_pages) continue;
      bool bad = g.ecc_uncorrected_volatile.value_or(0) > 0 || g.retired_pages.value_or(0) > 0;
      memory.emplace_back(
          mstch::map{{"node", text(n.name, 200)},
                     {"gpu", std::to_string(i)},
                     {"name", or_dash(g.name)},
                     {"ecc", g.ecc_uncorrected_volatile ? std::to_string(*g.ecc_uncorrected_volatile) : "—"},
                     {"retired", g.retired_pages ? std::to_string(*g.retired_pages) : "—"},
                     {"cls", std::string(bad ? "error" : "ok")}});
    }
  }
  // The fleet's bench figures, and for each one every node's value against the median.
  mstch::array figures;
  mstch::array figure_charts;
  int chart = 0;
  for (const FleetBenchFigure& b : r.bench) {
    std::set<std::string> far;  // nodes named for this figure among the outliers
    for (const FleetOutlier& o : r.outliers) {
      if (o.reason.starts_with("bench " + b.key + " ")) far.insert(o.node);
    }
    figures.emplace_back(
        mstch::map{{"key", text(b.key, 120)},
                   {"nodes", std::to_string(b.nodes)},
                   {"median", number(b.median)},
                   {"mad", number(b.mad)},
                   {"min", number(b.min)},
                   {"max", number(b.max)},
                   {"outliers", far.empty() ? std::string("none") : node_list_text({far.begin(), far.end()})},
                   {"cls", std::string(far.empty() ? "" : "outlier")}});
    std::vector<Bar> values;
    for (const FleetNode& n : r.nodes) {
      for (const auto& [key, value] : n.bench.figures) {
        if (key != b.key) continue;
        values.push_back({.label = n.name,
                          .value = value,
                          .ceiling = b.median,
                          .value_text = number(value),
                          .cls = far.count(n.name) ? "outlier" : "ok"});
      }
    }
    if (!values.empty() && values.size() <= kMaxNodeBars)
      figure_charts.emplace_back(bar_chart(fmt::format("chart-fleet-bench-{}", chart++),
                                           b.key + " on each node (the line: the fleet's median)", "Node", values,
                                           {.name = "Fleet median", .share = "Share of the median"}));
  }
  mstch::map v{{"groups", groups},
               {"header", header},
               {"differences", diffs},
               {"has_differences", !diffs.empty()},
               {"outliers", outliers},
               {"has_outliers", !outliers.empty()},
               {"missing", missing},
               {"has_missing", !missing.empty()},
               {"node_count", std::to_string(r.nodes.size())},
               {"reported", std::to_string(reported)},
               {"source", std::string(r.source == FleetSource::serve ? "serve endpoint(s)" : "MPI rank(s)")},
               {"ranks", std::to_string(r.ranks)},
               {"incomplete", text(r.incomplete)},
               {"is_incomplete", !r.incomplete.empty()},
               {"nodes", nodes},
               {"any_verify", any_verify},
               {"any_bench", any_bench},
               {"any_nccl", any_nccl},
               {"bench_figures", figures},
               {"has_bench_figures", !figures.empty()},
               {"bench_charts", figure_charts},
               {"memory", memory},
               {"has_memory", !memory.empty()}};
  if (!bars.empty()) v["chart"] = bar_chart("chart-fleet", "Nodes per fingerprint group", "Group", bars);
  mstch::array findings;
  for (const FleetFinding& f : r.findings) {
    findings.emplace_back(mstch::map{{"severity", std::string(to_string(f.severity))},
                                     {"mark", std::string(severity_mark(f.severity))},
                                     {"title", text(f.title)},
                                     {"fix", text(f.fix)},
                                     {"nodes", node_list_text(f.nodes)},
                                     {"count", std::to_string(f.nodes.size())}});
  }
  v["findings"] = findings;
  v["has_findings"] = !findings.empty();
  if (r.nccl.ran) {
    const FleetNccl& n = r.nccl;
    std::vector<Bar> busbw;
    for (const FleetNode& node : r.nodes) {
      if (node.nccl.ran && node.nccl.status == FleetRunStatus::passed)
        busbw.push_back({.label = node.name,
                         .value = node.nccl.busbw_gbps,
                         .value_text = number(node.nccl.busbw_gbps) + " GB/s",
                         .cls = node.name == n.slowest_node ? "warning" : "ok"});
    }
    mstch::map nccl{{"status", text(to_string(n.status), 40)},
                    {"cls", std::string(n.status == FleetRunStatus::passed ? "ok" : "error")},
                    {"detail", text(n.detail)},
                    {"gpus", std::to_string(n.gpus)},
                    {"mib", number(static_cast<double>(n.bytes) / (1024.0 * 1024))},
                    {"busbw", number(n.busbw_gbps)},
                    {"slowest_node", or_dash(n.slowest_node)},
                    {"slowest_transport", or_dash(n.slowest_transport)},
                    {"slowest_transport_nodes",
                     n.slowest_transport_nodes.empty() ? std::string("—") : node_list_text(n.slowest_transport_nodes)}};
    if (!n.network_detail.empty()) nccl["network"] = text(n.network_detail);
    if (!busbw.empty() && busbw.size() <= kMaxNodeBars)
      nccl["chart"] = bar_chart("chart-fleet-nccl", "NCCL bus bandwidth per node (GB/s)", "Node", busbw);
    v["nccl"] = nccl;
  }
  return v;
}

}  // namespace

std::string render_doctor_html(const HtmlReportInput& in) {
  std::map<std::string, std::string> partials;
  std::string page;
  for (const TemplateFile& t : html_templates()) {
    std::string name(t.path.substr(0, t.path.rfind('.')));
    if (name == "report")
      page = std::string(t.content);
    else
      partials[name] = std::string(t.content);
  }
  const Facts& facts = in.facts;
  mstch::map view{{"version", text(build_info().version)},
                  {"subject", facts.live ? std::string("this machine") : "the tree " + text(facts.root)},
                  {"verdicts", verdicts_view(in.findings)},
                  {"inventory", inventory_view(facts)}};
  mstch::array sections;  // the table of contents, in page order
  auto section = [&](const char* id, const char* title) {
    sections.emplace_back(mstch::map{{"id", std::string(id)}, {"title", std::string(title)}});
  };
  section("verdicts", "Verdicts");
  if (in.bench != nullptr) {
    view["bench"] = bench_view(*in.bench);
    section("bench", "Benchmarks");
  }
  if (in.verify != nullptr) {
    view["verify"] = verify_view(*in.verify);
    section("verify", "Verification");
  }
  if (in.watch != nullptr) {
    view["watch"] = watch_view(*in.watch);
    section("watch", "GPU activity");
  }
  if (in.fleet != nullptr) {
    view["fleet"] = fleet_view(*in.fleet);
    section("fleet", "Fleet");
  }
  section("inventory", "Inventory");
  if (in.plan != nullptr) {
    view["plan"] = plan_view(*in.plan);
    section("plan", "Install plan");
  }
  view["sections"] = sections;
  return mstch::render(page, view, partials);
}

}  // namespace gpudoctor
