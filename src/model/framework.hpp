#pragma once
/// The three frameworks gpudoctor plans and tabulates. Installed packages keep their own names
/// (FrameworkFacts::name holds "torch", "jaxlib", "keras"...); this is the closed set a plan, a
/// request and a matrix row are about.
#include <string>

#include "model/facts.hpp"

namespace gpudoctor {

enum class Framework { tensorflow, pytorch, jax };

/// "tensorflow", "pytorch", "jax": the names in JSON and on the command line.
const char* to_string(Framework f);
/// "TensorFlow", "PyTorch", "JAX".
const char* display_name(Framework f);
/// The same for an installed framework's FrameworkFacts::name ("torch" -> "PyTorch",
/// "onnxruntime" -> "ONNX Runtime"); any other name as it is.
std::string installed_display_name(const std::string& name);

/// Where an installed framework lives, for a finding's evidence: its site-packages directory,
/// else its environment.
std::string installed_at(const PythonEnvFacts& env, const FrameworkFacts& fw);

/// Whether an onnxruntime release has the `[cuda,cudnn]` extras and onnxruntime.preload_dlls():
/// both came in 1.21.0 (1.20.2's METADATA has no Provides-Extra, its __init__.py no preload_dlls).
/// The probe (whether the nvidia wheels can serve its provider) and the fixes read it here.
bool onnxruntime_has_preload(const FrameworkFacts& fw);

}  // namespace gpudoctor
