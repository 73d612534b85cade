#include "explain/explain_machine.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <functional>

#include "core/text.hpp"
#include "explain/rule.hpp"
#include "explain/rule_matcher.hpp"
#include "kb/driver_branch_advice.hpp"
#include "kb/knowledge_base.hpp"
#include "model/framework.hpp"

namespace gpudoctor {

namespace {

Truth truth(bool b) {
  return b ? Truth::yes : Truth::no;
}

std::optional<Platform> platform_of(const ExplainMachine& m) {
  if (m.facts != nullptr) {
    if (m.facts->os.wsl2) return Platform::wsl2;
    return m.facts->platform;
  }
  return m.platform ? m.platform : m.log.platform;
}

/// The conditions the log alone can answer, for a machine without facts: a framework build
/// (a `+cpu` wheel, "CUDA used to build PyTorch: None" / a `+cuNNN` wheel) and TensorFlow on
/// native Windows (its version against the tables).
Truth log_condition(std::string_view condition, const ExplainMachine& machine) {
  const LogFacts& log = machine.log;
  bool cpu = log.cpu_build, cuda = false;
  for (const auto& [framework, version] : log.versions) {
    if (version.find("+cpu") != std::string::npos) cpu = true;
    if (version.find("+cu") != std::string::npos && version.find("+cpu") == std::string::npos) cuda = true;
  }
  if (condition == "framework-cpu-build") return cpu ? Truth::yes : (cuda ? Truth::no : Truth::unknown);
  if (condition == "nvidia-wheels") return log.nvidia_wheels ? Truth::yes : Truth::unknown;
  if (condition == "framework-cuda-build") return cuda ? Truth::yes : (cpu ? Truth::no : Truth::unknown);
  if (condition == "tf-windows-no-gpu") {
    const auto tf = log.versions.find("tensorflow");
    const auto platform = platform_of(machine);
    if (tf == log.versions.end() || !platform) return Truth::unknown;
    if (*platform != Platform::windows) return Truth::no;
    const auto version = Version::parse(tf->second);
    if (!version || machine.kb == nullptr) return Truth::unknown;
    return truth(!machine.kb->tf_native_windows_gpu(*version));
  }
  return Truth::unknown;
}

/// The PyTorch that wrote the log (pip's `Successfully installed torch-2.4.0+cpu`, collect_env, or
/// the machine's).
std::optional<Version> torch_version_of(const ExplainMachine& machine) {
  return framework_version_of(machine, "pytorch", "torch");
}

/// PyTorch's own wheels and the C++ ABI they were built with (`torch._C._GLIBCXX_USE_CXX11_ABI`):
/// the old ABI up to 2.5; in 2.6 only the CUDA 12.6 build has the new one; every build from 2.7
/// (pytorch#143962, the manylinux_2_28 move of pytorch#123649). A pre-release with a local tag that
/// is no CUDA/CPU tag (NVIDIA's containers, `2.4.0a0+3bcc3cd`) is another build: unknown.
Truth torch_cxx11_abi(const ExplainMachine& machine) {
  const auto v = torch_version_of(machine);
  if (!v) return Truth::unknown;
  const std::string& tag = v->local();
  const bool wheel_tag = tag.empty() || tag == "cpu" || tag.rfind("cu", 0) == 0;
  if (!wheel_tag) return Truth::unknown;
  if (*v >= Version::of({2, 7})) return Truth::yes;
  if (v->same_series(Version::of({2, 6}), 2)) {
    if (tag == "cu126") return Truth::yes;
    return tag.empty() ? Truth::unknown : Truth::no;  // 2.6.0 from PyPI alone: cu124, but say so only when tagged
  }
  return Truth::no;
}

/// torch 2.4.0's Windows fbgemm.dll imports LLVM's OpenMP runtime (libomp140.x86_64.dll), which
/// neither the wheel nor the Visual C++ Redistributable brings; 2.4.1 was built without it
/// (pytorch#131662, PR #130697). A nightly/pre-release of the time may have it too: unknown.
Truth torch_fbgemm_needs_libomp(const ExplainMachine& machine) {
  const auto v = torch_version_of(machine);
  if (!v) return Truth::unknown;
  if (!v->pre().empty()) {
    const bool then = v->same_series(Version::of({2, 4}), 2) || v->same_series(Version::of({2, 5}), 2);
    return then ? Truth::unknown : Truth::no;
  }
  return truth(v->same_series(Version::of({2, 4, 0}), 3));
}

std::string first_capture(const CaptureMap& captures, const std::string& name) {
  auto it = captures.find(name);
  if (it == captures.end() || it->second.empty()) return {};
  return it->second.front();
}

/// The trailing number of a library name: cudnn64_8.dll -> 8, libcudnn.so.8 -> 8,
/// cudnn_ops_infer64_8.dll -> 8, libcudnn.so.8.1.0 -> 8.
std::optional<int> library_major(std::string_view lib) {
  std::string s = to_lower(lib);
  for (std::string_view ext : {".dll", ".so"}) {
    size_t at = s.find(ext);
    if (at == std::string::npos) continue;
    if (ext == ".dll") {
      // name64_8.dll / cudart64_110.dll: digits after the last '_'
      size_t us = s.rfind('_', at);
      if (us == std::string::npos) return std::nullopt;
      std::string digits = s.substr(us + 1, at - us - 1);
      if (digits.empty() || digits.size() > 4 ||
          !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); })) {
        return std::nullopt;
      }
      return std::stoi(digits.substr(0, digits.size() >= 3 ? digits.size() - 1 : digits.size()));
    }
    size_t p = at + 3;
    if (p < s.size() && s[p] == '.') {
      int v = 0;
      size_t q = p + 1;
      while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q])) && v < 10000) {
        v = v * 10 + (s[q] - '0');
        ++q;
      }
      if (q > p + 1) return v;
    }
  }
  return std::nullopt;
}

/// The CUDA version a library file name was built for: cudart64_110.dll -> 11.0,
/// cublas64_10.dll -> 10, libcudart.so.11.0 -> 11.0, libcusolver.so.10 -> 10.
std::string library_cuda_version(std::string_view lib) {
  std::string s = to_lower(lib);
  size_t dll = s.find(".dll");
  if (dll != std::string::npos) {
    size_t us = s.rfind('_', dll);
    if (us == std::string::npos) return {};
    std::string d = s.substr(us + 1, dll - us - 1);
    if (d.size() == 3) return d.substr(0, 2) + "." + d.substr(2);
    return d;
  }
  size_t so = s.find(".so.");
  if (so != std::string::npos) return s.substr(so + 4);
  return {};
}

bool is_cudnn(std::string_view name) {
  return contains(to_lower(name), "cudnn");
}

std::vector<const LibraryFacts*> libraries_named(const Facts& f, std::string_view name) {
  std::vector<const LibraryFacts*> out;
  for (const auto& l : f.libraries) {
    if (l.name == name) out.push_back(&l);
  }
  return out;
}

bool any_framework(const Facts& f, const std::function<bool(const FrameworkFacts&)>& pred) {
  for (const auto& env : f.python_envs) {
    for (const auto& fw : env.frameworks) {
      if (pred(fw)) return true;
    }
  }
  return false;
}

/// A GPU of this machine whose last driver branch is older than the installed driver (the
/// doctor's driver-drops-gpu; on Windows and WSL2 the Windows driver's numbering).
Truth driver_drops_gpu(const Facts& f, const KnowledgeBase* kb) {
  if (kb == nullptr || !f.driver.version) return Truth::unknown;
  const Platform numbering = f.platform == Platform::linux && !f.os.wsl2 ? Platform::linux : Platform::windows;
  for (const GpuFacts& g : f.gpus) {
    auto b = kb->last_driver_branch(g);
    if (b && kb->driver_past_branch(*f.driver.version, b->major, numbering)) return Truth::yes;
  }
  return Truth::no;
}

