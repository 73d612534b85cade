#pragma once
/// The host's side of a monitor snapshot, read from Linux's /proc: CPU time of the machine and
/// of each GPU process (their rates make the percentages), memory, and a process's command
/// line. The parsers are pure functions of the file's text; the reader takes the /proc folder
/// so tests point it at a fixture. Every reading is bounded (files are read up to 64 KiB) and
/// optional: a process that ended, or a /proc that is not Linux's, gives nullopt.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor::monitor {

struct CpuTicks {
  std::uint64_t busy = 0;
  std::uint64_t total = 0;
};

/// The "cpu " line of /proc/stat: busy = user+nice+system+irq+softirq+steal, total adds idle+iowait.
std::optional<CpuTicks> parse_proc_stat(std::string_view text);
/// Number of "cpuN" lines of /proc/stat.
std::optional<unsigned> parse_cpu_count(std::string_view text);
/// /proc/PID/stat: utime + stime (fields 14 and 15, counted after the ")" that ends the name,
/// which may itself hold spaces and parentheses).
std::optional<std::uint64_t> parse_process_ticks(std::string_view text);
struct MemInfo {
  std::optional<std::uint64_t> total_bytes;
  std::optional<std::uint64_t> available_bytes;
};
MemInfo parse_meminfo(std::string_view text);
/// /proc/PID/cmdline (NUL-separated) as one printable line of at most `max` characters.
std::string parse_cmdline(std::string_view text, size_t max = 200);

class ProcReader {
 public:
  explicit ProcReader(std::string proc_root = "/proc") : root_(std::move(proc_root)) {}
  [[nodiscard]] std::optional<CpuTicks> host_cpu() const;
  [[nodiscard]] std::optional<unsigned> cpu_count() const;
  [[nodiscard]] MemInfo memory() const;
  [[nodiscard]] std::optional<std::uint64_t> process_ticks(unsigned pid) const;
  [[nodiscard]] std::string command_line(unsigned pid) const;
  /// Clock ticks per second (sysconf(_SC_CLK_TCK)).
  [[nodiscard]] static long ticks_per_second();

 private:
  [[nodiscard]] std::optional<std::string> read(const std::string& relative) const;
  std::string root_;
};

}  // namespace gpudoctor::monitor
