#include "gpu/verify_runner.hpp"

#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "core/text.hpp"
#include "gpu/driver_query.hpp"
#include "gpu/verify_steps.hpp"

namespace gpudoctor::gpu {
namespace {

/// Whether a step's end leaves its GPU unfit for more work: a hang, or a crash inside a driver
/// call (cuMemcpy..., not a library's own cublas.../cudnn.../nccl... code).
bool wedges_gpu(const VerifyStep& step) {
  if (step.status == StepStatus::timeout) return true;
  const std::string& call = step.last_call;
  return step.status == StepStatus::crashed && call.size() > 2 && call.starts_with("cu") &&
         std::isupper(static_cast<unsigned char>(call[2]));
}

struct Runner {
  const VerifyOptions& options;
  VerifyReport& report;
  std::map<std::string, std::string> libs;  ///< what every step child loads
  std::map<int, std::string> pci;           ///< each GPU's PCI address, from its driver step
  std::map<int, std::string> wedged;        ///< GPUs that hung or crashed in the driver: why
  bool mig = false;                         ///< a driver step's GPU was a MIG instance

  const RuntimeLibraryReport* library(const std::string& name) const {
    for (const auto& l : report.libraries) {
      if (l.name == name) return &l;
    }
    return nullptr;
  }

  VerifyStep& add(VerifyStep step) {
    if (step.device) {
      if (step.name == "driver" && !step.pci_bus_id.empty()) pci[*step.device] = printable(step.pci_bus_id, 40);
      // cuDeviceGetName of a MIG instance: "NVIDIA A100-SXM4-80GB MIG 1g.10gb".
      if (step.name == "driver" && step.detail.find(" MIG ") != std::string::npos) mig = true;
      if (auto it = pci.find(*step.device); it != pci.end()) step.pci_bus_id = it->second;
    }
    report.steps.push_back(std::move(step));
    if (options.on_step) options.on_step(report.steps.back());
    return report.steps.back();
  }

  VerifyStep& not_run(const std::string& name, int device, StepStatus status, std::string why) {
    VerifyStep s;
    s.name = name;
    if (device >= 0) s.device = device;
    s.status = status;
    s.detail = std::move(why);
    return add(std::move(s));
  }

  VerifyStep& run(const std::string& name, int device, std::optional<int>* device_count = nullptr) {
    // A GPU that hung (or crashed in a driver call) gets no more work: each step on it would
    // cost a full deadline, GPUs x steps in all. The steps across GPUs include it.
    if (auto it = device >= 0 ? wedged.find(device) : wedged.begin(); it != wedged.end())
      return not_run(name, device, StepStatus::skipped, "not run: " + it->second + "; no more work is given to it");
    std::vector<IsolatedTask> tasks{{"verify-step", verify_step_args(name, device, libs)}};
    std::vector<ChildOutcome> outcome = run_isolated(tasks, options.step_deadline);
    VerifyStep& step = add(verify_step_from_child(name, device, outcome.at(0), device_count));
    if (device >= 0 && wedges_gpu(step))
      wedged[device] = "GPU " + std::to_string(device) + (step.status == StepStatus::timeout ? " hung" : " crashed") +
                       (step.last_call.empty() ? "" : " in " + step.last_call) + " (the " + name + " step)";
    return step;
  }

