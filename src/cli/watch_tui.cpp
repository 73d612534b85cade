#include "cli/watch_tui.hpp"

#include <fmt/core.h>
#include <ncursesw/curses.h>

#include <clocale>
#include <cstdio>
#include <cstdlib>

#include "render/monitor_render.hpp"

namespace gpudoctor {
namespace {

template <class T>
std::string or_na(const std::optional<T>& v, const char* format) {
  return v ? fmt::format(fmt::runtime(format), *v) : std::string("n/a");
}

/// `text` cut after `cells` characters (UTF-8 sequences kept whole; all of ours are one cell).
std::string fit(const std::string& text, int cells) {
  int n = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte & 0xC0U) != 0x80U && n++ == cells) return text.substr(0, i);
  }
  return text;
}

/// One line at row y, cut at the screen's width so that nothing wraps into the next row.
void line(int& y, const std::string& text, int attributes = 0) {
  if (y >= LINES) return;
  attron(attributes);
  mvaddstr(y, 0, fit(text, COLS - 1).c_str());
  clrtoeol();
  attroff(attributes);
  ++y;
}

void draw(const monitor::Sampler& sampler) {
  erase();
  const auto& history = sampler.history();
  if (history.empty()) {
    refresh();
    return;
  }
  const Snapshot& s = *history.back();
  int y = 0;
  line(y,
       fmt::format("gpudoctor watch  driver {}  host cpu {}  mem {} GiB free   (q quits)",
                   s.driver_version.empty() ? "n/a" : s.driver_version, or_na(s.host.cpu_percent, "{:.0f}%"),
                   s.host.memory_available_bytes
                       ? fmt::format("{:.1f}", static_cast<double>(*s.host.memory_available_bytes) / kGiB)
                       : "n/a"),
       A_BOLD);
  if (s.status != LibraryStatus::ok) line(y, "GPUs not read: " + s.error + " (" + to_string(s.status) + ")", A_BOLD);
  const size_t width = static_cast<size_t>(std::max(10, COLS - 12));
  for (const auto& g : s.gpus) {
    ++y;
    line(y,
         fmt::format("GPU {} {}  util {}  mem {:.1f}/{:.1f} GiB  {}  power {}/{}  sm {}  throttle {}", g.index,
                     g.name.empty() ? "n/a" : g.name, or_na(g.gpu_util_percent, "{}%"),
                     static_cast<double>(g.memory_used_bytes.value_or(0)) / kGiB,
                     static_cast<double>(g.memory_total_bytes.value_or(0)) / kGiB, or_na(g.temperature_c, "{}°C"),
                     or_na(g.power_w, "{:.0f}W"), or_na(g.power_limit_w, "{:.0f}W"), or_na(g.sm_clock_mhz, "{}MHz"),
                     g.throttle_reasons ? throttle_reason_names(*g.throttle_reasons) : std::string("n/a")),
         A_BOLD);
    std::vector<std::optional<double>> util;
    std::vector<std::optional<double>> memory;
    for (const auto& past : history) {
      std::optional<double> u;
      std::optional<double> m;
      for (const auto& pg : past->gpus) {
        if (pg.index != g.index) continue;
        if (pg.gpu_util_percent) u = *pg.gpu_util_percent;
        if (pg.memory_used_bytes) m = static_cast<double>(*pg.memory_used_bytes);
      }
      util.push_back(u);
      memory.push_back(m);
    }
    line(y, "  util  " + sparkline(util, 100, width));
    line(y, "  mem   " + sparkline(memory, static_cast<double>(g.memory_total_bytes.value_or(0)), width));
  }
  ++y;
  line(y, fmt::format("{:>4} {:>8} {:>9} {:>6}  {}", "GPU", "PID", "GPU mem", "CPU", "command"), A_REVERSE);
  for (const auto& g : s.gpus) {
    if (!g.processes) continue;
    for (const auto& p : *g.processes) {
      line(y, fmt::format("{:>4} {:>8} {:>9} {:>6}  {}", g.index, p.pid,
                          p.used_memory_bytes ? fmt::format("{:.1f}G", static_cast<double>(*p.used_memory_bytes) / kGiB)
                                              : "n/a",
                          or_na(p.cpu_percent, "{:.0f}%"), p.command.empty() ? "?" : p.command));
    }
  }
  if (!s.diagnoses.empty()) ++y;
  for (const auto& d : s.diagnoses) {
    line(y,
         std::string(d.severity == Severity::error     ? "✗ "
                     : d.severity == Severity::warning ? "! "
                                                       : "· ") +
             d.title,
         d.severity == Severity::info ? 0 : A_BOLD);
  }
  refresh();
}

}  // namespace

bool run_watch_tui(monitor::Sampler& sampler, std::chrono::steady_clock::duration interval) {
  std::setlocale(LC_ALL, "");
  // newterm, not initscr: a terminal it cannot drive is a plain-text fallback, not an exit.
  SCREEN* screen = newterm(nullptr, stdout, stdin);
  if (screen == nullptr) return false;
  cbreak();
  noecho();
  curs_set(0);
  keypad(stdscr, TRUE);
  auto next = std::chrono::steady_clock::now();
  bool quit = false;
  while (!quit) {
    if (std::chrono::steady_clock::now() >= next) {
      sampler.sample();
      next = std::chrono::steady_clock::now() + interval;
      draw(sampler);
    }
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - std::chrono::steady_clock::now());
    timeout(static_cast<int>(std::clamp<long long>(wait.count(), 10, 1000)));
    int key = getch();
    if (key == 'q' || key == 'Q') quit = true;
    if (key == KEY_RESIZE) draw(sampler);  // ncurses has the new size already
  }
  endwin();
  delscreen(screen);
  return true;
}

}  // namespace gpudoctor
