#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/commands_list.hpp"
#include "cli/output.hpp"
#include "cli/watch_tui.hpp"
#include "model/json_codec.hpp"
#include "monitor/sampler.hpp"
#include "render/monitor_render.hpp"

namespace gpudoctor {
namespace {

struct WatchArgs {
  bool once = false;
  double loop_seconds = 0;  ///< -l N; 0: not given
  long count = 0;           ///< stop after this many samples; 0: run until interrupted
  std::string csv;
  std::string jsonl;
  long deadline_ms = 3000;
};

using FilePtr = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

/// A log file, truncated; nullptr and a message when it cannot be opened.
FilePtr open_log(const std::string& path) {
  FilePtr f(std::fopen(path.c_str(), "w"), &std::fclose);
  if (!f) print_error("gpudoctor watch: cannot write {}: {}\n", path, std::strerror(errno));
  return f;
}

int run_watch(CommandContext& ctx, const WatchArgs& a) {
  if (a.loop_seconds < 0 || a.count < 0 || a.deadline_ms <= 0) {
    return usage_error("watch", "-l, --count and --deadline-ms take positive numbers");
  }
  FilePtr csv(nullptr, &std::fclose);
  FilePtr jsonl(nullptr, &std::fclose);
  if (!a.csv.empty() && !(csv = open_log(a.csv))) return kExitUsage;
  if (!a.jsonl.empty() && !(jsonl = open_log(a.jsonl))) return kExitUsage;
  if (csv) write_output(watch_csv_header(), csv.get());

  monitor::SamplerOptions options;
  options.deadline = std::chrono::milliseconds(a.deadline_ms);
  monitor::Sampler sampler(options);
  // Like nvidia-smi -l: one second unless told; --once and a bare `watch` without a terminal
  // UI take one sample per interval the same way.
  const auto interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(a.loop_seconds > 0 ? a.loop_seconds : 1.0));
  // A bare `watch` on a terminal is the terminal UI; without one, or when it cannot start,
  // plain text every interval.
  if (!a.once && a.loop_seconds == 0 && a.count == 0 && !ctx.options().json && !csv && !jsonl &&
      ::isatty(STDOUT_FILENO) == 1 && ::isatty(STDIN_FILENO) == 1 && run_watch_tui(sampler, interval)) {
    return kExitOk;
  }
  const long limit = a.once ? 1 : a.count;
  auto next = std::chrono::steady_clock::now();
  SnapshotPtr last;
  for (long taken = 0; limit == 0 || taken < limit; ++taken) {
    if (taken > 0) std::this_thread::sleep_until(next);
    next = std::chrono::steady_clock::now() + interval;
    last = sampler.sample();
    if (ctx.options().json) {
      write_output(render_watch_jsonl(*last));
    } else {
      write_output((taken > 0 ? "\n" : "") + render_watch_text(*last));
    }
    if (csv) write_output(render_watch_csv(*last), csv.get());
    if (jsonl) write_output(render_watch_jsonl(*last), jsonl.get());
  }
  return last && !gpus_not_read(*last) ? kExitOk : kExitProblems;
}

}  // namespace

Command watch_command() {
  auto args = std::make_shared<WatchArgs>();
  Command c;
  c.name = "watch";
  c.summary =
      "Live GPU readings (utilisation, memory, temperature, power, clocks, throttling, processes) and "
      "what they mean for the job";
  c.setup = [args](CLI::App& sub) {
    sub.add_flag("--once", args->once, "Take one sample, print it and exit");
    // 0 stands for "not given" inside: refused when given, as a negative number is.
    const CLI::Validator above_zero(
        [](std::string& text) {
          char* end = nullptr;
          const double v = std::strtod(text.c_str(), &end);
          return end != text.c_str() && *end == '\0' && v > 0 ? std::string() : "must be a number above 0";
        },
        "POSITIVE");
    sub.add_option("-l,--loop", args->loop_seconds, "Print a sample every N seconds (like nvidia-smi -l)")
        ->check(above_zero);
    sub.add_option("--count", args->count, "Stop after this many samples")->check(above_zero);
    sub.add_option("--csv", args->csv, "Also write every sample to FILE as CSV (one row per GPU)");
    sub.add_option("--jsonl", args->jsonl, "Also write every sample to FILE as one JSON line");
    sub.add_option("--deadline-ms", args->deadline_ms,
                   "A GPU query slower than this is a GPU that stopped answering (default 3000)");
  };
  c.run = [args](CommandContext& ctx) { return run_watch(ctx, *args); };
  return c;
}

}  // namespace gpudoctor
