// serve's /metrics in the Prometheus text exposition format (0.0.4). The GPU series carry
// dcgm-exporter's names, types, units and labels (its etc/default-counters.csv), so that
// dashboards and alerts written for dcgm-exporter read them unchanged.
#include <fmt/core.h>

#include <cmath>
#include <map>
#include <set>

#include "render/monitor_render.hpp"

namespace gpudoctor {
namespace {

std::string escape_label(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

/// A metric family: HELP and TYPE once, then its samples.
class Family {
 public:
  Family(std::string& out, const char* name, const char* type, const char* help) : out_(out), name_(name) {
    header_ = fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  }
  void add(const std::string& labels, double value) {
    if (!header_.empty()) {
      out_ += header_;
      header_.clear();
    }
    out_ += name_;
    if (!labels.empty()) out_ += "{" + labels + "}";
    out_ += fmt::format(" {}\n", value);
  }

 private:
  std::string& out_;
  const char* name_;
  std::string header_;
};

/// dcgm-exporter's labels (camelCase, as its dashboards expect) on DCGM_* series; the
/// Prometheus convention (snake_case) on gpudoctor_* ones. A UUID that could not be read is
/// left out rather than written as "", which would make every such GPU one series.
std::string gpu_labels(const GpuSample& g, const std::string& hostname, bool dcgm) {
  std::string uuid = g.uuid.empty() ? "" : fmt::format(R"({}="{}",)", dcgm ? "UUID" : "uuid", escape_label(g.uuid));
  return fmt::format(fmt::runtime(dcgm ? R"(gpu="{}",{}device="nvidia{}",modelName="{}",Hostname="{}")"
                                       : R"(gpu="{}",{}device="nvidia{}",model_name="{}",hostname="{}")"),
                     g.index, uuid, g.index, escape_label(g.name), escape_label(hostname));
}

/// One gauge or counter per GPU from an optional reading; GPUs without it have no sample, nor
/// has a lost GPU (what NVML still answers for it is not the GPU's state).
template <class Get>
void per_gpu(std::string& out, const Snapshot& s, const std::string& hostname, const char* name, const char* type,
             const char* help, Get get) {
  const bool dcgm = std::string_view(name).starts_with("DCGM_");
  Family f(out, name, type, help);
  for (const auto& g : s.gpus) {
    if (!g.lost.empty()) continue;
    std::optional<double> v = get(g);
    if (v) f.add(gpu_labels(g, hostname, dcgm), *v);
  }
}

template <class T>
std::optional<double> as_double(const std::optional<T>& v) {
  return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}

constexpr double kMiB = 1024.0 * 1024.0;

std::optional<double> kib_to_bytes(const std::optional<std::uint64_t>& kib) {
  return kib ? std::optional<double>(static_cast<double>(*kib) * 1024.0) : std::nullopt;
}

}  // namespace

std::string render_prometheus(const Snapshot* snapshot, const PrometheusContext& c) {
  std::string out;
  const std::string host = "hostname=\"" + escape_label(c.hostname) + "\"";
  if (snapshot != nullptr) {
    const Snapshot& s = *snapshot;
    per_gpu(out, s, c.hostname, "DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz).",
            [](const GpuSample& g) { return as_double(g.sm_clock_mhz); });
    per_gpu(out, s, c.hostname, "DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz).",
            [](const GpuSample& g) { return as_double(g.memory_clock_mhz); });
    per_gpu(out, s, c.hostname, "DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).",
            [](const GpuSample& g) { return as_double(g.temperature_c); });
    per_gpu(out, s, c.hostname, "DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).",
            [](const GpuSample& g) { return g.power_w; });
    per_gpu(out, s, c.hostname, "DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).",
            [](const GpuSample& g) { return as_double(g.gpu_util_percent); });
    per_gpu(out, s, c.hostname, "DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %).",
            [](const GpuSample& g) { return as_double(g.memory_util_percent); });
    per_gpu(out, s, c.hostname, "DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).",
            [](const GpuSample& g) -> std::optional<double> {
              if (!g.memory_used_bytes || !g.memory_total_bytes || *g.memory_used_bytes > *g.memory_total_bytes) {
                return std::nullopt;
              }
              return std::floor(static_cast<double>(*g.memory_total_bytes - *g.memory_used_bytes) / kMiB);
            });
    per_gpu(out, s, c.hostname, "DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).",
            [](const GpuSample& g) -> std::optional<double> {
              if (!g.memory_used_bytes) return std::nullopt;
              return std::ceil(static_cast<double>(*g.memory_used_bytes) / kMiB);
            });
    per_gpu(out, s, c.hostname, "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "counter",
            "Number of remapped rows for uncorrectable errors",
            [](const GpuSample& g) { return as_double(g.remapped_rows_uncorrectable); });
    // What dcgm-exporter has no default name for (or only as a differently defined counter).
    per_gpu(out, s, c.hostname, "gpudoctor_power_limit_watts", "gauge", "Enforced power limit (in W).",
            [](const GpuSample& g) { return g.power_limit_w; });
    per_gpu(out, s, c.hostname, "gpudoctor_clocks_event_reasons", "gauge",
            "NVML clock event (throttle) reason bit mask; 0 = none.",
            [](const GpuSample& g) { return as_double(g.throttle_reasons); });
    per_gpu(out, s, c.hostname, "gpudoctor_pcie_tx_bytes_per_second", "gauge",
            "PCIe transmit throughput over NVML's last 20 ms (in bytes/s).",
            [](const GpuSample& g) { return kib_to_bytes(g.pcie_tx_kib_per_s); });
    per_gpu(out, s, c.hostname, "gpudoctor_pcie_rx_bytes_per_second", "gauge",
            "PCIe receive throughput over NVML's last 20 ms (in bytes/s).",
            [](const GpuSample& g) { return kib_to_bytes(g.pcie_rx_kib_per_s); });
    per_gpu(out, s, c.hostname, "gpudoctor_ecc_uncorrected_volatile_total", "counter",
            "Uncorrected ECC errors since the driver loaded.",
            [](const GpuSample& g) { return as_double(g.ecc_uncorrected_volatile); });
    // dcgm-exporter's names for these are commented out of its default list; ours say "total".
    per_gpu(out, s, c.hostname, "gpudoctor_retired_pages_single_bit_total", "counter",
            "Pages retired for repeated single-bit ECC errors.",
            [](const GpuSample& g) { return as_double(g.retired_pages_single_bit); });
    per_gpu(out, s, c.hostname, "gpudoctor_retired_pages_double_bit_total", "counter",
            "Pages retired for a double-bit ECC error.",
            [](const GpuSample& g) { return as_double(g.retired_pages_double_bit); });
    per_gpu(out, s, c.hostname, "gpudoctor_gpu_processes", "gauge", "Compute processes on the GPU.",
            [](const GpuSample& g) -> std::optional<double> {
              if (!g.processes) return std::nullopt;
              return static_cast<double>(g.processes->size());
            });

    Family gpu_up(out, "gpudoctor_gpu_up", "gauge",
                  "1 while the GPU answers, 0 when NVML says it is lost (fallen off the bus) or needs a reset.");
    for (const auto& g : s.gpus) gpu_up.add(gpu_labels(g, c.hostname, false), g.lost.empty() ? 1 : 0);
    Family up(out, "gpudoctor_gpu_query_up", "gauge",
              "1 when the last GPU query read every GPU, 0 when it failed or a GPU is lost.");
    up.add(host, gpus_not_read(s) ? 0 : 1);
    Family count(out, "gpudoctor_gpus", "gauge", "GPUs the last query saw.");
    count.add(host, static_cast<double>(s.gpus.size()));
    Family age(out, "gpudoctor_sample_timestamp_seconds", "gauge", "When the last sample was taken (Unix time).");
    age.add(host, static_cast<double>(s.time_ms) / 1000.0);
    Family starts(out, "gpudoctor_agent_starts_total", "counter",
                  "GPU agent starts; more than one means it was restarted after a crash or hang.");
    starts.add(host, s.agent_starts);
    std::map<std::pair<std::string, std::string>, int> diagnoses;
    for (const auto& d : s.diagnoses) ++diagnoses[{d.id, to_string(d.severity)}];
    Family diag(out, "gpudoctor_watch_diagnoses", "gauge", "Diagnoses over the recent samples, by id and severity.");
    for (const auto& [key, n] : diagnoses) {
      diag.add(fmt::format(R"({},id="{}",severity="{}")", host, escape_label(key.first), key.second), n);
    }
  }
  if (c.doctor_findings) {
    std::map<std::string, int> by_severity{{"error", 0}, {"warning", 0}, {"info", 0}, {"ok", 0}};
    for (const auto& f : *c.doctor_findings) ++by_severity[to_string(f.severity)];
    Family findings(out, "gpudoctor_doctor_findings", "gauge", "The doctor's findings by severity.");
    for (const auto& [severity, n] : by_severity) {
      findings.add(fmt::format(R"({},severity="{}")", host, severity), n);
    }
    Family problem(out, "gpudoctor_doctor_problem", "gauge", "1 for each warning or error the doctor reports.");
    // One series per id and severity: a check that reports an id twice must not make a
    // duplicate series, which Prometheus rejects.
    std::set<std::pair<std::string, std::string>> problems;
    for (const auto& f : *c.doctor_findings) {
      if (f.severity == Severity::warning || f.severity == Severity::error) {
        problems.insert({f.id, to_string(f.severity)});
      }
    }
    for (const auto& [id, severity] : problems) {
      problem.add(fmt::format(R"({},id="{}",severity="{}")", host, escape_label(id), severity), 1);
    }
    Family when(out, "gpudoctor_doctor_report_timestamp_seconds", "gauge", "When the doctor's report was made.");
    when.add(host, static_cast<double>(c.doctor_time_ms) / 1000.0);
  }
  if (c.samples > 0) {
    Family samples(out, "gpudoctor_samples_total", "counter",
                   "GPU samples taken (one per interval, shared by scrapes).");
    samples.add(host, static_cast<double>(c.samples));
    Family failures(out, "gpudoctor_gpu_query_failures_total", "counter",
                    "GPU samples whose query failed (timed out, crashed, errored) or found a GPU lost: counts a "
                    "hang that was over before a scrape came.");
    failures.add(host, static_cast<double>(c.failed_samples));
  }
  if (c.scrapes > 0) {
    Family scrapes(out, "gpudoctor_scrapes_total", "counter", "Scrapes of /metrics served.");
    scrapes.add(host, static_cast<double>(c.scrapes));
  }
  return out;
}

}  // namespace gpudoctor