/// A cuDNN the dynamic loader finds on its own search path (LD_LIBRARY_PATH, ld.so.cache) of the
/// same major as an environment's nvidia-cudnn wheel but another version. The loader searches
/// LD_LIBRARY_PATH before the wheel's RUNPATH, and cuDNN 9 opens its engine sub-libraries by
/// bare soname, so one process can end up with parts of both (pytorch#102535, #188892). Other
/// majors do not mix: their sonames differ. Unknown versions say nothing.
Truth cudnn_loader_mix(const Facts& f) {
  bool wheel = false;
  for (const auto& env : f.python_envs) {
    for (const auto& w : env.nvidia_wheels) {
      if (w.library != "cudnn") continue;
      wheel = true;
      for (const auto* l : libraries_named(f, "cudnn")) {
        if (!l->loader_order || l->origin == "pip-wheel" || !l->version) continue;
        if (l->version->major() == w.version.major() && !l->version->same_series(w.version, 3)) return Truth::yes;
      }
    }
  }
  return wheel ? Truth::no : Truth::unknown;
}

bool driver_loaded(const Facts& f) {
  return f.driver.version.has_value() || f.driver.nvidia_module_loaded || f.driver.nvml_status == LibraryStatus::ok;
}

std::vector<int> cudnn_majors(const Facts& f) {
  std::vector<int> out;
  for (const auto* l : libraries_named(f, "cudnn")) {
    if (l->version) out.push_back(l->version->major());
  }
  for (const auto& env : f.python_envs) {
    for (const auto& w : env.nvidia_wheels) {
      if (w.library == "cudnn") out.push_back(w.version.major());
    }
  }
  return out;
}

/// Frameworks built for cuDNN `want` whose environment's nvidia-cudnn wheel is another major: a
/// later install replaced the wheel they pin (torch 2.3.1, then jax[cuda12]: 8.9.2.26 -> 9.x), and
/// the frameworks there that use the installed one.
std::string replaced_cudnn_wheels(const Facts& f, int want) {
  std::vector<std::string> out;
  for (const auto& env : f.python_envs) {
    const NvidiaWheel* wheel = nullptr;
    for (const auto& w : env.nvidia_wheels) {
      if (w.library == "cudnn") wheel = &w;
    }
    if (wheel == nullptr || wheel->version.major() == want) continue;
    std::vector<std::string> built_for_want;
    std::vector<std::string> users;
    for (const auto& fw : env.frameworks) {
      if (!fw.cudnn_version) continue;
      // JAX's cuDNN is its CUDA plugin's requirement.
      const std::string name =
          (fw.name == "jax-cuda-plugin" ? "JAX" : installed_display_name(fw.name)) + " " + fw.version.str();
      if (fw.cudnn_version->major() == want) {
        built_for_want.push_back(fmt::format("{} (built with cuDNN {})", name, fw.cudnn_version->str()));
      } else if (fw.cudnn_version->major() == wheel->version.major()) {
        users.push_back(name);
      }
    }
    if (built_for_want.empty()) continue;
    out.push_back(
        fmt::format("in {}, {} needs cuDNN {}, but the environment's {} is {}: another install replaced "
                    "the one it pins{}",
                    env.path, join(built_for_want, ", "), want, wheel->package, wheel->version.str(),
                    users.empty() ? "" : " (" + join(users, ", ") + " there uses that one)"));
  }
  return join(out, "; ");
}

bool library_file_present(const Facts& f, std::string_view file) {
  const std::string want = to_lower(file);
  for (const auto& l : f.libraries) {
    for (const auto& name : l.files) {
      if (to_lower(name) == want) return true;
    }
  }
  for (const auto& d : f.driver.files) {
    if (to_lower(d.name) == want && !d.path.empty()) return true;
  }
  return false;
}

}  // namespace

/// Fact rules' captures that say something happened, and the condition each one makes true.
constexpr std::pair<const char*, const char*> kLogEvents[] = {
    {"pip_build", "pip-build"},
    {"device_assert", "device-assert"},
    {"jax_plugin_failed", "jax-plugin-failed"},
    {"triton_ptxas", "triton-ptxas"},
    {"triton_ptxas_path", "triton-ptxas-path"},
    {"triton_ptxas_legacy", "triton-ptxas-legacy"},
    {"cuda_error", "cuda-error"},
    {"xformers_triton_probe", "xformers-triton-probe"},
    {"host_oom", "host-oom"},
    {"compiled_extension", "compiled-extension"},
    {"onnxruntime_log", "onnxruntime-log"},
    {"gpu_selection", "gpu-selection"},
    {"cuda_ld_path", "cuda-ld-path"},
    {"tf_log", "tf-log"},
    {"jax_log", "jax-log"},
    {"colab", "colab"},
    {"tf_pip_install", "tf-pip-install"},
    {"conda_env", "conda-env"},
    {"vllm_log", "vllm-log"},
    {"cdi_error", "cdi-error"},
    {"mig_enabled", "mig-enabled"},
    {"paddle_log", "paddle-log"},
    {"torch_log", "torch-log"},
    {"msstore_python", "msstore-python"},
    {"msvc_build", "msvc-build"},
    {"ctranslate2_log", "ctranslate2-log"},
    {"jetson", "jetson"},
    {"nccl_many_interfaces", "nccl-many-interfaces"},
    {"source_built_cuda", "source-built-cuda"},
    {"lightning_ddp", "lightning-ddp"},
    {"slurm_job", "slurm"},
    {"lightning_rank0_repeated", "lightning-rank0-repeated"},
    {"lightning_other_rank", "lightning-other-rank"},
    {"hang_reported", "hang-reported"},
    {"nccl_inter_node", "nccl-inter-node"},
    {"nccl_cuda_failure_other", "nccl-cuda-failure-other"},
    {"lightning_multi_process", "lightning-multi-process"},
    {"talos", "talos"},
    {"rm_init_failed", "rm-init-failed"},
    {"nv_run_no_kernel_modules", "nvidia-run-no-kernel-modules"},
    {"macos_log", "macos-log"},
    {"rocm_log", "rocm-log"},
    {"xpu_log", "xpu-log"},
    {"ort_cpu_package", "ort-cpu-package"},
    {"ort_gpu_package", "ort-gpu-package"},
    {"extension_build_failed", "extension-build-failed"},
    {"kernel_module_loaded", "kernel-module-loaded"},
    {"tf_cudart_stub", "tf-cudart-stub"},
    {"tf_gpu_found", "tf-gpu-found"},
    {"sgx_enclave", "sgx-enclave"},
    {"nvidia_gpu_kernel", "nvidia-gpu-kernel"},
    {"conda_not_found", "conda-not-found"},
    {"conda_python_conflict", "conda-python-conflict"},
    {"enroot_container", "enroot"},
    {"ray_log", "ray"},
    {"accelerate_processes", "accelerate-multi-process"},
    {"accelerate_device_nonzero", "accelerate-device-nonzero"},
    {"horovod_log", "horovod"},
    {"pip_cuda_wheel", "pip-cuda-wheel"},
    {"cuda10_missing", "cuda10-missing"},
    {"conda_cuda_conflict", "conda-cuda-conflict"},
    {"flash_attn_package", "flash-attn-package"},
    {"torch_sdpa", "torch-sdpa"},
    {"dynamo_suppressed", "dynamo-suppressed"},
    {"pytorch_index", "pytorch-index"},
    {"flash_attn_not_built", "flash-attn-not-built"},
    {"xformers_device_cpu", "xformers-device-cpu"}};

/// Conditions read from two versions the log shows, not from one capture (LogFacts::events):
/// the NVIDIA kernel module's and the driver's user-space libraries'; and NCCL wheels of two CUDA
/// majors (nvidia-nccl-cu11 and -cu12), which install the same nvidia/nccl/lib/libnccl.so.2. Yes or
/// unknown, like the events above: a candidate that needs one is not listed unless the log shows both.
constexpr const char* kLogVersionEvents[] = {"nvidia-module-other-branch", "nvidia-module-same-branch",
                                             "nccl-wheels-two-majors"};

