#pragma once
/// The three frameworks gpudoctor plans and tabulates. Installed packages keep their own names
/// (FrameworkFacts::name holds "torch", "jaxlib", "keras"...); this is the closed set a plan, a
/// request and a matrix row are about.
namespace gpudoctor {

enum class Framework { tensorflow, pytorch, jax };

/// "tensorflow", "pytorch", "jax": the names in JSON and on the command line.
const char* to_string(Framework f);
/// "TensorFlow", "PyTorch", "JAX".
const char* display_name(Framework f);

}  // namespace gpudoctor
