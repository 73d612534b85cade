#pragma once
/// Reads one site-packages directory: which frameworks (TensorFlow, PyTorch, JAX, Keras) and
/// which pip nvidia-* wheels are installed there, from dist-info names, METADATA,
/// tensorflow/python/platform/build_info.py and torch/version.py. Nothing is imported.
#include <string>
#include <string_view>
#include <vector>

#include "model/facts.hpp"
#include "platform/system_view.hpp"

namespace gpudoctor {

/// A distribution that installs the `tensorflow` package (normalised name): tensorflow,
/// tensorflow-cpu, tensorflow-intel, tf-nightly, ...
bool is_tensorflow_dist(std::string_view normalized_name);

/// The top-level package folder `import` opens for a framework found by scan_site_packages
/// ("torch", "tf_keras" for tf-keras, "jax_cuda13_plugin"); empty where it is not one folder of
/// its own (jax-cuda*-pjrt shares jax_plugins/).
std::string import_package(const FrameworkFacts& fw);

/// Caps the directories the Python probe lists, so a huge home directory or a tree full of
/// environments cannot make the doctor slow.
struct ScanBudget {
  int dirs_left = 3000;
  bool exhausted = false;
  /// Takes one directory listing from the budget; false once it is spent.
  bool take() {
    if (dirs_left <= 0) {
      exhausted = true;
      return false;
    }
    --dirs_left;
    return true;
  }
};

/// Adds what `dir` holds to env.frameworks / env.nvidia_wheels. Problems that concern the
/// directory itself (unreadable) go to `problems`; problems of one framework's metadata go
/// into that framework's FrameworkFacts::problems.
void scan_site_packages(const SystemView& system, const std::string& dir, PythonEnvFacts& env, ScanBudget& budget,
                        std::vector<ProbeProblem>& problems);

}  // namespace gpudoctor
