#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "cli/commands_list.hpp"
#include "cli/framework_targets.hpp"
#include "cli/output.hpp"
#include "core/text.hpp"
#include "gpu/bench_runner.hpp"
#include "gpu/cpu_bench.hpp"
#include "gpu/framework_bench.hpp"
#include "gpu/numpy_bench.hpp"
#include "kb/knowledge_base.hpp"
#include "platform/bench_history.hpp"
#include "platform/host_fs.hpp"
#include "platform/registry.hpp"
#include "probe/inventory.hpp"
#include "render/bench_render.hpp"

namespace gpudoctor {

namespace {

/// Earlier runs a comparison reads: enough to see how much runs differ on this machine.
constexpr int kCompareRuns = 5;

struct BenchArgs {
  bool quick = false;
  bool full = false;
  bool compare = false;
  bool cpu_only = false;
  bool gpu_only = false;
  bool no_history = false;
  std::string history;
  int timeout_ms = 120000;
  int cpu_threads = 0;
  // Sizes; 0: the mode's.
  int sgemm_n = 0;
  int conv_batch = 0;
  int gpu_gemm_n = 0;
  int gpu_copy_mib = 0;
  int host_copy_mib = 0;
  std::string gpu_conv_shape;  ///< "N,C,H,K"
  std::string only;            ///< --only: GPU figures whose key contains one of these words
  std::string framework;       ///< --framework: tensorflow, pytorch, jax or all
  int framework_image = 0;
  std::string framework_batch;  ///< "CPU[,GPU]"
  int framework_timeout_ms = 600000;
  std::string openblas;  ///< --openblas PATH: the CPU SGEMM's library, instead of the search
};

/// The Python environments the doctor finds (files only: no driver is loaded, no interpreter
/// run): the OpenBLAS copies numpy and scipy bundle, for the CPU SGEMM to fall back on after the
/// system's, and numpy's matmul to hold it against.
std::vector<PythonEnvFacts> python_envs_for_bench(CommandContext& ctx) {
  const SystemView* system = ctx.system();
  if (system == nullptr) return {};
  InventoryOptions inventory = ctx.inventory_options();
  inventory.query_driver_libraries = false;
  inventory.python.project_dir.clear();
  return collect_facts(*system, inventory).python_envs;
}

/// The first environment the user points at (gpu::user_chosen_env: its code runs in our child)
/// with numpy and an interpreter; nullopt when none.
std::optional<gpu::FrameworkTarget> numpy_target(const std::vector<PythonEnvFacts>& envs) {
  for (const PythonEnvFacts& env : envs) {
    if (env.interpreter.empty() || !gpu::user_chosen_env(env)) continue;
    const bool numpy =
        std::any_of(env.packages.begin(), env.packages.end(), [](const PlainDist& d) { return d.name == "numpy"; });
    if (numpy) return gpu::FrameworkTarget{.framework = "numpy", .env = env.path, .interpreter = env.interpreter};
  }
  return std::nullopt;
}

std::string cpu_model() {
  // Windows names the processor in the registry; there is no /proc there.
  if (std::unique_ptr<Registry> registry = open_host_registry()) {
    auto name = registry->text("HKLM\\HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", "ProcessorNameString");
    return name ? std::string(trim(*name)) : std::string();
  }
  std::FILE* f = std::fopen("/proc/cpuinfo", "re");
  if (f == nullptr) return "";
  char line[512];
  std::string model;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    std::string_view v(line);
    if (v.starts_with("model name")) {
      size_t colon = v.find(':');
      if (colon != std::string_view::npos) model = std::string(v.substr(colon + 1));
      break;
    }
  }
  std::fclose(f);
  while (!model.empty() && (model.back() == '\n' || model.back() == ' ')) model.pop_back();
  while (!model.empty() && model.front() == ' ') model.erase(0, 1);
  return model;
}

/// The GPU a figure ran on, by name: "gpu1.copy" is report.gpu_names[1]; a framework's figure
/// carries its own. Empty when unknown (a CPU figure).
std::string gpu_of(const BenchReport& report, const BenchMeasurement& m) {
  // "gpus.allreduce_busbw" is every GPU's, not GPU 0's.
  if (m.key.starts_with("gpu") && m.key.size() > 3 && std::isdigit(static_cast<unsigned char>(m.key[3])) != 0) {
    const int index = std::atoi(m.key.c_str() + 3);
    if (index >= 0 && static_cast<size_t>(index) < report.gpu_names.size())
      return report.gpu_names[static_cast<size_t>(index)];
    return {};
  }
  return m.gpus.empty() ? std::string() : m.gpus.front();
}

/// The datasheet peak for a GPU figure ("gpu0.gemm_bf16" -> bf16_tflops of GPU 0's row).
void attach_ceilings(const KnowledgeBase& kb, BenchReport& report) {
  for (BenchMeasurement& m : report.measurements) {
    if (!m.key.starts_with("gpu")) continue;
    const std::string gpu = gpu_of(report, m);
    if (gpu.empty()) continue;
    const size_t dot = m.key.find('.');
    const GpuPeak* peak = kb.find_gpu_peak(gpu);
    if (peak == nullptr) continue;
    const std::string what = m.key.substr(dot + 1);
    std::optional<double> value;
    std::string field;
    if (what == "gemm_fp32" || what == "conv_fp32") value = peak->fp32_tflops, field = "FP32";
    if (what == "gemm_tf32") value = peak->tf32_tflops, field = "TF32 tensor";
    if (what == "gemm_fp16" || what == "gemmlt_fp16" || what == "conv_fp16")
      value = peak->fp16_tflops, field = "FP16 tensor";
    if (what == "gemm_bf16" || what == "gemmlt_bf16") value = peak->bf16_tflops, field = "BF16 tensor";
    if (what == "gemm_fp8") value = peak->fp8_tflops, field = "FP8 tensor";
    if (what == "copy" || what == "triad") value = peak->mem_bw_gbps, field = "memory bandwidth";
    if (!value) continue;
    m.ceiling = value;
    m.ceiling_source = "datasheet " + field + " of " + (peak->variant.empty() ? peak->name : peak->variant) +
                       ", compat/gpu_peaks.toml: " + peak->source;
  }
}

/// A half-precision figure on a card without tensor cores (a GTX 1660 is CC 7.5 like an RTX 2080,
/// so the child, which knows only the compute capability, cannot tell): the figure's detail says
/// so, and the report's notes once per card, with the knowledge base's sources.
void attach_tensor_core_notes(const KnowledgeBase& kb, BenchReport& report) {
  std::vector<std::string> noted;
  for (BenchMeasurement& m : report.measurements) {
    const bool bf16 = m.key.find("bf16") != std::string::npos;
    if (!bf16 && m.key.find("fp16") == std::string::npos) continue;
    const std::string gpu = gpu_of(report, m);
    const std::vector<const ChipWithoutTensorCores*> rows =
        gpu.empty() ? std::vector<const ChipWithoutTensorCores*>{} : kb.without_tensor_cores("", gpu);
    if (rows.empty()) continue;
    // "a TU117, TU116 or TU106 (tensor cores disabled) board"
    std::string chips;
    std::string sources;
    for (size_t i = 0; i < rows.size(); ++i) {
      chips += (i == 0                 ? ""
                : i + 1 == rows.size() ? " or "
                                       : ", ") +
               rows[i]->chip + (rows[i]->devices.empty() ? "" : " (tensor cores disabled)");
      sources += (i == 0 ? "" : "; ") + rows[i]->chip + ": " + rows[i]->source;
    }
    const std::string lacks = gpu + " has no tensor cores (a " + chips + " board)";
    // FP16 still runs at twice the FP32 rate on these chips' shader cores; BF16 is emulated.
    m.detail += "; " + lacks + (bf16 ? ": BF16 is emulated" : ": FP16 runs on its shader cores") +
                ", without the tensor-core speedup behind the guides' \"mixed precision gives 1.5-3x\"";
    if (std::find(noted.begin(), noted.end(), gpu) == noted.end()) {
      noted.push_back(gpu);
      report.notes.push_back(lacks +
                             ": mixed precision cannot give the tensor-core speedup the guides count on "
                             "(compat/cuda_arch.toml no_tensor_cores, " +
                             sources + ")");
    }
  }
}

/// The sizes given on the command line, "sgemm 64, conv batch 1": a run with them is kept in the
/// history as its own mode ("quick (sgemm 64, conv batch 1)"), so --compare holds it only against
/// a run of the same sizes, never a figure of one size against another's.
std::string custom_sizes(const BenchArgs& a) {
  std::string text;
  auto add = [&](const std::string& what, int value) {
    if (value > 0) text += (text.empty() ? "" : ", ") + what + " " + std::to_string(value);
  };
  auto add_text = [&](const std::string& what, const std::string& value) {
    if (!value.empty()) text += (text.empty() ? "" : ", ") + what + " " + value;
  };
  if (a.framework.empty()) {
    add("sgemm", a.sgemm_n);
    add("conv batch", a.conv_batch);
    add("gpu gemm", a.gpu_gemm_n);
    add("gpu copy MiB", a.gpu_copy_mib);
    add("host copy MiB", a.host_copy_mib);
    add_text("gpu conv", a.gpu_conv_shape);
    add_text("only", a.only);
  } else {
    add("image", a.framework_image);
    add_text("batch", a.framework_batch);
  }
  add("cpu threads", a.cpu_threads);
  return text;
}

/// bench --framework: the training step in each framework's first found environment, in place
/// of the library benchmarks; nullopt after a usage message.
std::optional<BenchReport> run_framework_benches(CommandContext& ctx, const BenchArgs& a, const gpu::BenchOptions& o) {
  auto frameworks = framework_names(a.framework);
  if (!frameworks) {
    usage_error("bench", "--framework " + a.framework + ": one of tensorflow, pytorch, jax, all");
    return std::nullopt;
  }
  gpu::FrameworkBenchConfig config = gpu::framework_bench_config(o.mode);
  if (a.framework_image > 0) config.image = a.framework_image;
  if (!a.framework_batch.empty()) {
    int cpu = 0;
    int gpu = 0;
    char tail = 0;
    int got = std::sscanf(a.framework_batch.c_str(), "%d,%d%c", &cpu, &gpu, &tail);
    const bool digits = a.framework_batch.find_first_not_of("0123456789,") == std::string::npos;
    if (!digits || (got != 1 && got != 2) || (got == 1 && a.framework_batch.find(',') != std::string::npos) ||
        cpu < 1 || cpu > 4096 || (got == 2 && (gpu < 1 || gpu > 4096))) {
      usage_error("bench", "--framework-batch CPU[,GPU]: images per step, 1 to 4096");
      return std::nullopt;
    }
    config.cpu_batch = cpu;
    if (got == 2) {
      config.gpu_batch = gpu;
      config.gpu_batch_scaled = false;
    }
  }
  config.cpu = o.cpu;
  config.gpu = o.gpu;
  const Facts* facts = ctx.facts();
  if (facts == nullptr) return std::nullopt;
  BenchReport report;
  // Its own mode in the history: --compare holds a framework run against the last framework run.
  report.mode = "framework-" + o.mode;
  report.started_utc = gpu::bench_utc_now();
  report.cpu_threads = o.cpu_threads > 0 ? o.cpu_threads : gpu::usable_cpu_count();
  HostProcessRunner runner;
  for (const std::string& framework : *frameworks) {
    auto targets = framework_targets(*facts, framework);
    if (targets.empty()) {
      report.notes.push_back(framework + ": " + no_framework_env_text(*facts, framework));
      continue;
    }
    for (size_t i = 1; i < targets.size(); ++i) {
      report.notes.push_back(framework + " also in " + targets[i].env + ": not measured (the first found is; " +
                             "choose another with --env and --framework in a run of its own)");
    }
    if (o.on_start) o.on_start(framework + " training step");
    gpu::FrameworkBenchRun run =
        gpu::run_framework_bench(runner, targets[0], config, std::chrono::milliseconds(a.framework_timeout_ms));
    // The framework's own last words, when one of its figures did not pass.
    const bool trouble = std::any_of(run.measurements.begin(), run.measurements.end(), [](const BenchMeasurement& m) {
      return m.status != BenchStatus::ok && m.status != BenchStatus::skipped;
    });
    for (auto& m : run.measurements) {
      if (o.on_measurement) o.on_measurement(m);
      report.measurements.push_back(std::move(m));
    }
    for (auto& n : run.notes) report.notes.push_back(std::move(n));
    // A batch the script scaled for this card is part of the mode: --compare never holds images per
    // second at one batch against another.
    const std::string scaled = " (GPU batch " + std::to_string(run.gpu_batch) + ")";
    if (run.gpu_batch > 0 && run.gpu_batch != config.gpu_batch && report.mode.find(scaled) == std::string::npos) {
      report.mode += scaled;
    }
    if (trouble && !run.stderr_text.empty()) {
      std::string_view last = trim(run.stderr_text);
      if (size_t nl = last.rfind('\n'); nl != std::string_view::npos) last = last.substr(nl + 1);
      report.notes.push_back(framework + " stderr, last line: " + printable(last, 300));
    }
  }
  if (report.measurements.empty()) {
    report.problems.push_back("--framework " + a.framework + ": no environment with it was found, nothing measured");
  }
  report.claims = bench_claims(report);
  return report;
}

int run_bench_command(CommandContext& ctx, const BenchArgs& a) {
  if (!ctx.options().root.empty()) {
    return usage_error("bench", "--root: bench measures this machine; it cannot measure a tree");
  }
  if (a.quick && a.full) return usage_error("bench", "--quick and --full: choose one");
  if (a.timeout_ms <= 0) return usage_error("bench", "--timeout-ms must be positive");
  gpu::BenchOptions o;
  o.mode = a.quick ? "quick" : (a.full ? "full" : "default");
  o.sizes = gpu::bench_sizes(o.mode);
  if (a.sgemm_n > 0) o.sizes.sgemm_n = a.sgemm_n;
  if (a.conv_batch > 0) o.sizes.conv_n = a.conv_batch;
  if (a.gpu_gemm_n > 0) o.sizes.gpu_gemm_n = a.gpu_gemm_n;
  if (a.gpu_copy_mib > 0) o.sizes.gpu_copy_bytes = static_cast<long long>(a.gpu_copy_mib) << 20;
  if (!a.gpu_conv_shape.empty()) {
    int v[4] = {0, 0, 0, 0};
    char tail = 0;
    if (std::sscanf(a.gpu_conv_shape.c_str(), "%d,%d,%d,%d%c", &v[0], &v[1], &v[2], &v[3], &tail) != 4 || v[0] < 1 ||
        v[0] > 1024 || v[1] < 1 || v[1] > 4096 || v[2] < 3 || v[2] > 4096 || v[3] < 1 || v[3] > 4096) {
      return usage_error("bench", "--gpu-conv-shape N,C,H,K: batch 1-1024, channels and filters 1-4096, size 3-4096");
    }
    for (int i = 0; i < 4; ++i) o.sizes.gpu_conv[i] = v[i];
  }
  if (a.host_copy_mib > 0) o.sizes.host_copy_bytes = static_cast<long long>(a.host_copy_mib) << 20;
  if (a.cpu_only && a.gpu_only) return usage_error("bench", "--cpu-only and --gpu-only: choose one");
  o.gpu = !a.cpu_only;
  o.cpu = !a.gpu_only;
  if (!a.only.empty()) {
    if (a.cpu_only) return usage_error("bench", "--only picks GPU figures; --cpu-only measures none");
    for (std::string_view word : split(a.only, ',')) {
      if (word.empty() || word.size() > 40) return usage_error("bench", "--only WORD[,WORD...]: no empty word");
      o.only.emplace_back(word);
    }
  }
  o.cpu_threads = a.cpu_threads;
  o.deadline = std::chrono::milliseconds(a.timeout_ms);
  // Progress on a terminal only: stderr, one line as each figure starts and ends.
  const bool progress = ::isatty(STDERR_FILENO) == 1;
  if (progress) {
    o.on_start = [](const std::string& key) {
      std::fprintf(stderr, "\rbench: measuring %-40s", key.c_str());
      std::fflush(stderr);
    };
    o.on_measurement = [](const BenchMeasurement&) {
      std::fprintf(stderr, "\r%-60s\r", "");
      std::fflush(stderr);
    };
  }
  if (a.framework_timeout_ms <= 0) return usage_error("bench", "--framework-timeout-ms must be positive");
  // Options of the other kind of run would be ignored silently: say so instead.
  const bool library_sizes = a.sgemm_n > 0 || a.conv_batch > 0 || a.gpu_gemm_n > 0 || a.gpu_copy_mib > 0 ||
                             a.host_copy_mib > 0 || !a.gpu_conv_shape.empty() || a.cpu_threads > 0 || !a.only.empty();
  if (!a.framework.empty() && library_sizes)
    return usage_error("bench",
                       "--framework times a training step: the library benchmarks' sizes, --only and "
                       "--cpu-threads do not apply (use --framework-image, --framework-batch)");
  if (!a.framework.empty() && !a.openblas.empty())
    return usage_error("bench", "--openblas picks the CPU SGEMM's library; --framework does not run it");
  if (a.gpu_only && !a.openblas.empty()) return usage_error("bench", "--openblas with --gpu-only: no CPU SGEMM runs");
  if (a.framework.empty() && (a.framework_image > 0 || !a.framework_batch.empty()))
    return usage_error("bench", "--framework-image and --framework-batch need --framework");
  // What else ran on the CPUs before the run (Linux; no such file elsewhere).
  bool loadavg_cut = false;
  const auto loadavg = host_fs::read_followed("/proc/loadavg", 256, &loadavg_cut);
  BenchReport report;
  bool numpy_asked = false;  ///< an environment with numpy was found: its figure was asked for
  if (!a.framework.empty()) {
    auto framework_report = run_framework_benches(ctx, a, o);
    if (!framework_report) return kExitUsage;
    report = std::move(*framework_report);
  } else {
    if (o.cpu && !a.openblas.empty()) o.openblas = {a.openblas};
    const std::vector<PythonEnvFacts> envs = o.cpu ? python_envs_for_bench(ctx) : std::vector<PythonEnvFacts>{};
    if (o.cpu && a.openblas.empty()) {
      gpu::BundledOpenblas bundled = gpu::bundled_openblas(gpu::user_chosen_site_packages(envs));
      o.openblas_bundled = std::move(bundled.found);
      o.openblas_refused = std::move(bundled.refused);
    }
    report = gpu::run_bench(o);
    // The SGEMM against numpy.matmul on the same size, right after it in the same run.
    if (o.cpu) {
      const auto target = numpy_target(envs);
      numpy_asked = target.has_value();
      if (target) {
        if (o.on_start) o.on_start(std::string(gpu::kNumpyMatmulKey) + ".gflops");
        HostProcessRunner runner;
        report.measurements.push_back(gpu::run_numpy_bench(runner, *target, o.sizes.sgemm_n, report.cpu_threads,
                                                           gpu::bench_policy(o.mode), o.deadline));
        if (o.on_measurement) o.on_measurement(report.measurements.back());
        gpu::hold_sgemm_against_numpy(report);
      } else {
        report.notes.push_back(
            "cpu.sgemm_fp32 has no ceiling: no Python environment with numpy was found to hold it against "
            "(point at one with --env DIR); no theoretical CPU peak is given, the clock under load being unknown");
      }
    }
  }
  report.host = host_fs::host_name();
  report.cpu_model = cpu_model();
  // More threads than CPUs: the CPU figures measure the oversubscription, not the machine.
  if (const int cpus = gpu::usable_cpu_count(); a.cpu_threads > cpus) {
    report.notes.push_back("--cpu-threads " + std::to_string(a.cpu_threads) + " is more than the " +
                           std::to_string(cpus) +
                           " CPU(s) this process may use (sched_getaffinity): the CPU figures are those of "
                           "oversubscribed cores, lower than the machine gives");
  }
  if (loadavg && report.cpu_threads > 0) {
    if (auto busy = busy_machine_note(*loadavg, report.cpu_threads)) report.notes.push_back(*busy);
  }
  if (std::string sizes = custom_sizes(a); !sizes.empty()) report.mode += " (" + sizes + ")";
  if (const KnowledgeBase* kb = ctx.kb()) {
    attach_ceilings(*kb, report);
    attach_tensor_core_notes(*kb, report);
  }

  std::string path =
      a.history.empty() ? BenchHistory::default_path(std::getenv("XDG_DATA_HOME"), std::getenv("HOME")) : a.history;
  // Which figures this run asked for: a figure an earlier run measured and this one did not ask
  // for (--cpu-only, --gpu-only, --only) is not lost.
  const bool library_run = a.framework.empty();
  auto selected = [&](const std::string& key) {
    if (!library_run) return true;
    if (key == std::string(gpu::kNumpyMatmulKey) + ".gflops") return numpy_asked;
    if (key.starts_with("cpu.")) return o.cpu;
    return o.gpu && (o.only.empty() || std::any_of(o.only.begin(), o.only.end(), [&](const std::string& w) {
                       return key.find(w) != std::string::npos;
                     }));
  };
  if (!a.no_history && !path.empty()) {
    // A history that cannot be used is no failed figure: the run says it was not saved; asked to
    // compare, that it could not.
    auto history = BenchHistory::open(path);
    if (!history) {
      if (a.compare) report.problems.push_back("could not compare: " + history.error().message);
      report.notes.push_back("this run was not saved in the bench history: " + history.error().message);
    } else {
      if (a.compare) {
        auto earlier = history->recent(report.mode, report.host, kCompareRuns);
        if (!earlier) {
          report.problems.push_back("could not compare: " + earlier.error().message);
        } else if (earlier->empty()) {
          report.notes.push_back("--compare: no earlier " + report.mode + " run of " + report.host + " in " + path);
        } else {
          report.compared_with_utc = earlier->front().started_utc;
          report.changes = compare_runs(*earlier, report, 5.0, selected);
        }
      }
      auto added = history->add(report);
      if (!added) report.notes.push_back("this run was not saved in the bench history: " + added.error().message);
    }
  } else if (a.compare) {
    return usage_error("bench", "--compare needs the history (no --no-history, and HOME or --history set)");
  }
  write_output(ctx.options().json ? render_bench_json(report) : render_bench_text(report, ctx.color()));
  if (!bench_passed(report)) return kExitProblems;
  for (const auto& c : report.changes) {
    if (is_regression(c)) return kExitProblems;
  }
  return kExitOk;
}

}  // namespace