/// `tensorflow<X.Y`: the TensorFlow that wrote the log is older than X.Y. Its version as the log
/// names it, else the bound its source paths set (LogFacts::tf_below), else the machine's when all
/// its environments agree. Like a log event it is yes or unknown, never no: a candidate that needs
/// an older TensorFlow is not listed unless the log shows one, and one that needs a newer one
/// (`!tensorflow<2.14`) is not listed when it does.
namespace {

constexpr std::string_view kTensorflowOlderThan = "tensorflow<";

Truth tensorflow_older_than(std::string_view bound_text, const ExplainMachine& machine) {
  const auto bound = Version::parse(bound_text);
  if (!bound) return Truth::unknown;
  std::optional<Version> v;
  if (const auto it = machine.log.versions.find("tensorflow"); it != machine.log.versions.end()) {
    v = Version::parse(it->second);
  } else if (machine.log.tf_below) {
    return *machine.log.tf_below <= *bound ? Truth::yes : Truth::unknown;
  } else {
    v = framework_version_of(machine, "tensorflow", "tensorflow");
  }
  return v && *v < *bound ? Truth::yes : Truth::unknown;
}

}  // namespace

/// `ptxas-cuda-dropped-arch` / `ptxas-cuda-predates-arch`: ptxas refused the architecture in the
/// rule's `arch` (or `sm`) capture, and every CUDA release the log names for its toolkit or ptxas
/// (LogFacts::cuda_releases) is at or after the release that dropped it, or before the first that
/// knows it. Like a log event yes or unknown, never no: no release named, or releases on both sides
/// (two toolkits, or one that knows the architecture and so is not the ptxas that refused it), tell
/// nothing.
namespace {

constexpr std::string_view kPtxasCudaDroppedArch = "ptxas-cuda-dropped-arch";
constexpr std::string_view kPtxasCudaPredatesArch = "ptxas-cuda-predates-arch";
/// `nvcc-cuda-knows-arch`: some CUDA release the log names compiles for the refused architecture
/// (at or after the first release that knows it, CUDA 7.0 where that is not sourced, and before the
/// one that dropped it), so the compiler that refused it is another, older or newer, toolkit's
/// (session 40 review C: torch/cunn#242, BVLC/caffe#6255). Yes or unknown; not a log event, so
/// the candidate that uses it stays listed when the log names no release.
constexpr std::string_view kNvccCudaKnowsArch = "nvcc-cuda-knows-arch";

/// The CUDA release that dropped each architecture: CMake's CMakeCUDAArchitecturesAll.cmake and
/// compat/cuda_arch.toml (9.0 removes 2.0/2.1, 11.0 3.0, 12.0 3.5/3.7, 13.0 5.0 to 7.2). The first
/// release that knows it where that is sourced: sm_60-62 from CUDA 8.0 and sm_70 from 9.0 (CMake
/// adds them there), sm_72 from 9.1 (LLVM's MinVersionForOffloadArch, clang/lib/Basic/Cuda.cpp);
/// for the older ones CMake's list starts at CUDA 7.0, which knows them all, so "older than the
/// architecture" is never concluded for them.
struct PtxasArchReleases {
  std::string_view arch;
  std::string_view first;  ///< "" when not sourced
  std::string_view dropped;
};
constexpr PtxasArchReleases kPtxasArchReleases[] = {
    {"sm_20", "", "9.0"},     {"sm_21", "", "9.0"},     {"sm_30", "", "11.0"},    {"sm_35", "", "12.0"},
    {"sm_37", "", "12.0"},    {"sm_50", "", "13.0"},    {"sm_52", "", "13.0"},    {"sm_53", "", "13.0"},
    {"sm_60", "8.0", "13.0"}, {"sm_61", "8.0", "13.0"}, {"sm_62", "8.0", "13.0"}, {"sm_70", "9.0", "13.0"},
    {"sm_72", "9.1", "13.0"},
};

Truth ptxas_cuda_release(std::string_view condition, const CaptureMap& captures, const ExplainMachine& machine) {
  std::string arch = first_capture(captures, "arch");
  if (arch.empty()) arch = first_capture(captures, "sm");
  if (arch.starts_with("compute_")) arch = "sm_" + arch.substr(8);  // nvcc names the virtual one
  const auto* row = std::find_if(std::begin(kPtxasArchReleases), std::end(kPtxasArchReleases),
                                 [&](const PtxasArchReleases& r) { return r.arch == arch; });
  const auto& releases = machine.log.cuda_releases;
  if (row == std::end(kPtxasArchReleases) || releases.empty()) return Truth::unknown;
  if (condition == kNvccCudaKnowsArch) {
    const Version first = *Version::parse(row->first.empty() ? std::string_view("7.0") : row->first);
    const Version dropped = *Version::parse(row->dropped);
    return std::any_of(releases.begin(), releases.end(), [&](const Version& v) { return v >= first && v < dropped; })
               ? Truth::yes
               : Truth::unknown;
  }
  if (condition == kPtxasCudaDroppedArch) {
    const Version dropped = *Version::parse(row->dropped);
    return std::all_of(releases.begin(), releases.end(), [&](const Version& v) { return v >= dropped; })
               ? Truth::yes
               : Truth::unknown;
  }
  if (row->first.empty()) return Truth::unknown;
  const Version first = *Version::parse(row->first);
  return std::all_of(releases.begin(), releases.end(), [&](const Version& v) { return v < first; }) ? Truth::yes
                                                                                                    : Truth::unknown;
}

}  // namespace

/// `tf-dso-loader`: the rule's own line is TensorFlow's DSO loader's ("Could not load dynamic
/// library 'X'; dlerror: ...", tsl/platform/default/dso_loader.cc, before TSL
/// tensorflow/stream_executor/platform/default/dso_loader.cc), which the rule marks with a
/// `tf_dso_loader` capture. A property of the line, not of the log: a log that also shows PyTorch
/// (one notebook imports both) does not make TensorFlow's loader PyTorch's. Yes or unknown, like a
/// log event.
constexpr std::string_view kTfDsoLoader = "tf-dso-loader";
/// `xid-process`: the rule's own Xid line names the process it was raised under (", pid=1234,
/// name=python"), so it came during a workload, not while the module brought the GPU up: any
/// process but those that load the module or open the GPU first.
constexpr std::string_view kXidProcess = "xid-process";
/// `pip-list-unlabelled`: the rule's own pip line lists torch versions none of which carries a local
/// label (`pip_plain_list` capture): PyPI's list, as PyTorch's CUDA indexes label every entry, whatever
/// index another pip command of the log used. `pip-index-other-label`: the first version the line
/// lists carries another label (`first_label`) than the one asked (`variant`): the index is another
/// CUDA's. Properties of the line; yes or unknown, like a log event (the second re-read, session 42).
constexpr std::string_view kPipListUnlabelled = "pip-list-unlabelled";
constexpr std::string_view kPipIndexOtherLabel = "pip-index-other-label";

