#include "monitor/host_readings.hpp"

#ifndef _WIN32
#include <unistd.h>
#endif

#include <charconv>
#include <vector>

#include "core/text.hpp"
#include "platform/host_fs.hpp"

namespace gpudoctor::monitor {
namespace {

constexpr size_t kMaxProcFileBytes = 64 * 1024;

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > b) out.push_back(line.substr(b, i - b));
  }
  return out;
}

std::optional<std::uint64_t> number(std::string_view s) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string_view first_line(std::string_view text) {
  return text.substr(0, text.find('\n'));
}

}  // namespace

std::optional<CpuTicks> parse_proc_stat(std::string_view text) {
  std::string_view line = first_line(text);
  auto f = fields(line);
  if (f.size() < 8 || f[0] != "cpu") return std::nullopt;
  std::uint64_t v[8] = {};
  for (size_t i = 0; i < 8; ++i) {
    auto n = number(f[i + 1]);
    if (!n) return std::nullopt;
    v[i] = *n;
  }
  // user nice system idle iowait irq softirq steal
  CpuTicks t;
  t.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  t.total = t.busy + v[3] + v[4];
  return t;
}

std::optional<unsigned> parse_cpu_count(std::string_view text) {
  unsigned count = 0;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    if (line.size() > 3 && line.starts_with("cpu") && line[3] >= '0' && line[3] <= '9') ++count;
    begin = end + 1;
  }
  if (count == 0) return std::nullopt;
  return count;
}

std::optional<std::uint64_t> parse_process_ticks(std::string_view text) {
  size_t close = text.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  auto f = fields(first_line(text.substr(close + 1)));
  // After the name: state(3) ppid(4) ... utime(14) stime(15) -> indexes 11 and 12 here.
  if (f.size() < 13) return std::nullopt;
  auto utime = number(f[11]);
  auto stime = number(f[12]);
  if (!utime || !stime) return std::nullopt;
  return *utime + *stime;
}

MemInfo parse_meminfo(std::string_view text) {
  MemInfo m;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    auto f = fields(text.substr(begin, end - begin));
    begin = end + 1;
    if (f.size() < 2) continue;
    auto kib = number(f[1]);
    if (!kib || *kib > (UINT64_MAX >> 10U)) continue;
    if (f[0] == "MemTotal:") m.total_bytes = *kib << 10U;
    if (f[0] == "MemAvailable:") m.available_bytes = *kib << 10U;
  }
  return m;
}

std::string parse_cmdline(std::string_view text, size_t max) {
  std::string joined(text.substr(0, max * 4));
  while (!joined.empty() && joined.back() == '\0') joined.pop_back();
  for (char& c : joined) {
    if (c == '\0') c = ' ';
  }
  return printable(joined, max);
}

std::optional<std::string> ProcReader::read(const std::string& relative) const {
  // Not following a link, not blocking on a FIFO; /proc's files report size 0 and are read to
  // their end anyway.
  auto text = host_fs::read(root_ + "/" + relative, kMaxProcFileBytes);
  return text ? std::optional<std::string>(std::move(*text)) : std::nullopt;
}

std::optional<CpuTicks> ProcReader::host_cpu() const {
  auto text = read("stat");
  return text ? parse_proc_stat(*text) : std::nullopt;
}

std::optional<unsigned> ProcReader::cpu_count() const {
  auto text = read("stat");
  return text ? parse_cpu_count(*text) : std::nullopt;
}

MemInfo ProcReader::memory() const {
  auto text = read("meminfo");
  return text ? parse_meminfo(*text) : MemInfo{};
}

std::optional<std::uint64_t> ProcReader::process_ticks(unsigned pid) const {
  auto text = read(std::to_string(pid) + "/stat");
  return text ? parse_process_ticks(*text) : std::nullopt;
}

std::string ProcReader::command_line(unsigned pid) const {
  auto text = read(std::to_string(pid) + "/cmdline");
  return text ? parse_cmdline(*text) : std::string();
}

long ProcReader::ticks_per_second() {
#ifdef _WIN32
  return 100;  // no /proc to read ticks from: never used there
#else
  long t = ::sysconf(_SC_CLK_TCK);
  return t > 0 ? t : 100;
#endif
}

}  // namespace gpudoctor::monitor
