#include "core/text.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

/// Variables that change which GPU, library or allocator a framework uses. Prefix entries end
/// with '_' and match every variable that starts with them.
constexpr const char* kRelevant[] = {
    "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "NVIDIA_VISIBLE_DEVICES",
    "NVIDIA_DRIVER_CAPABILITIES",
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "PATH",
    "CUDA_HOME",
    "CUDA_PATH",
    "CUDA_ROOT",
    "CUDNN_PATH",
    "CUDA_LAUNCH_BLOCKING",
    "CUDA_MODULE_LOADING",
    "CUDA_CACHE_DISABLE",
    "CUDA_FORCE_PTX_JIT",
    "TF_",
    "XLA_FLAGS",
    "XLA_PYTHON_CLIENT_",
    "JAX_",
    "PYTORCH_",
    "TORCH_CUDA_ARCH_LIST",
    "NCCL_",
    "OMP_NUM_THREADS",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV",
    "PYTHONPATH",
    "PYTHONHOME",
};

/// Terraform also uses TF_*; its variables say nothing about TensorFlow.
constexpr const char* kTerraform[] = {
    "TF_CLI_",    "TF_VAR_",      "TF_LOG",    "TF_DATA_DIR", "TF_IN_AUTOMATION",     "TF_INPUT", "TF_WORKSPACE",
    "TF_PLUGIN_", "TF_REGISTRY_", "TF_TOKEN_", "TF_IGNORE",   "TF_APPEND_USER_AGENT", "TF_STATE_"};

bool relevant(const std::string& name) {
  for (const char* t : kTerraform) {
    if (name.starts_with(t)) return false;
  }
  for (const char* r : kRelevant) {
    std::string_view rv(r);
    if (rv.back() == '_' ? name.starts_with(rv) : name == rv) return true;
  }
  return false;
}

}  // namespace

void probe_env(const SystemView& system, Facts& facts) {
  for (const auto& [name, value] : system.environment()) {
    // Windows names are case-insensitive ("Path", "Cuda_Path"): judged, and reported, upper-cased.
    std::string key = system.is_windows() ? to_upper(name) : name;
    if (key.starts_with("CUDA_PATH_V") || relevant(key)) {
      facts.env.push_back({key, printable(value, 4096)});
    }
  }
}

}  // namespace gpudoctor