/// `gpu-cc-is-arch` / `gpu-cc-above-arch`: the compute capabilities of the GPUs the log lists
/// (LogFacts::gpu_ccs) against the rule's `arch` capture in ggml's form (610 is 6.1, the
/// architecture of the code that ran) and its `compiled` list. Above: a GPU whose own arch the
/// build lacks and whose newest compiled arch at or below its own is `arch` ran that older code.
/// Is-arch: a GPU of `arch` ran its own code, so the kernel itself does not support it, and no
/// GPU is above. Another GPU whose arch is in the list runs its own code and decides nothing
/// (the re-read, session 42: P40 and RTX 3090 on a 610,860 build). Yes or unknown, like a
/// log event: the guard's arch alone is always one of the build's, whatever the GPU (session 42
/// review A, log 20).
namespace {

constexpr std::string_view kGpuCcIsArch = "gpu-cc-is-arch";
constexpr std::string_view kGpuCcAboveArch = "gpu-cc-above-arch";

Truth gpu_cc_against_arch(std::string_view condition, const CaptureMap& captures, const ExplainMachine& machine) {
  const std::string arch = first_capture(captures, "arch");
  const auto& ccs = machine.log.gpu_ccs;
  if (arch.size() < 2 || arch.size() > 4 || ccs.empty() ||
      !std::all_of(arch.begin(), arch.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return Truth::unknown;
  }
  const int ran = std::stoi(arch);
  std::vector<int> compiled;  // the build's archs, ggml's form
  const std::string list = first_capture(captures, "compiled");
  for (size_t i = 0; i < list.size();) {
    const size_t end = std::min(list.find_first_not_of("0123456789", i), list.size());
    if (end > i && end - i <= 4) compiled.push_back(std::stoi(list.substr(i, end - i)));
    i = end + 1;
  }
  if (compiled.empty()) compiled.push_back(ran);  // the guard's arch is always one of the build's
  const auto own_arch = [](const Version& v) { return static_cast<int>(v.major() * 100 + v.minor() * 10); };
  // The arch of the code a GPU runs: its own when built, else the newest built below it.
  const auto runs = [&](const Version& v) {
    const int own = own_arch(v);
    if (std::find(compiled.begin(), compiled.end(), own) != compiled.end()) return own;
    int best = -1;
    for (int c : compiled) best = c < own ? std::max(best, c) : best;
    return best;
  };
  const bool above =
      std::any_of(ccs.begin(), ccs.end(), [&](const Version& v) { return own_arch(v) != ran && runs(v) == ran; });
  if (condition == kGpuCcAboveArch) return above ? Truth::yes : Truth::unknown;
  return !above && std::any_of(ccs.begin(), ccs.end(), [&](const Version& v) { return own_arch(v) == ran; })
             ? Truth::yes
             : Truth::unknown;
}

}  // namespace

bool is_log_event_condition(std::string_view condition) {
  return condition.starts_with(kTensorflowOlderThan) || condition == kPtxasCudaDroppedArch ||
         condition == kGpuCcIsArch || condition == kGpuCcAboveArch || condition == kTfDsoLoader ||
         condition == kXidProcess || condition == kPtxasCudaPredatesArch || condition == kPipListUnlabelled ||
         condition == kPipIndexOtherLabel ||
         std::any_of(std::begin(kLogEvents), std::end(kLogEvents),
                     [&](const auto& e) { return condition == e.second; }) ||
         std::any_of(std::begin(kLogVersionEvents), std::end(kLogVersionEvents),
                     [&](const char* e) { return condition == e; });
}

const std::vector<std::string>& explain_condition_names() {
  static const std::vector<std::string> kNames = {"platform-windows",
                                                  "platform-wsl2",
                                                  "platform-linux",
                                                  "container",
                                                  "driver-loaded",
                                                  "no-driver",
                                                  "gpu-present",
                                                  "no-gpu",
                                                  "multi-gpu",
                                                  "cudnn-present",
                                                  "cudnn-other-major",
                                                  "lib-found",
                                                  "toolkit-present",
                                                  "framework-cpu-build",
                                                  "framework-cuda-build",
                                                  "tf-windows-no-gpu",
                                                  "nvidia-wheels",
                                                  "driver-drops-gpu",
                                                  "cudnn-loader-mix",
                                                  "pip-build",
                                                  "device-assert",
                                                  "jax-plugin-failed",
                                                  "triton-ptxas",
                                                  "triton-ptxas-path",
                                                  "triton-ptxas-legacy",
                                                  "tf-windows-no-gpu-likely",
                                                  "cuda-error",
                                                  "xformers-triton-probe",
                                                  "host-oom",
                                                  "compiled-extension",
                                                  "onnxruntime-log",
                                                  "gpu-selection",
                                                  "cuda-ld-path",
                                                  "torch-cxx11-abi",
                                                  "torch-fbgemm-needs-libomp",
                                                  "tf-log",
                                                  "jax-log",
                                                  "colab",
                                                  "tf-pip-install",
                                                  "conda-env",
                                                  "ptxas-cuda-dropped-arch",
                                                  "ptxas-cuda-predates-arch",
                                                  "nvcc-cuda-knows-arch",
                                                  "vllm-log",
                                                  "cdi-error",
                                                  "nvidia-module-other-branch",
                                                  "nvidia-module-same-branch",
                                                  "mig-enabled",
                                                  "paddle-log",
                                                  "torch-log",
                                                  "msstore-python",
                                                  "msvc-build",
                                                  "ctranslate2-log",
                                                  "jetson",
                                                  "nccl-many-interfaces",
                                                  "source-built-cuda",
                                                  "lightning-ddp",
                                                  "slurm",
                                                  "lightning-rank0-repeated",
                                                  "lightning-other-rank",
                                                  "hang-reported",
                                                  "nccl-inter-node",
                                                  "nccl-cuda-failure-other",
                                                  "lightning-multi-process",
                                                  "talos",
                                                  "rm-init-failed",
                                                  "nvidia-run-no-kernel-modules",
                                                  "macos-log",
                                                  "rocm-log",
                                                  "xpu-log",
                                                  "ort-cpu-package",
                                                  "ort-gpu-package",
                                                  "extension-build-failed",
                                                  "kernel-module-loaded",
                                                  "tf-cudart-stub",
                                                  "tf-gpu-found",
                                                  "sgx-enclave",
                                                  "nvidia-gpu-kernel",
                                                  "conda-not-found",
                                                  "conda-python-conflict",
                                                  "enroot",
                                                  "ray",
                                                  "accelerate-multi-process",
                                                  "accelerate-device-nonzero",
                                                  "horovod",
                                                  "pip-cuda-wheel",
                                                  "cuda10-missing",
                                                  "conda-cuda-conflict",
                                                  "flash-attn-package",
                                                  "torch-sdpa",
                                                  "flash-attn-not-built",
                                                  "xformers-device-cpu",
                                                  "gpu-cc-is-arch",
                                                  "gpu-cc-above-arch",
                                                  "dynamo-suppressed",
                                                  "pytorch-index",
                                                  "nccl-wheels-two-majors",
                                                  "tf-dso-loader",
                                                  "xid-process",
                                                  "pip-list-unlabelled",
                                                  "pip-index-other-label",
                                                  "tensorflow<2.14",
                                                  "tensorflow<2.15"};
  return kNames;
}

Truth evaluate_condition(std::string_view condition, const CaptureMap& captures, const ExplainMachine& machine) {
  if (!condition.empty() && condition.front() == '!') {
    Truth t = evaluate_condition(condition.substr(1), captures, machine);
    if (t == Truth::unknown) return t;
    return t == Truth::yes ? Truth::no : Truth::yes;
  }
  const auto platform = platform_of(machine);
  if (condition == "platform-windows") {
    if (platform) return truth(*platform == Platform::windows);
    return machine.log.posix ? Truth::no : Truth::unknown;  // Linux or WSL2, the log does not say which
  }
  if (condition == "platform-wsl2") return platform ? truth(*platform == Platform::wsl2) : Truth::unknown;
  if (condition == "platform-linux") return platform ? truth(*platform == Platform::linux) : Truth::unknown;
  if (condition.starts_with(kTensorflowOlderThan)) {
    return tensorflow_older_than(condition.substr(kTensorflowOlderThan.size()), machine);
  }
  if (condition == kPtxasCudaDroppedArch || condition == kPtxasCudaPredatesArch || condition == kNvccCudaKnowsArch) {
    return ptxas_cuda_release(condition, captures, machine);
  }
  if (condition == kGpuCcIsArch || condition == kGpuCcAboveArch)
    return gpu_cc_against_arch(condition, captures, machine);
  if (condition == kTfDsoLoader) return first_capture(captures, "tf_dso_loader").empty() ? Truth::unknown : Truth::yes;
  if (condition == kPipListUnlabelled) {
    return first_capture(captures, "pip_plain_list").empty() ? Truth::unknown : Truth::yes;
  }
  if (condition == kPipIndexOtherLabel) {
    const std::string label = first_capture(captures, "first_label");
    return !label.empty() && label != first_capture(captures, "variant") ? Truth::yes : Truth::unknown;
  }
  if (condition == kXidProcess) {
    static const std::string_view kStarters[] = {
        "modprobe",       "insmod", "nvidia-modprobe", "nvidia-smi", "nvidia-persistenced",
        "nvidia-persiste"};  // comm: 15 characters
    const auto it = captures.find("xid_process");
    if (it == captures.end()) return Truth::unknown;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](const std::string& name) {
                         return std::find(std::begin(kStarters), std::end(kStarters), name) == std::end(kStarters);
                       })
               ? Truth::yes
               : Truth::unknown;
  }
  // Only the log can say what was running when it was written, machine facts or not.
  if (std::any_of(std::begin(kLogEvents), std::end(kLogEvents), [&](const auto& e) { return condition == e.second; }) ||
      std::any_of(std::begin(kLogVersionEvents), std::end(kLogVersionEvents),
                  [&](const char* e) { return condition == e; })) {
    return machine.log.events.contains(std::string(condition)) ? Truth::yes : Truth::unknown;
  }
  // An empty GPU list on native Windows: with TensorFlow's version known (the log, the machine)
  // as tf-windows-no-gpu; without it, every release since the last with native-Windows GPU
  // support (2.10, 2022) has none, so that is the likely cause (the tables say which release).
  if (condition == "tf-windows-no-gpu-likely") {
    const Truth exact = evaluate_condition("tf-windows-no-gpu", captures, machine);
    if (exact != Truth::unknown || machine.facts != nullptr || machine.kb == nullptr) return exact;
    const bool windows = platform && *platform == Platform::windows;
    return windows && !machine.log.versions.contains("tensorflow") ? Truth::yes : exact;
  }
  // Which PyTorch: the log's own version first, else the machine's (one for all environments).
  if (condition == "torch-cxx11-abi") return torch_cxx11_abi(machine);
  if (condition == "torch-fbgemm-needs-libomp") return torch_fbgemm_needs_libomp(machine);
  // A log written in a container says where the failure happened, whatever machine explains it.
  if (condition == "container" && machine.log.container) return Truth::yes;
  const Facts* f = machine.facts;
  if (f == nullptr) return log_condition(condition, machine);
  if (condition == "container") return truth(!f->os.container.empty());
  if (condition == "driver-loaded") return truth(driver_loaded(*f));
  if (condition == "no-driver") return truth(!driver_loaded(*f));
  if (condition == "gpu-present") return truth(!f->gpus.empty());
  if (condition == "no-gpu") return truth(f->gpus.empty() && !driver_loaded(*f));
  if (condition == "multi-gpu") return truth(f->gpus.size() > 1);
  if (condition == "cudnn-present") return truth(!cudnn_majors(*f).empty() || !libraries_named(*f, "cudnn").empty());
  if (condition == "toolkit-present") return truth(!f->toolkits.empty());
  if (condition == "nvidia-wheels") {
    return truth(std::any_of(f->python_envs.begin(), f->python_envs.end(),
                             [](const PythonEnvFacts& e) { return !e.nvidia_wheels.empty(); }));
  }
  if (condition == "framework-cpu-build") {
    return truth(
        any_framework(*f, [](const FrameworkFacts& fw) { return fw.cuda_build == false || fw.variant == "cpu"; }));
  }
  if (condition == "framework-cuda-build") {
    return truth(any_framework(*f, [](const FrameworkFacts& fw) { return fw.cuda_build == true; }));
  }
  if (condition == "tf-windows-no-gpu") {
    if (!platform || *platform != Platform::windows) return Truth::no;
    if (machine.kb == nullptr) return Truth::unknown;  // which releases: the tables say
    return truth(any_framework(*f, [&](const FrameworkFacts& fw) {
      return fw.name == "tensorflow" && !machine.kb->tf_native_windows_gpu(fw.version);
    }));
  }
  if (condition == "driver-drops-gpu") return driver_drops_gpu(*f, machine.kb);
  if (condition == "cudnn-loader-mix") return cudnn_loader_mix(*f);
  if (condition == "lib-found") {
    const std::string lib = first_capture(captures, "lib");
    if (lib.empty()) return Truth::unknown;
    return truth(library_file_present(*f, lib));
  }
  if (condition == "cudnn-other-major") {
    std::optional<int> want;
    if (auto v = Version::parse(first_capture(captures, "cudnn_major"))) want = v->major();
    const std::string lib = first_capture(captures, "lib");
    if (!want && is_cudnn(lib)) want = library_major(lib);
    if (!want) return Truth::unknown;
    auto majors = cudnn_majors(*f);
    if (majors.empty()) return Truth::no;
    return truth(std::find(majors.begin(), majors.end(), *want) == majors.end());
  }
  return Truth::unknown;
}