  /// Runs `name` when `ready` passed and `lib` (if any) loaded; otherwise says why not.
  bool run_if(const std::string& name, int device, const VerifyStep* ready, const char* lib, const char* lib_words) {
    if (wedged.contains(device)) return run(name, device).passed();  // says why not
    if (ready != nullptr && !ready->passed()) {
      not_run(name, device, StepStatus::skipped, "not run: the " + ready->name + " step did not pass");
      return false;
    }
    if (lib != nullptr) {
      const RuntimeLibraryReport* l = library(lib);
      if (l == nullptr || l->status == LibraryStatus::not_found) {
        // Not a skip: the layer was asked for and is absent, so this node is not verified.
        std::string where = report.libs_from == "system" ? "on the loader's path" : "in " + report.libs_from;
        not_run(name, device, StepStatus::not_found, std::string(lib_words) + " not found " + where);
        return false;
      }
      if (l->status != LibraryStatus::ok) {
        not_run(name, device, StepStatus::failed, std::string(lib_words) + " did not load: " + l->error);
        return false;
      }
    }
    return run(name, device).passed();
  }
};

/// "NVML GPU 1, NVIDIA H100 80GB HBM3 at PCI 0000:86:00.0"
std::string nvml_gpu_words(const GpuDeviceReport& d) {
  return "NVML GPU " + std::to_string(d.index) + (d.name.empty() ? "" : ", " + printable(d.name, 96)) +
         (d.pci_bus_id.empty() ? "" : " at PCI " + printable(d.pci_bus_id, 40));
}

}  // namespace

VerifyStep compare_gpu_counts(const NvmlReport& nvml, int cuda_count, const std::map<int, std::string>& cuda_pci,
                              const std::optional<std::string>& cuda_visible_devices, bool cuda_shows_mig) {
  VerifyStep s;
  s.name = "gpu-count";
  const std::string cuda = "CUDA " + std::to_string(cuda_count);
  if (nvml.status != LibraryStatus::ok || !nvml.device_count) {
    s.status = StepStatus::skipped;
    std::string why = nvml.status != LibraryStatus::ok ? std::string(to_string(nvml.status)) : "no device count";
    if (!nvml.error.empty()) why += ": " + printable(nvml.error, 300);
    s.detail = "not compared: NVML could not be asked (" + why +
               "), so a GPU that CUDA cannot see would go unnoticed; " + cuda + " GPU(s) tested";
    return s;
  }
  const int seen = static_cast<int>(*nvml.device_count);
  if (seen <= cuda_count) {
    // More in CUDA than NVML's boards: MIG instances are CUDA devices of their own.
    s.status = StepStatus::passed;
    s.detail = seen == cuda_count ? "NVML and CUDA both see " + std::to_string(seen) + " GPU(s)"
                                  : "NVML sees " + std::to_string(seen) + " board(s), " + cuda +
                                        " device(s) (MIG instances count as devices): none missing";
    return s;
  }
  const std::string counts = "NVML sees " + std::to_string(seen) + " GPU(s), ";
  if (cuda_visible_devices) {
    // Indices the variable names, each a distinct GPU of NVML's count: CUDA must show them all
    // (Slurm and Kubernetes always set it). UUIDs and MIG names are not counted here.
    std::set<long> named;
    bool indices = true;
    for (std::string_view e : split(*cuda_visible_devices, ',')) {
      const std::string t(trim(e));
      const bool digits = !t.empty() && t.size() < 4 && t.find_first_not_of("0123456789") == std::string::npos;
      if (!digits || std::stol(t) >= seen || !named.insert(std::stol(t)).second) indices = false;
    }
    if (indices && static_cast<int>(named.size()) > cuda_count) {
      s.status = StepStatus::failed;
      s.detail = "CUDA_VISIBLE_DEVICES=\"" + printable(*cuda_visible_devices, 200) + "\" names " +
                 std::to_string(named.size()) + " of NVML's " + std::to_string(seen) + " GPU(s), " + cuda +
                 " shows: a GPU it names is invisible to CUDA and was not tested (a board that failed initialisation; "
                 "CUDA stops at the first index it cannot use). Check `nvidia-smi -q` and `dmesg | grep -i -e xid "
                 "-e NVRM`";
      return s;
    }
    s.status = StepStatus::skipped;
    s.detail = counts + cuda + ": expected, CUDA_VISIBLE_DEVICES=\"" + printable(*cuda_visible_devices, 200) +
               "\" hides the others; they were not tested";
    return s;
  }
  if (cuda_shows_mig) {
    // Without CUDA_VISIBLE_DEVICES, a CUDA process enumerates one MIG instance in all (NVIDIA's
    // MIG user guide, "CUDA device enumeration"): fewer devices than boards is MIG's doing.
    s.status = StepStatus::skipped;
    s.detail = counts + cuda +
               ": expected, CUDA shows a MIG instance and enumerates one per process; the other "
               "GPUs and instances were not tested (name them in CUDA_VISIBLE_DEVICES)";
    return s;
  }
  s.status = StepStatus::failed;
  s.detail = counts + "CUDA only " + std::to_string(cuda_count) + ": " + std::to_string(seen - cuda_count) +
             " GPU(s) the driver knows are invisible to CUDA and were not tested. Likely a board that failed "
             "initialisation: fallen off the bus (Xid 79), in a bad state, or one the driver ignores (\"NVRM: ... "
             "ignored\"). Check `nvidia-smi -q` and `dmesg | grep -i -e xid -e NVRM`; reset the GPU "
             "(`nvidia-smi -r -i INDEX`, nothing running on it) or reseat it";
  // Which ones: NVML's GPUs whose PCI address (domain:bus:device) no CUDA ordinal answered.
  bool known = static_cast<int>(cuda_pci.size()) == cuda_count;
  std::string missing;
  for (const GpuDeviceReport& d : nvml.devices) {
    known = known && !d.pci_bus_id.empty();
    bool in_cuda = false;
    for (const auto& [ordinal, bus] : cuda_pci) in_cuda = in_cuda || d.pci_bus_id.starts_with(bus);
    if (!in_cuda) s.notes.push_back("not seen by CUDA: " + nvml_gpu_words(d));
  }
  if (!known) {
    s.notes.clear();
    for (const GpuDeviceReport& d : nvml.devices) missing += (missing.empty() ? "" : "; ") + nvml_gpu_words(d);
    s.notes.push_back("which of NVML's GPUs CUDA lacks cannot be told without every PCI address; NVML's: " + missing);
  }
  return s;
}

VerifyReport run_verify(const VerifyOptions& options) {
  VerifyReport report;
  report.libs_from = options.libraries.label;
  report.quick = options.quick;
  report.libraries = probe_runtime_libraries(options.libraries, options.step_deadline);
  // A library whose loading crashed or hung the child is this machine's runtime failing,
  // whether or not a step uses it (NVRTC has none; PyTorch's JIT and CuPy compile with it).
  for (const RuntimeLibraryReport& l : report.libraries) {
    if (l.status == LibraryStatus::crashed || l.status == LibraryStatus::timeout)
      report.problems.push_back(l.name + (l.status == LibraryStatus::crashed ? " crashed" : " hung") +
                                " when loaded: " + l.error);
  }
  {
    // NVML beside libcuda, at once: it sees every board the driver bound, CUDA only those it
    // could initialise (the "gpu-count" step compares them).
    std::vector<IsolatedTask> tasks{{"cuda-driver", options.cuda_names}, {"nvml", options.nvml_names}};
    std::vector<ChildOutcome> outcomes = run_isolated(tasks, options.step_deadline);
    report.driver = cuda_report_from_child(outcomes.at(0));
    report.nvml = nvml_report_from_child(outcomes.at(1));
  }
  Runner r{.options = options, .report = report, .libs = {}, .pci = {}, .wedged = {}, .mig = false};
  if (!options.cuda_names.empty()) r.libs["cuda"] = options.cuda_names.front();
  if (!report.driver.path.empty()) r.libs["cuda"] = report.driver.path;
  for (const char* name : {"cublas", "cudnn", "nccl"}) {
    const RuntimeLibraryReport* l = r.library(name);
    if (l != nullptr && l->status == LibraryStatus::ok) r.libs[name] = l->path;
  }

  std::optional<int> count;
  VerifyStep first = r.run("driver", 0, &count);
  if (options.cuda_visible_devices) {
    // CUDA numbers only the GPUs the variable names, from 0: "GPU 0" may be nvidia-smi's GPU 1.
    const std::string& v = *options.cuda_visible_devices;
    report.notes.push_back("CUDA_VISIBLE_DEVICES=\"" + v + "\" limits which GPUs CUDA shows: " +
                           (first.passed() ? std::to_string(count.value_or(1)) + " GPU(s) tested, numbered from 0"
                                           : std::string("it may be why the driver step failed")) +
                           (v.empty() ? "; set and empty, it hides every GPU" : ""));
  }
  if (!first.passed()) {
    for (const char* step : verify_step_names()) {
      if (std::string_view(step) == "driver") continue;
      if (options.quick && std::string_view(step) == "sgemm") break;
      bool across = std::string_view(step) == "nccl-allreduce" || std::string_view(step) == "peer-access";
      r.not_run(step, across ? -1 : 0, StepStatus::skipped, "not run: the driver step did not pass");
    }
    r.not_run("gpu-count", -1, StepStatus::skipped, "not compared: the driver step did not pass");
    return report;
  }
  const int devices = count.value_or(1);
  bool all_memory = true;
  for (int d = 0; d < devices; ++d) {
    if (d > 0 && !r.run("driver", d).passed()) {
      all_memory = false;
      continue;
    }
    VerifyStep context = r.run("context", d);
    VerifyStep memory = context.passed()
                            ? r.run("memory", d)
                            : r.not_run("memory", d, StepStatus::skipped, "not run: no context on this GPU");
    all_memory = all_memory && memory.passed();
    r.run_if("kernel", d, &memory, nullptr, nullptr);
    if (options.quick) continue;
    r.run_if("sgemm", d, &memory, "cublas", "cuBLAS");
    r.run_if("hgemm", d, &memory, "cublas", "cuBLAS");
    r.run_if("cudnn-conv", d, &memory, "cudnn", "cuDNN");
  }
  r.add(compare_gpu_counts(report.nvml, devices, r.pci, options.cuda_visible_devices, r.mig));
  if (options.quick) return report;
  if (!r.wedged.empty()) {
    r.run("nccl-allreduce", -1);  // says which GPU hung
  } else if (!all_memory) {
    r.not_run("nccl-allreduce", -1, StepStatus::skipped, "not run: memory did not work on every GPU");
  } else {
    r.run_if("nccl-allreduce", -1, nullptr, "nccl", "NCCL");
  }
  if (devices < 2) {
    r.not_run("peer-access", -1, StepStatus::skipped, "only one GPU visible: no peer to reach");
  } else if (all_memory || !r.wedged.empty()) {
    r.run("peer-access", -1);
  } else {
    r.not_run("peer-access", -1, StepStatus::skipped, "not run: memory did not work on every GPU");
  }
  return report;
}

}  // namespace gpudoctor::gpu
