#include "monitor/diagnoses.hpp"

#include <fmt/core.h>

#include <map>
#include <string_view>

namespace gpudoctor::monitor {
namespace {

std::string gpu_label(const GpuSample& g) {
  std::string label = "GPU " + std::to_string(g.index);
  if (!g.name.empty()) label += " (" + g.name + ")";
  return label;
}

Finding make(const char* id, Severity severity, std::string title, std::string detail, std::string fix) {
  Finding f;
  f.id = id;
  f.severity = severity;
  f.area = FindingArea::gpu;
  f.title = std::move(title);
  f.detail = std::move(detail);
  f.fix = std::move(fix);
  return f;
}

/// One GPU's samples in the window, oldest first (found by index, as NVML numbers them).
std::vector<const GpuSample*> series_of(std::span<const SnapshotPtr> window, unsigned index) {
  std::vector<const GpuSample*> out;
  for (const auto& s : window) {
    if (!s) continue;
    for (const auto& g : s->gpus) {
      if (g.index == index) out.push_back(&g);
    }
  }
  return out;
}

void not_answering(const Snapshot& latest, std::vector<Finding>& out) {
  if (latest.status != LibraryStatus::timeout && latest.status != LibraryStatus::crashed) return;
  Finding f = make("watch-gpu-not-answering", Severity::error,
                   "The GPU stopped answering (" + std::string(to_string(latest.status)) + ")",
                   latest.error +
                       ". The GPU agent that asks NVML was stopped and is started again for the next "
                       "sample (" +
                       std::to_string(latest.agent_starts) + " start(s) so far).",
                   "Look for Xid errors in the kernel log (`sudo dmesg | grep -i xid`) and run `nvidia-smi`; if it "
                   "hangs too, the driver is wedged: stop the jobs on the GPU, then reset it (`sudo nvidia-smi -r "
                   "-i N`) or reboot.");
  f.evidence.push_back(std::string("status: ") + to_string(latest.status));
  out.push_back(std::move(f));
}

/// A GPU whose NVML calls answer "lost" or "reset required": the agent answered, the GPU did not.
void gpu_lost(const Snapshot& latest, std::vector<Finding>& out) {
  if (latest.status != LibraryStatus::ok) return;
  for (const auto& g : latest.gpus) {
    if (g.lost.empty()) continue;
    // NVIDIA's Xid catalogue (docs.nvidia.com/deploy/xid-errors): Xid 79 "GPU has fallen off
    // the bus"; its action is a GPU reset or a node reboot, then a hardware check if it recurs.
    const bool off_bus = g.lost == "NVML_ERROR_GPU_IS_LOST";
    Finding f = make("watch-gpu-lost", Severity::error,
                     off_bus ? gpu_label(g) + " has fallen off the bus: NVML cannot reach it"
                             : gpu_label(g) + " needs a reset before it can be used again",
                     "NVML answered " + g.lost + " for this GPU" +
                         (g.pci_bus_id.empty() ? std::string() : " (" + g.pci_bus_id + ")") +
                         ": none of its readings can be trusted, and the jobs on it have failed or will fail. " +
                         (off_bus ? "The kernel log usually has Xid 79 (\"GPU has fallen off the bus\")."
                                  : "The driver keeps it out of use until it is reset."),
                     "Look for Xid 79 in the kernel log (`sudo dmesg | grep -i xid`); stop the jobs on it and reset it "
                     "(`sudo nvidia-smi -r -i " +
                         std::to_string(g.index) +
                         "`) or reboot the node. If it falls off again: reseat the card, check its power cables, "
                         "PCIe slot and temperature, and run NVIDIA's field diagnostics (`dcgmi diag -r 3`).");
    f.evidence.push_back("nvml: " + g.lost);
    out.push_back(std::move(f));
  }
}

void throttling(const std::vector<const GpuSample*>& series, const DiagnosisOptions& o, std::vector<Finding>& out) {
  size_t known = 0;
  size_t thermal = 0;
  size_t power = 0;
  unsigned max_temp = 0;
  for (const GpuSample* g : series) {
    if (!g->throttle_reasons) continue;
    ++known;
    const auto mask = *g->throttle_reasons;
    if ((mask & (throttle::kSwThermalSlowdown | throttle::kHwThermalSlowdown)) != 0) ++thermal;
    if ((mask & (throttle::kSwPowerCap | throttle::kHwPowerBrakeSlowdown)) != 0) ++power;
    if (g->temperature_c) max_temp = std::max(max_temp, *g->temperature_c);
  }
  if (known < o.min_samples) return;
  const GpuSample& last = *series.back();
  if (thermal * 2 > known) {
    Finding f = make("watch-thermal-throttling", Severity::warning, gpu_label(last) + " is slowed down by heat",
                     fmt::format("NVML reported thermal slowdown in {} of the last {} samples{}; the clocks are "
                                 "lowered to cool the card, and the job runs slower.",
                                 thermal, known, max_temp > 0 ? fmt::format(" (up to {} °C)", max_temp) : ""),
                     "Check the airflow and the fans (`nvidia-smi -q -d TEMPERATURE,PERFORMANCE`), clean the "
                     "heatsink, leave room between cards; in a server, check the chassis fan profile.");
    f.evidence.push_back("throttle reasons: " + throttle_reason_names(last.throttle_reasons.value_or(0)));
    out.push_back(std::move(f));
  }
  if (power * 2 > known) {
    std::string limit = last.power_limit_w ? fmt::format(" of {:.0f} W", *last.power_limit_w) : "";
    Finding f = make("watch-power-throttling", Severity::warning, gpu_label(last) + " is held at its power limit",
                     fmt::format("NVML reported power capping in {} of the last {} samples: the card draws its "
                                 "limit{} and lowers its clocks to stay there.",
                                 power, known, limit),
                     "Expected under full load on some cards; when the limit was lowered by hand, see `nvidia-smi "
                     "-q -d POWER` (Enforced vs Default Power Limit) and raise it with `sudo nvidia-smi -pl W`; "
                     "a power brake means the PSU or the server's power management asked the GPU to slow down.");
    f.evidence.push_back("throttle reasons: " + throttle_reason_names(last.throttle_reasons.value_or(0)));
    out.push_back(std::move(f));
  }
}

/// How much a counter rose over the series (0 when unknown at either end).
template <class T>
std::uint64_t rise(const std::vector<const GpuSample*>& series, std::optional<T> GpuSample::*field) {
  const auto& first = series.front()->*field;
  const auto& last = series.back()->*field;
  return first && last && *last > *first ? static_cast<std::uint64_t>(*last - *first) : 0;
}

/// Uncorrected ECC errors and the pages or rows the driver took out of use for them. NVIDIA:
/// NVML's volatile ECC counts restart when the driver loads, the aggregate ones persist (nvml.h,
/// nvmlEccCounterType_t); an uncorrectable error kills the processes that used the memory or may
/// have let them compute on corrupt data (Xid 48, 94 contained, 95 uncontained); a page retired
/// for it (Dynamic Page Retirement, docs.nvidia.com/deploy/dynamic-page-retirement) or a row
/// remapped (A100 and later, docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt) takes effect only
/// after the GPU is reset or the driver reloaded.
void memory_errors(const std::vector<const GpuSample*>& series, std::vector<Finding>& out) {
  const GpuSample& last = *series.back();
  const std::string window = fmt::format("the last {} samples", series.size());
  if (last.ecc_uncorrected_volatile && *last.ecc_uncorrected_volatile > 0) {
    const std::uint64_t fresh = rise(series, &GpuSample::ecc_uncorrected_volatile);
    Finding f =
        make("watch-ecc-uncorrected", Severity::error,
             fmt::format("{} had {} uncorrected ECC error(s) since the driver loaded{}", gpu_label(last),
                         *last.ecc_uncorrected_volatile, fresh > 0 ? fmt::format(", {} in {}", fresh, window) : ""),
             "An uncorrected (double-bit) memory error is data the GPU could not repair: the driver stops the "
             "processes that used that memory (Xid 48, or 94 when it could contain the error; 95 when it could not "
             "and every process on the GPU is affected), and a job that kept running may have computed on corrupt "
             "data. The count is NVML's volatile one (since the driver loaded); the aggregate count (`nvidia-smi -q -d "
             "ECC`) is the card's lifetime.",
             "Restart the jobs that ran on this GPU since the error from their last checkpoint and distrust their "
             "recent results. Look for Xid 48/63/64/94/95 in the kernel log (`sudo dmesg | grep -i xid`), check "
             "`nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER`, then reset the GPU (`sudo nvidia-smi -r -i " +
                 std::to_string(last.index) +
                 "`) or reboot, so that the bad memory is retired or remapped. If errors come back after that, or "
                 "row remapping failed, the card needs service (RMA).");
    f.evidence.push_back(fmt::format("ecc uncorrected volatile: {}", *last.ecc_uncorrected_volatile));
    out.push_back(std::move(f));
  }
  const unsigned retired = last.retired_pages_single_bit.value_or(0) + last.retired_pages_double_bit.value_or(0);
  const unsigned remapped = last.remapped_rows_uncorrectable.value_or(0);
  const bool pending = last.remapping_pending.value_or(false);
  if (retired == 0 && remapped == 0 && !pending) return;
  const std::uint64_t new_retired = rise(series, &GpuSample::retired_pages_single_bit) +
                                    rise(series, &GpuSample::retired_pages_double_bit) +
                                    rise(series, &GpuSample::remapped_rows_uncorrectable);
  // A count that stays where it was is the card's history (the driver already keeps those pages
  // or rows out of use); a new one, or a remap waiting for a reset, needs the reset now.
  const bool act = new_retired > 0 || pending;
  std::string counts = fmt::format(
      "{} page(s) retired ({} for repeated single-bit errors, {} for a double-bit error), {} row(s) remapped "
      "for uncorrectable errors",
      retired, last.retired_pages_single_bit.value_or(0), last.retired_pages_double_bit.value_or(0), remapped);
  Finding f =
      make("watch-memory-retired", act ? Severity::warning : Severity::info,
           act ? fmt::format("{} took memory out of use: {}", gpu_label(last),
                             pending ? std::string("a row remap waits for a GPU reset")
                                     : fmt::format("{} more page(s)/row(s) in {}", new_retired, window))
               : fmt::format("{} has memory taken out of use earlier", gpu_label(last)),
           counts +
               ". The driver retires a page (or, from the A100 on, remaps a row) after memory errors; the change "
               "takes effect when the GPU is reset or the driver reloaded, and until then the bad memory can be "
               "handed out again.",
           act ? "Drain the GPU and reset it (`sudo nvidia-smi -r -i " + std::to_string(last.index) +
                     "`) or reboot; check `nvidia-smi -q -d PAGE_RETIREMENT,ROW_REMAPPER` afterwards (no pending "
                     "retirement or remap). Many retired pages or a failed remap: the card needs service (RMA)."
               : std::string("None needed while the counts stay; a count that grows is a card to watch."));
  f.evidence.push_back(counts);
  out.push_back(std::move(f));
}

void memory_held(const GpuSample& g, const DiagnosisOptions& o, std::vector<Finding>& out) {
  if (!g.memory_used_bytes || !g.memory_total_bytes || *g.memory_total_bytes == 0 || !g.processes) return;
  const double used = static_cast<double>(*g.memory_used_bytes);
  const double total = static_cast<double>(*g.memory_total_bytes);
  if (used < o.memory_full_fraction * total || g.processes->size() < 2) return;
  std::string holders;
  std::vector<std::string> evidence;
  for (const auto& p : *g.processes) {
    std::string held = p.used_memory_bytes ? fmt::format("{:.1f} GiB", static_cast<double>(*p.used_memory_bytes) / kGiB)
                                           : std::string("an unknown amount");
    std::string who = fmt::format("PID {}{}", p.pid, p.command.empty() ? "" : " (" + p.command + ")");
    if (!holders.empty()) holders += "; ";
    holders += who + ": " + held;
    evidence.push_back(who + " holds " + held);
  }
  Finding f = make(
      "watch-memory-held-by-others", Severity::warning,
      fmt::format("{} is nearly full ({:.1f} of {:.1f} GiB) and {} processes hold memory on it", gpu_label(g),
                  used / kGiB, total / kGiB, g.processes->size()),
      "A new job, or one that grows, gets out-of-memory errors while other processes keep memory they may not "
      "use. Holders: " +
          holders + ". Frameworks reserve most of the card at start-up by default (JAX 75%, TensorFlow all of it).",
      "Stop the processes you do not need (`kill PID`), or make each job take only what it uses: TensorFlow "
      "`tf.config.experimental.set_memory_growth(gpu, True)` (or TF_FORCE_GPU_ALLOW_GROWTH=true); PyTorch "
      "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True and `torch.cuda.empty_cache()` after large steps; JAX "
      "XLA_PYTHON_CLIENT_PREALLOCATE=false (or XLA_PYTHON_CLIENT_MEM_FRACTION=.5).");
  f.evidence = std::move(evidence);
  out.push_back(std::move(f));
}

/// What keeps a core busy beside an idle GPU, from its command line: gpudoctor's own bench and
/// verify children (their CPU time is the reference check of a result: no verdict), a Python
/// process (a framework's input pipeline is the usual cause: the data-loading advice), or any
/// other program (the finding, without a framework's advice).
enum class BusyProcess { own_task, python, other };

BusyProcess busy_process_kind(std::string_view command) {
  const std::string_view program = command.substr(0, command.find(' '));
  const size_t slash = program.find_last_of("/\\");
  std::string_view name = slash == std::string_view::npos ? program : program.substr(slash + 1);
  if (name.ends_with(".exe")) name.remove_suffix(4);
  if (name == "gpudoctor" && command.find(" --internal-task ") != std::string_view::npos) return BusyProcess::own_task;
  for (std::string_view launcher : {"python", "pythonw", "torchrun", "accelerate", "deepspeed", "ipykernel_launcher"}) {
    if (name.starts_with(launcher)) return BusyProcess::python;
  }
  return BusyProcess::other;
}

void input_or_gpu_bound(const std::vector<const GpuSample*>& series, const DiagnosisOptions& o,
                        std::vector<Finding>& out) {
  // The GPU's utilisation and, per process on it, its CPU use over the window.
  double util_sum = 0;
  size_t util_n = 0;
  std::map<unsigned, std::pair<double, size_t>> cpu;  // pid -> (sum, samples)
  std::map<unsigned, std::string> commands;
  for (const GpuSample* g : series) {
    if (g->gpu_util_percent) {
      util_sum += *g->gpu_util_percent;
      ++util_n;
    }
    if (!g->processes) continue;
    for (const auto& p : *g->processes) {
      if (!p.cpu_percent) continue;
      auto& [sum, n] = cpu[p.pid];
      sum += *p.cpu_percent;
      ++n;
      if (!p.command.empty()) commands[p.pid] = p.command;
    }
  }
  if (util_n < o.min_samples) return;
  const double util = util_sum / static_cast<double>(util_n);
  const GpuSample& last = *series.back();
  if (util >= o.busy_gpu_percent) {
    out.push_back(make("watch-gpu-bound", Severity::info, gpu_label(last) + " is busy: the job is GPU-bound",
                       fmt::format("Average utilisation {:.0f}% over the last {} samples.", util, util_n), ""));
    return;
  }
  if (util >= o.idle_below_percent) return;
  for (const auto& [pid, acc] : cpu) {
    const auto& [sum, n] = acc;
    if (n < o.min_samples) continue;
    const double process_cpu = sum / static_cast<double>(n);
    if (process_cpu < o.busy_cpu_percent) continue;
    const std::string& seen = commands[pid];  // empty when unknown
    const BusyProcess kind = busy_process_kind(seen);
    if (kind == BusyProcess::own_task) continue;
    const bool python = kind == BusyProcess::python;
    const std::string command = seen.empty() ? "" : " (" + seen + ")";
    Finding f = make(
        "watch-input-bound", Severity::warning,
        python ? fmt::format("{} waits for its input: PID {} is busy on the CPU while the GPU is mostly idle",
                             gpu_label(last), pid)
               : fmt::format("{} is mostly idle while PID {} is busy on the CPU", gpu_label(last), pid),
        fmt::format("Over the last {} samples the GPU averaged {:.0f}% utilisation while PID {}{} used {:.0f}% of a "
                    "CPU core: {}",
                    util_n, util, pid, command, process_cpu,
                    python ? "the GPU finishes each step and waits for the next batch (data loading, decoding, "
                             "augmentation on the CPU)."
                           : "the GPU waits for work that this process does on the CPU between its GPU calls."),
        python
            ? std::string("Prepare batches in parallel and ahead of the GPU. TensorFlow tf.data: `.map(f, "
                          "num_parallel_calls=tf.data.AUTOTUNE)`, `.cache()` after the expensive steps that do not "
                          "change per epoch, and `.prefetch(tf.data.AUTOTUNE)` at the end. PyTorch DataLoader: "
                          "`num_workers=` the CPU cores you can spare, `pin_memory=True`, `persistent_workers=True`. "
                          "Larger batches and mixed precision do not help while the input is the bottleneck.")
            : fmt::format("Find what PID {0} does on the CPU between its GPU calls (`perf top -p {0}`, or `py-spy "
                          "dump --pid {0}` if it embeds Python). If it prepares the GPU's input, prepare it in "
                          "parallel and ahead of the GPU; if it is the program's own serial work, the GPU is not "
                          "what limits it.",
                          pid));
    f.evidence.push_back(fmt::format("gpu utilisation {:.0f}%", util));
    f.evidence.push_back(fmt::format("PID {} cpu {:.0f}%", pid, process_cpu));
    out.push_back(std::move(f));
  }
}

}  // namespace

std::vector<Finding> diagnose(std::span<const SnapshotPtr> history, const DiagnosisOptions& options) {
  std::vector<Finding> out;
  if (history.empty() || !history.back()) return out;
  const Snapshot& latest = *history.back();
  not_answering(latest, out);
  gpu_lost(latest, out);
  std::span<const SnapshotPtr> window =
      history.size() > options.window ? history.subspan(history.size() - options.window) : history;
  // Trends are judged only over answered samples; the GPUs are those of the latest answer.
  std::vector<SnapshotPtr> answered;
  for (const auto& s : window) {
    if (s && s->status == LibraryStatus::ok) answered.push_back(s);
  }
  if (answered.empty()) return out;
  for (const auto& g : answered.back()->gpus) {
    auto series = series_of(answered, g.index);
    if (series.empty()) continue;
    throttling(series, options, out);
    memory_errors(series, out);
    memory_held(*series.back(), options, out);
    input_or_gpu_bound(series, options, out);
  }
  return out;
}

}  // namespace gpudoctor::monitor