Command bench_command() {
  auto args = std::make_shared<BenchArgs>();
  Command c;
  c.name = "bench";
  c.summary = "Measure CPU and GPU speed (GEMM, convolution, memory, host<->device, NCCL) against the datasheet";
  c.setup = [args](CLI::App& sub) {
    sub.add_flag("--quick", args->quick, "Small sizes, short sampling: under 30 s on a CPU-only machine");
    sub.add_flag("--full", args->full, "Bigger sizes and longer sampling: every figure");
    sub.add_flag("--compare", args->compare,
                 "Compare with the last runs of the same mode in the history and flag regressions beyond the noise "
                 "and figures no longer measured (exit status 1 on either)");
    sub.add_flag("--cpu-only", args->cpu_only, "Measure the CPU baseline only");
    sub.add_flag("--gpu-only", args->gpu_only, "Measure the GPUs only (the GPU/CPU claims then say what is missing)");
    // Each size's range is checked as it is parsed: 0, which stands for "not given" inside, is
    // refused when given like any other value out of range.
    sub.add_option("--cpu-threads", args->cpu_threads,
                   "Threads of the CPU baseline (default: every CPU this process may use)")
        ->check(CLI::Range(1, 4096));
    sub.add_option("--history", args->history,
                   "The SQLite history file (default $XDG_DATA_HOME/gpudoctor/bench.sqlite or "
                   "~/.local/share/gpudoctor/bench.sqlite)");
    sub.add_flag("--no-history", args->no_history, "Do not read or write the history");
    sub.add_option("--openblas", args->openblas,
                   "The OpenBLAS library of the CPU SGEMM (default: the system's, then the copy numpy or scipy "
                   "bundles in a Python environment the doctor finds)");
    sub.add_option("--sgemm-size", args->sgemm_n, "N of the CPU SGEMM (N x N x N; default: the mode's)")
        ->check(CLI::Range(1, 16384));
    sub.add_option("--conv-batch", args->conv_batch, "Images in the CPU convolution's batch (default: the mode's)")
        ->check(CLI::Range(1, 256));
    sub.add_option(
        "--only", args->only,
        "Measure only the GPU figures whose key contains one of these comma-separated words "
        "(gemm, gemmlt, fp8, copy, conv, h2d, peer, allreduce); the CPU figures still run unless --gpu-only");
    sub.add_option("--gpu-gemm-size", args->gpu_gemm_n, "N of the GPU GEMMs (default: the mode's)")
        ->check(CLI::Range(64, 32768));
    sub.add_option("--gpu-copy-mib", args->gpu_copy_mib, "MiB per array of the device copy and triad")
        ->check(CLI::Range(1, 16384));
    sub.add_option("--host-copy-mib", args->host_copy_mib, "MiB of each host<->device copy")
        ->check(CLI::Range(1, 8192));
    sub.add_option(
        "--gpu-conv-shape", args->gpu_conv_shape,
        "N,C,H,K of the GPU convolution: batch, channels, height = width, 3x3 filters (default 32,64,56,64)");
    sub.add_option("--framework", args->framework,
                   "Instead: time a synthetic-data training step of ResNet-50 (ResNet-18 with --quick) in each "
                   "framework (tensorflow, pytorch, jax or all) found by the doctor, in its own interpreter: FP32 on "
                   "the CPU and the GPU, mixed precision, data-parallel over every GPU; images per second");
    sub.add_option("--framework-image", args->framework_image,
                   "Image height = width of the training step (default 224; 112 with --quick)")
        ->check(CLI::Range(32, 1024));
    sub.add_option("--framework-batch", args->framework_batch,
                   "CPU[,GPU]: images per step on the CPU and per GPU (default 8,64; 4,64 with --quick; 16,128 "
                   "with --full)");
    sub.add_option("--framework-timeout-ms", args->framework_timeout_ms,
                   "Deadline of each framework's child process (default 600000)");
    sub.add_option("--timeout-ms", args->timeout_ms, "Deadline of each benchmark's child process (default 120000)");
    sub.footer(
        "Each figure is the median of timed iterations after a warm-up (monotonic clock on the CPU,\n"
        "CUDA events on a GPU), with its spread, a correctness check against the CPU beside it, and the\n"
        "datasheet ceiling where the knowledge base has one. JSON keys name what and the unit:\n"
        "cpu.sgemm_fp32.gflops, gpu0.gemm_bf16.tflops, gpu0.h2d_pinned.gbps. Exit status: 0 when\n"
        "every figure that could run passed its check (and, with --compare, nothing regressed or\n"
        "went unmeasured), 1\n"
        "otherwise. Method and caveats: docs/bench.md.\n");
  };
  c.run = [args](CommandContext& ctx) { return run_bench_command(ctx, *args); };
  return c;
}

}  // namespace gpudoctor
