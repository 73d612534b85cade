// watch's plain text and its CSV and JSONL logs.
#include <fmt/core.h>

#include <algorithm>
#include <ctime>
#include <nlohmann/json.hpp>

#include "core/timestamp.hpp"
#include "model/json_codec.hpp"
#include "render/monitor_render.hpp"

namespace gpudoctor {
namespace {

std::string utc_time(std::int64_t time_ms) {
  return utc_timestamp(time_ms / 1000);
}

/// With milliseconds ("2026-12-06T03:35:35.123Z"): samples taken every half second differ.
std::string utc_time_ms(std::int64_t time_ms) {
  std::string t = utc_timestamp(time_ms / 1000);
  const auto ms = ((time_ms % 1000) + 1000) % 1000;
  if (!t.empty() && t.back() == 'Z') t.insert(t.size() - 1, fmt::format(".{:03d}", ms));
  return t;
}

template <class T>
std::string or_na(const std::optional<T>& v, const char* format) {
  return v ? fmt::format(fmt::runtime(format), *v) : std::string("n/a");
}

std::string gib(const std::optional<std::uint64_t>& v) {
  return v ? fmt::format("{:.1f}", static_cast<double>(*v) / kGiB) : std::string("n/a");
}

const char* mark(Severity s) {
  switch (s) {
    case Severity::error:
      return "✗";
    case Severity::warning:
      return "!";
    default:
      return "·";
  }
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

template <class T>
std::string cell(const std::optional<T>& v) {
  if (!v) return {};
  if constexpr (std::is_floating_point_v<T>) {
    return fmt::format("{:.1f}", *v);
  } else {
    return std::to_string(*v);
  }
}

}  // namespace

std::string render_watch_text(const Snapshot& s) {
  std::string out =
      fmt::format("{}  driver {}  host cpu {}  mem {} of {} GiB free\n", utc_time(s.time_ms),
                  s.driver_version.empty() ? "n/a" : s.driver_version, or_na(s.host.cpu_percent, "{:.0f}%"),
                  gib(s.host.memory_available_bytes), gib(s.host.memory_total_bytes));
  if (s.status != LibraryStatus::ok) out += fmt::format("  GPUs not read: {} ({})\n", s.error, to_string(s.status));
  for (const auto& g : s.gpus) {
    out += fmt::format("GPU {}  {}  util {}  mem {} / {} GiB  {}  power {} / {}  sm {}  mem {}  throttle {}\n", g.index,
                       g.name.empty() ? "n/a" : g.name, or_na(g.gpu_util_percent, "{}%"), gib(g.memory_used_bytes),
                       gib(g.memory_total_bytes), or_na(g.temperature_c, "{} °C"), or_na(g.power_w, "{:.0f} W"),
                       or_na(g.power_limit_w, "{:.0f} W"), or_na(g.sm_clock_mhz, "{} MHz"),
                       or_na(g.memory_clock_mhz, "{} MHz"),
                       g.throttle_reasons ? throttle_reason_names(*g.throttle_reasons) : std::string("n/a"));
    // The memory-error counters, when the card reports any (ECC off or not supported: no line).
    if (g.ecc_uncorrected_volatile || g.retired_pages_single_bit || g.retired_pages_double_bit ||
        g.remapped_rows_uncorrectable) {
      out += fmt::format(
          "  ecc: uncorrected {} since the driver loaded  retired pages {} single-bit, {} double-bit  "
          "remapped rows {}{}\n",
          or_na(g.ecc_uncorrected_volatile, "{}"), or_na(g.retired_pages_single_bit, "{}"),
          or_na(g.retired_pages_double_bit, "{}"), or_na(g.remapped_rows_uncorrectable, "{}"),
          g.remapping_pending.value_or(false) ? " (remap pending a reset)" : "");
    }
    if (!g.processes) {
      out += "  processes: n/a\n";
    } else {
      for (const auto& p : *g.processes) {
        out += fmt::format("  PID {:<8} {:>7} GiB  cpu {:>5}  {}\n", p.pid, gib(p.used_memory_bytes),
                           or_na(p.cpu_percent, "{:.0f}%"), p.command.empty() ? "?" : p.command);
      }
    }
    for (const auto& problem : g.problems) out += "  problem: " + problem + "\n";
  }
  for (const auto& d : s.diagnoses) {
    out += fmt::format("{} {} [{}]\n", mark(d.severity), d.title, d.id);
    if (!d.fix.empty()) out += "    fix: " + d.fix + "\n";
  }
  return out;
}

std::string watch_csv_header() {
  return "time,gpu,uuid,name,gpu_util_percent,memory_util_percent,memory_used_bytes,memory_total_bytes,"
         "temperature_c,power_w,power_limit_w,sm_clock_mhz,memory_clock_mhz,throttle_reasons,pcie_tx_kib_per_s,"
         "pcie_rx_kib_per_s,processes,host_cpu_percent,host_memory_available_bytes,status,diagnoses\n";
}

std::string render_watch_csv(const Snapshot& s) {
  std::string diagnoses;
  for (const auto& d : s.diagnoses) {
    if (!diagnoses.empty()) diagnoses += ';';
    diagnoses += d.id;
  }
  const std::string tail = fmt::format(",{},{},{},{}\n", cell(s.host.cpu_percent), cell(s.host.memory_available_bytes),
                                       csv_cell(to_string(s.status)), csv_cell(diagnoses));
  const std::string time = utc_time_ms(s.time_ms);
  if (s.gpus.empty()) return time + ",,,,,,,,,,,,,,,,," + tail.substr(1);
  std::string out;
  for (const auto& g : s.gpus) {
    std::string processes;
    if (g.processes) {
      for (const auto& p : *g.processes) {
        if (!processes.empty()) processes += ';';
        processes += std::to_string(p.pid) + ":" + cell(p.used_memory_bytes);
      }
    }
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", time, g.index, csv_cell(g.uuid),
                       csv_cell(g.name), cell(g.gpu_util_percent), cell(g.memory_util_percent),
                       cell(g.memory_used_bytes), cell(g.memory_total_bytes), cell(g.temperature_c), cell(g.power_w),
                       cell(g.power_limit_w), cell(g.sm_clock_mhz), cell(g.memory_clock_mhz),
                       g.throttle_reasons ? csv_cell(throttle_reason_names(*g.throttle_reasons)) : std::string(),
                       cell(g.pcie_tx_kib_per_s), cell(g.pcie_rx_kib_per_s), csv_cell(processes));
    out += tail;
  }
  return out;
}

std::string render_watch_jsonl(const Snapshot& s) {
  return snapshot_to_json(s).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string sparkline(const std::vector<std::optional<double>>& values, double max, size_t width) {
  static constexpr const char* kBlocks[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  std::string out;
  const size_t first = values.size() > width ? values.size() - width : 0;
  for (size_t i = first; i < values.size(); ++i) {
    if (!values[i] || max <= 0) {
      out += ' ';
      continue;
    }
    double level = std::clamp(*values[i] / max, 0.0, 1.0) * 7.0;
    out += kBlocks[static_cast<size_t>(level + 0.5)];
  }
  return out;
}

}  // namespace gpudoctor