namespace {

std::string describe_library(const LibraryFacts& l) {
  return fmt::format("{} {} in {}{}", l.name, l.version ? l.version->str() : "(version unknown)",
                     l.path.empty() ? "?" : l.path, l.origin.empty() ? "" : " (" + l.origin + ")");
}

std::string describe_frameworks(const Facts& f, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& env : f.python_envs) {
    for (const auto& fw : env.frameworks) {
      if (!names.empty() && std::find(names.begin(), names.end(), fw.name) == names.end()) continue;
      std::string build;
      if (fw.cuda_build == false || fw.variant == "cpu") {
        build = "a CPU-only build";
      } else if (fw.cuda_version) {
        build = "built for CUDA " + fw.cuda_version->str();
        if (fw.cudnn_version) build += ", cuDNN " + fw.cudnn_version->str();
      } else if (!fw.variant.empty()) {
        build = "variant " + fw.variant;
      }
      out.push_back(
          fmt::format("{} {} in {}{}", fw.name, fw.version.str(), env.path, build.empty() ? "" : " (" + build + ")"));
    }
  }
  return join(out, "; ");
}

/// What each installed TensorFlow needs, from the knowledge base's tested builds for this OS
/// (WSL2 uses the Linux rows). A release the tables do not know is left out: no guess.
std::string tensorflow_needs(const Facts& f, const KnowledgeBase& kb, Platform platform) {
  std::vector<std::string> out;
  for (const auto& env : f.python_envs) {
    for (const auto& fw : env.frameworks) {
      if (fw.name != "tensorflow") continue;
      if (platform == Platform::windows && !kb.tf_native_windows_gpu(fw.version)) {
        out.push_back(
            fmt::format("TensorFlow {} (in {}) has no GPU support on native Windows; "
                        "{} was the last such release",
                        fw.version.str(), env.path, kb.tensorflow.windows_gpu_last.str()));
        continue;
      }
      const TfBuild* b = kb.tf_build(fw.version, platform);
      if (b == nullptr || !b->gpu || !b->cuda || !b->cudnn) continue;
      out.push_back(fmt::format("TensorFlow {} (in {}) was tested with CUDA {} and cuDNN {}", fw.version.str(),
                                env.path, b->cuda->str(), b->cudnn->str()));
    }
  }
  return join(out, "; ");
}

/// What each installed framework's CUDA build needs from the driver: the knowledge base's
/// minor-version floor (WSL2 counts as Windows, where the driver lives), the same one the
/// doctor checks. The CUDA version is the build's own when the probe read it, else the tested
/// build of that TensorFlow release.
std::string driver_needs(const Facts& f, const KnowledgeBase& kb, Platform platform) {
  std::vector<std::string> out;
  for (const auto& env : f.python_envs) {
    for (const auto& fw : env.frameworks) {
      if (fw.cuda_build == false || fw.variant == "cpu") continue;
      std::optional<Version> cuda = fw.cuda_version;
      if (!cuda && fw.name == "tensorflow") {
        const TfBuild* b = kb.tf_build(fw.version, platform);
        if (b != nullptr && b->gpu) cuda = b->cuda;
      }
      if (!cuda) continue;
      const std::optional<Version> floor = kb.family_min_driver(*cuda, platform);
      if (!floor) continue;
      const bool older = f.driver.version && *f.driver.version < *floor;
      out.push_back(fmt::format("{} {} (in {}) is built for CUDA {}, which needs NVIDIA driver >= {} ({}){}", fw.name,
                                fw.version.str(), env.path, cuda->str(), floor->str(),
                                platform == Platform::linux ? "Linux" : "Windows",
                                older ? ", newer than the installed " + f.driver.version->str() : ""));
    }
  }
  return join(out, "; ");
}

