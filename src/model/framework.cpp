#include "model/framework.hpp"

namespace gpudoctor {

const char* to_string(Framework f) {
  switch (f) {
    case Framework::tensorflow:
      return "tensorflow";
    case Framework::pytorch:
      return "pytorch";
    case Framework::jax:
      return "jax";
  }
  return "tensorflow";
}

const char* display_name(Framework f) {
  switch (f) {
    case Framework::tensorflow:
      return "TensorFlow";
    case Framework::pytorch:
      return "PyTorch";
    case Framework::jax:
      return "JAX";
  }
  return "TensorFlow";
}

std::string installed_display_name(const std::string& name) {
  return name == "torch"         ? "PyTorch"
         : name == "tensorflow"  ? "TensorFlow"
         : name == "jax"         ? "JAX"
         : name == "onnxruntime" ? "ONNX Runtime"
                                 : name;
}

std::string installed_at(const PythonEnvFacts& env, const FrameworkFacts& fw) {
  return fw.location.empty() ? env.path : fw.location;
}

bool onnxruntime_has_preload(const FrameworkFacts& fw) {
  return fw.version >= Version::of({1, 21});
}

}  // namespace gpudoctor