void add(std::vector<std::string>& parts, std::string s) {
  if (!s.empty()) parts.push_back(std::move(s));
}

}  // namespace

std::string machine_note(const Rule& rule, const CaptureMap& captures, const ExplainMachine& machine) {
  if (machine.facts == nullptr) return {};
  const Facts& f = *machine.facts;
  std::vector<std::string> parts;
  const Platform platform = platform_of(machine).value_or(f.platform);
  const bool windows = platform == Platform::windows;
  const auto tf_needs = [&] {
    return machine.kb != nullptr ? tensorflow_needs(f, *machine.kb, platform) : std::string{};
  };
  const std::string lib = first_capture(captures, "lib");
  if (rule.tailor == "cudnn") {
    auto libs = libraries_named(f, "cudnn");
    std::vector<std::string> found;
    for (const auto* l : libs) found.push_back(describe_library(*l));
    for (const auto& env : f.python_envs) {
      for (const auto& w : env.nvidia_wheels) {
        if (w.library == "cudnn") found.push_back(fmt::format("{} {} in {}", w.package, w.version.str(), env.path));
      }
    }
    auto want = library_major(lib);
    if (found.empty()) {
      add(parts, "no cuDNN was found on this machine");
    } else {
      add(parts, "this machine has " + join(found, "; "));
      std::optional<int> major;  // the cuDNN major the log asks for: a library name, or pip's pin
      if (want && is_cudnn(lib)) {
        major = want;
        auto majors = cudnn_majors(f);
        if (std::find(majors.begin(), majors.end(), *want) == majors.end() && !majors.empty()) {
          add(parts, fmt::format("none of them is cuDNN {}, which {} is", *want, lib));
        }
      } else if (auto pinned = Version::parse(first_capture(captures, "cudnn_major"))) {
        major = pinned->major();
      }
      if (major) add(parts, replaced_cudnn_wheels(f, *major));
    }
    add(parts, tf_needs());
  } else if (rule.tailor == "cuda-runtime") {
    std::vector<std::string> tk;
    for (const auto& t : f.toolkits) {
      tk.push_back(fmt::format("CUDA {} at {}", t.version ? t.version->str() : "(version unknown)", t.path));
    }
    add(parts, tk.empty() ? "no CUDA toolkit was found on this machine" : "this machine has " + join(tk, "; "));
    if (!lib.empty()) {
      std::string cuda = library_cuda_version(lib);
      if (!cuda.empty()) {
        add(parts, fmt::format("{} belongs to CUDA {}{}", lib, cuda,
                               library_file_present(f, lib) ? ", and a copy exists on this machine, so the "
                                                              "search path (PATH / LD_LIBRARY_PATH) is the problem"
                                                            : ", and no copy of it was found"));
      }
    }
    add(parts, tf_needs());
  } else if (rule.tailor == "driver") {
    if (driver_loaded(f)) {
      add(parts, fmt::format("the NVIDIA driver {}{} is installed",
                             f.driver.version ? f.driver.version->str() : "(version unknown)",
                             f.driver.cuda_driver_version
                                 ? " (supports CUDA up to " + f.driver.cuda_driver_version->str() + ")"
                                 : ""));
    } else {
      add(parts, "no loaded NVIDIA driver was found on this machine");
    }
    if (f.gpus.empty()) {
      add(parts, "no NVIDIA GPU was found");
    } else {
      std::vector<std::string> g;
      for (const auto& gpu : f.gpus) g.push_back(gpu.name);
      add(parts, "GPUs: " + join(g, ", "));
    }
    if (machine.kb != nullptr) add(parts, driver_needs(f, *machine.kb, platform));
    if (f.driver.nouveau_loaded) add(parts, "the nouveau driver is loaded and holds the GPU");
    if (!f.os.container.empty()) add(parts, "this is a " + f.os.container + " container");
  } else if (rule.tailor == "framework-build") {
    add(parts, describe_frameworks(f, rule.frameworks));
    if (windows) add(parts, tf_needs());
  } else if (rule.tailor == "gpu-arch" || rule.tailor == "nvcc-arch") {
    std::vector<std::string> g;
    for (const auto& gpu : f.gpus) {
      g.push_back(gpu.cc_major
                      ? fmt::format("{} (compute capability {}.{})", gpu.name, *gpu.cc_major, gpu.cc_minor.value_or(0))
                      : gpu.name);
    }
    if (!g.empty()) add(parts, "GPUs: " + join(g, ", "));
    for (const auto& env : f.python_envs) {
      for (const auto& fw : env.frameworks) {
        if (!fw.compute_capabilities.empty()) {
          add(parts, fmt::format("{} {} in {} has kernels for {}", fw.name, fw.version.str(), env.path,
                                 join(fw.compute_capabilities, " ")));
        }
      }
    }
  } else if (rule.tailor == "python") {
    std::vector<std::string> py;
    for (const auto& env : f.python_envs) {
      if (env.python_version) py.push_back(fmt::format("Python {} ({})", env.python_version->str(), env.path));
    }
    if (!py.empty()) add(parts, "this machine has " + join(py, "; "));
  } else if (rule.tailor == "wsl2") {
    if (f.os.wsl2) {
      add(parts,
          fmt::format("this is WSL2; /usr/lib/wsl/lib {}, /dev/dxg {}", f.os.wsl_lib_dir ? "exists" : "is MISSING",
                      f.os.wsl_dxg_device ? "exists" : "is MISSING"));
    }
  } else if (rule.tailor == "container") {
    add(parts, f.os.container.empty() ? "this machine does not look like a container"
                                      : "this is a " + f.os.container + " container");
    add(parts, driver_loaded(f) ? "an NVIDIA driver is visible" : "no NVIDIA driver is visible here");
  } else if (rule.tailor == "memory") {
    std::vector<std::string> g;
    for (const auto& gpu : f.gpus) {
      if (gpu.memory_total_bytes) {
        g.push_back(fmt::format("{} with {:.1f} GiB", gpu.name,
                                static_cast<double>(*gpu.memory_total_bytes) / (1024.0 * 1024 * 1024)));
      }
    }
    if (!g.empty()) add(parts, "GPUs: " + join(g, ", "));
  } else if (rule.tailor == "legacy-driver") {
    add(parts, driver_loaded(f) ? fmt::format("the NVIDIA driver {} is installed",
                                              f.driver.version ? f.driver.version->str() : "(version unknown)")
                                : "no loaded NVIDIA driver was found on this machine");
    std::vector<std::string> g;
    for (const auto& gpu : f.gpus) {
      g.push_back(gpu.pci_device_id.empty() ? gpu.name : gpu.name + " (PCI device 10de:" + gpu.pci_device_id + ")");
    }
    if (!g.empty()) add(parts, "GPUs: " + join(g, ", "));
    if (!f.os.name.empty()) add(parts, "the distribution is " + f.os.name);
  } else if (rule.tailor == "nccl") {
    std::vector<std::string> found;
    for (const auto* l : libraries_named(f, "nccl")) found.push_back(describe_library(*l));
    if (!found.empty()) add(parts, "NCCL on this machine: " + join(found, "; "));
    add(parts, fmt::format("{} GPU(s) found", f.gpus.size()));
    if (!f.os.container.empty())
      add(parts, "this is a " + f.os.container + " container (check --shm-size / --ipc=host)");
  }
  return join(parts, "; ");
}

namespace {

/// What nvcc was asked to compile for: "compute_86" -> 8.6; "sm_90a" -> 9.0 with the
/// architecture-specific suffix 'a'; "sm_100f" -> 10.0, family-specific 'f'; "lto_80" -> 8.0 as
/// LTO-IR.
struct NvccTarget {
  Version cc;
  char suffix = 0;  ///< 0, 'a' or 'f'
  bool lto = false;
};

std::optional<NvccTarget> nvcc_target(const std::string& arch) {
  const size_t underscore = arch.find('_');
  if (underscore == std::string::npos) return std::nullopt;
  const std::string kind = arch.substr(0, underscore);
  if (kind != "compute" && kind != "sm" && kind != "lto") return std::nullopt;
  std::string digits;
  size_t i = underscore + 1;
  for (; i < arch.size() && arch[i] >= '0' && arch[i] <= '9'; ++i) digits += arch[i];
  if (digits.size() < 2 || digits.size() > 3) return std::nullopt;
  NvccTarget target;
  if (i < arch.size()) {
    if (i + 1 != arch.size() || (arch[i] != 'a' && arch[i] != 'f')) return std::nullopt;
    target.suffix = arch[i];
  }
  auto cc = Version::parse(digits.substr(0, digits.size() - 1) + "." + digits.back());
  if (!cc) return std::nullopt;
  target.cc = *cc;
  target.lto = kind == "lto";
  return target;
}

/// The oldest toolkit that accepts the target's form, beyond the architecture itself: the 'a'
/// targets begin with 9.0a in CUDA 12.0, the 'f' targets with CUDA 12.9, LTO-IR with 11.2 (the
/// nvcc documentation's GPU feature list and each release's notes).
std::optional<Version> form_floor(const NvccTarget& t) {
  std::optional<Version> floor;
  auto raise = [&](const char* v) {
    auto parsed = Version::parse(v);
    if (parsed && (!floor || *parsed > *floor)) floor = parsed;
  };
  if (t.suffix == 'a') raise("12.0");
  if (t.suffix == 'f') raise("12.9");
  if (t.lto) raise("11.2");
  return floor;
}

/// Which CUDA toolkits compile for the target nvcc refused (compat/cuda_arch.toml, whose rows
/// run from the oldest toolkit to the newest), and whether this machine's toolkits do: nvcc
/// refuses an architecture newer than itself and one its release dropped alike.
std::string nvcc_arch_fix(const CaptureMap& captures, const ExplainMachine& machine) {
  const std::string arch = first_capture(captures, "arch");
  const std::optional<NvccTarget> target = nvcc_target(arch);
  if (!target) return {};
  const Version& cc = target->cc;
  const KnowledgeBase& kb = *machine.kb;
  const auto& rows = kb.toolkit_archs;
  if (rows.empty()) return {};
  // 'a' exists from Hopper on, 'f' from Blackwell on: "sm_86a" is no target of any toolkit.
  if ((target->suffix == 'a' && cc < Version::of({9, 0})) || (target->suffix == 'f' && cc < Version::of({10, 0}))) {
    return fmt::format(
        "{} is not a target of any CUDA toolkit: the '{}' variants exist for compute capability {} "
        "and later; ask for compute_{}{} instead.",
        arch, target->suffix, target->suffix == 'a' ? "9.0" : "10.0", cc.major(), cc.minor());
  }
  const std::optional<Version> floor = form_floor(*target);
  auto compiles = [&](const ToolkitArch& row) {
    return std::find(row.sass.begin(), row.sass.end(), cc) != row.sass.end();
  };
  auto accepts = [&](const ToolkitArch& row, const Version& cuda) {
    return compiles(row) && (!floor || cuda.truncated(2) >= *floor);
  };
  auto lowest = [](const ToolkitArch& row) { return row.cuda.lowest() ? row.cuda.lowest()->str() : row.cuda.text(); };
  auto highest = [](const ToolkitArch& row) {
    return row.cuda.highest() ? row.cuda.highest()->str() : row.cuda.text();
  };
  std::optional<size_t> first;
  std::optional<size_t> last;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!compiles(rows[i])) continue;
    if (!first) first = i;
    last = i;
  }
  // The first release that takes this form of the architecture: its row's, or the form's own.
  auto first_release = [&]() {
    std::string from = lowest(rows[*first]);
    auto row_low = rows[*first].cuda.lowest();
    if (floor && (!row_low || *row_low < *floor)) from = floor->str();
    return from;
  };
  // A generation the dropping release's note names ("Maxwell, Pascal and Volta ... removed") is
  // quoted only for an architecture of that generation; a renaming in the note is said instead.
  auto dropped_why = [&](const ToolkitArch& dropped) -> std::string {
    const std::string renamed = fmt::format("sm_{}{} -> sm_", cc.major(), cc.minor());
    if (const size_t at = dropped.note.find(renamed); at != std::string::npos) {
      std::string to;
      for (size_t i = at + renamed.size();
           i < dropped.note.size() && std::isdigit(static_cast<unsigned char>(dropped.note[i])); ++i)
        to += dropped.note[i];
      if (!to.empty()) return "renamed compute_" + to + ": ask for that";
    }
    for (const ArchGeneration& g : kb.generations) {
      if (std::find(g.cc.begin(), g.cc.end(), cc) == g.cc.end()) continue;
      const std::string clause = dropped.note.substr(0, dropped.note.find(';'));
      if (clause.find(g.name) != std::string::npos) return clause;
    }
    return {};
  };
  std::vector<std::string> parts;
  // The table starts at CUDA 9.0: an architecture it has from its first row was compiled by
  // older toolkits too, and one it never has may be one that only older toolkits knew.
  if (!first) {
    add(parts, fmt::format("No CUDA toolkit from {} on compiles for {} (compute capability {}).", lowest(rows.front()),
                           arch, cc.str()));
  } else if (*last + 1 == rows.size()) {
    add(parts, fmt::format("{} (compute capability {}) needs CUDA {} or later.", arch, cc.str(), first_release()));
  } else {
    const ToolkitArch& dropped = rows[*last + 1];
    const std::string why = dropped_why(dropped);
    const std::string from =
        *first == 0 && !floor ? "up to " + highest(rows[*last]) : first_release() + " to " + highest(rows[*last]);
    add(parts, fmt::format("{} (compute capability {}) is compiled by CUDA {}; CUDA {} and later do not{}.", arch,
                           cc.str(), from, lowest(dropped), why.empty() ? "" : " (" + why + ")"));
  }
  if (machine.facts != nullptr) {
    std::vector<std::string> can;
    std::vector<std::string> cannot;
    for (const ToolkitFacts& tk : machine.facts->toolkits) {
      if (!tk.version || !tk.has_nvcc) continue;
      const ToolkitArch* row = kb.toolkit_arch(*tk.version);
      if (row == nullptr) continue;
      (accepts(*row, *tk.version) ? can : cannot).push_back(fmt::format("CUDA {} at {}", tk.version->str(), tk.path));
    }
    if (!can.empty()) add(parts, "On this machine " + join(can, ", ") + " does: build with it (CUDA_HOME, PATH).");
    if (!cannot.empty()) add(parts, "On this machine " + join(cannot, ", ") + " does not.");
  }
  return join(parts, " ");
}

}  // namespace

std::string knowledge_fix(const Rule& rule, const CaptureMap& captures, const ExplainMachine& machine) {
  if (machine.kb == nullptr) return {};
  if (rule.tailor == "nvcc-arch") return nvcc_arch_fix(captures, machine);
  if (rule.tailor != "legacy-driver") return {};
  const std::string branch = first_capture(captures, "branch");
  if (branch.empty()) return {};
  std::optional<int> installed;
  if (auto v = Version::parse(first_capture(captures, "driver"))) installed = v->major();
  // The message is the Linux kernel module's: Linux's advice, for this machine when its facts are known.
  BranchAdviceTarget target;
  if (machine.facts != nullptr) {
    if (!installed && machine.facts->driver.version) installed = machine.facts->driver.version->major();
    target.distro = machine.facts->os.id;
    target.version_id = machine.facts->os.version_id;
    for (const GpuFacts& g : machine.facts->gpus) {  // the GPU the message is about: of its branch
      if (target.cc || !g.cc_major || !g.cc_minor) continue;
      auto b = machine.kb->last_driver_branch(g);
      if (b && b->branch == branch) target.cc = Version::of({*g.cc_major, *g.cc_minor});
    }
  }
  target.installed_major = installed;
  const DriverBranchAdvice advice = driver_branch_advice(*machine.kb, branch, target);
  std::vector<std::string> parts;
  add(parts, advice.install);
  add(parts, advice.toolkits);
  return join(parts, " ");
}

namespace {

/// "535.129.03" -> {"535", "129", "03"}.
std::vector<std::string_view> version_parts(std::string_view v) {
  std::vector<std::string_view> parts;
  while (!v.empty()) {
    const size_t dot = v.find('.');
    parts.push_back(v.substr(0, dot));
    if (dot == std::string_view::npos) break;
    v.remove_prefix(dot + 1);
  }
  return parts;
}

/// What the NVIDIA kernel module's versions and the user-space libraries' versions the log shows
/// say about a "version mismatch": another branch (535 against 550: two branches' packages, or
/// an upgrade to a new branch left half-done), or the same branch and another release
/// (535.129.03 against 535.154.05: the packages were updated and the old module is still
/// loaded). nvidia-smi prints the libraries' version without its last part (`NVML library
/// version: 535.154`): versions that agree as far as both go are one release. nullptr when the
/// log does not show both, or they agree.
const char* nvidia_versions_event(const std::vector<std::string>& modules, const std::vector<std::string>& libraries) {
  bool other_branch = false;
  bool other_release = false;
  for (const std::string& m : modules) {
    const auto mp = version_parts(m);
    for (const std::string& l : libraries) {
      const auto lp = version_parts(l);
      if (mp.empty() || lp.empty()) continue;
      if (mp.front() != lp.front()) {
        other_branch = true;
        continue;
      }
      for (size_t i = 1; i < std::min(mp.size(), lp.size()); ++i) {
        if (mp[i] != lp[i]) other_release = true;
      }
    }
  }
  if (other_branch) return "nvidia-module-other-branch";
  return other_release ? "nvidia-module-same-branch" : nullptr;
}

}  // namespace

void take_log_facts(const RuleBase& base, std::vector<RuleHits>& hits, LogFacts& log) {
  static const std::pair<const char*, const char*> kVersions[] = {
      {"tf_version", "tensorflow"}, {"torch_version", "pytorch"}, {"jax_version", "jax"}};
  const auto facts = std::stable_partition(hits.begin(), hits.end(),
                                           [&](const RuleHits& h) { return !base.rules[h.rule_index].fact; });
  std::vector<std::string> module_versions;
  std::vector<std::string> library_versions;
  std::vector<std::string> nccl_wheel_majors;
  bool wsl2_words = false;      // the user's own "inside WSL 2": weaker than any platform marker
  bool flash_attn_pip = false;  // `pip install flash-attn`: a sign of the package unless its build failed
  for (auto h = facts; h != hits.end(); ++h) {
    const auto& explains = base.rules[h->rule_index].explains;
    log.explains.insert(log.explains.end(), explains.begin(), explains.end());
    for (const auto& [capture, into] :
         {std::pair{"nv_module_version", &module_versions}, std::pair{"nv_library_version", &library_versions},
          std::pair{"nccl_wheel", &nccl_wheel_majors}}) {
      if (const auto c = h->captures.find(capture); c != h->captures.end()) {
        into->insert(into->end(), c->second.begin(), c->second.end());
      }
    }
    // The first value the log gives wins: a log is usually one run of one environment.
    for (const auto& [capture, framework] : kVersions) {
      const auto c = h->captures.find(capture);
      if (c != h->captures.end() && !c->second.empty()) log.versions.emplace(framework, c->second.front());
    }
    if (const auto w = h->captures.find("windows"); w != h->captures.end() && !w->second.empty()) {
      if (log.platform != Platform::wsl2) log.platform = Platform::windows;
    }
    // WSL2's own markers outrank a Windows path in the same log (a WSL user pastes both sides).
    if (const auto w = h->captures.find("wsl2"); w != h->captures.end() && !w->second.empty()) {
      log.platform = Platform::wsl2;
      log.posix = true;
    }
    if (const auto w = h->captures.find("wsl2_words"); w != h->captures.end() && !w->second.empty()) {
      wsl2_words = true;
    }
    if (const auto c = h->captures.find("container"); c != h->captures.end() && !c->second.empty()) {
      log.container = true;
    }
    if (const auto p = h->captures.find("posix"); p != h->captures.end() && !p->second.empty()) log.posix = true;
    if (const auto p = h->captures.find("flash_attn_pip"); p != h->captures.end() && !p->second.empty()) {
      flash_attn_pip = true;
    }
    if (const auto w = h->captures.find("nvidia_wheel"); w != h->captures.end() && !w->second.empty()) {
      log.nvidia_wheels = true;
    }
    for (const auto& [capture, event] : kLogEvents) {
      if (const auto e = h->captures.find(capture); e != h->captures.end() && !e->second.empty())
        log.events.insert(event);
    }
    // The first portable interpreter the log names (a log is usually one program's).
    if (const auto p = h->captures.find("portable_python");
        p != h->captures.end() && !p->second.empty() && log.portable_python.empty()) {
      std::string dir = p->second.front();
      std::transform(dir.begin(), dir.end(), dir.begin(), [](unsigned char c) { return std::tolower(c); });
      log.portable_python = ".\\" + dir + "\\python.exe";
    }
    // `tf_below_2_11`: TensorFlow is older than 2.11 (the lowest such bound wins).
    for (const auto& [capture, values] : h->captures) {
      if (!capture.starts_with("tf_below_") || values.empty()) continue;
      std::string bound = capture.substr(9);
      std::replace(bound.begin(), bound.end(), '_', '.');
      if (const auto v = Version::parse(bound); v && (!log.tf_below || *v < *log.tf_below)) log.tf_below = v;
    }
    // The CUDA releases the log names for its toolkit or ptxas (log-fact-cuda-release): all of
    // them, distinct; the ptxas conditions read them together.
    if (const auto c = h->captures.find("cuda_release"); c != h->captures.end()) {
      for (const std::string& text : c->second) {
        const auto v = Version::parse(text);
        if (v && std::find(log.cuda_releases.begin(), log.cuda_releases.end(), *v) == log.cuda_releases.end()) {
          log.cuda_releases.push_back(*v);
        }
      }
    }
    if (const auto c = h->captures.find("gpu_cc"); c != h->captures.end()) {
      for (const std::string& text : c->second) {
        const auto v = Version::parse(text);
        if (v && std::find(log.gpu_ccs.begin(), log.gpu_ccs.end(), *v) == log.gpu_ccs.end()) log.gpu_ccs.push_back(*v);
      }
    }
    if (const auto b = h->captures.find("cuda_build"); b != h->captures.end() && !b->second.empty()) {
      const std::string v = to_lower(b->second.front());
      if (v == "none" || v == "false") log.cpu_build = true;
    }
  }
  if (const char* event = nvidia_versions_event(module_versions, library_versions)) log.events.insert(event);
  // pip's command for flash-attn is no sign that the package ran where pip could not build it.
  if (flash_attn_pip && !log.events.contains("flash-attn-not-built")) log.events.insert("flash-attn-package");
  std::sort(nccl_wheel_majors.begin(), nccl_wheel_majors.end());
  if (std::unique(nccl_wheel_majors.begin(), nccl_wheel_majors.end()) - nccl_wheel_majors.begin() > 1) {
    log.events.insert("nccl-wheels-two-majors");
  }
  // "It works on WSL 2" in a PowerShell log is about another machine: the words count only where
  // the log's own lines name no platform.
  if (wsl2_words && !log.platform) {
    log.platform = Platform::wsl2;
    log.posix = true;
  }
  hits.erase(facts, hits.end());
}

std::optional<Version> framework_version_of(const ExplainMachine& machine, std::string_view log_key,
                                            std::string_view installed) {
  if (const auto v = machine.log.versions.find(std::string(log_key)); v != machine.log.versions.end()) {
    return Version::parse(v->second);
  }
  if (machine.facts == nullptr) return std::nullopt;
  std::optional<Version> seen;
  for (const auto& env : machine.facts->python_envs) {
    for (const FrameworkFacts& fw : env.frameworks) {
      if (fw.name != installed) continue;
      Version v = fw.version;
      if (v.local().empty() && !fw.variant.empty()) v = Version::parse(fw.version.str() + "+" + fw.variant).value_or(v);
      if (seen && (*seen <=> v) != 0) return std::nullopt;  // environments differ: which one wrote the log?
      seen = v;
    }
  }
  return seen;
}

}  // namespace gpudoctor
