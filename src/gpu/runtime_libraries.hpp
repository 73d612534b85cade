#pragma once
/// The runtime libraries a framework loads on top of the driver (cuBLAS, cuBLASLt, cuDNN and
/// its sub-libraries, NCCL, NVRTC), found where a framework would find them and loaded in a
/// child each (isolated_child.hpp): `verify --libs-from system|toolkit|ENV`.
///
///   system   the loader's own search (LD_LIBRARY_PATH, ld.so.cache): what a plain
///            `import torch` without bundled libraries gets
///   toolkit  a CUDA toolkit's lib64 (CUDA_HOME, /usr/local/cuda)
///   ENV      the lib folders of a Python environment's nvidia-* wheels (site-packages/nvidia/
///            <package>/lib), where the PyPI builds of PyTorch, JAX and TensorFlow load them
#include <chrono>
#include <string>
#include <vector>

#include "gpu/isolated_child.hpp"
#include "model/verify_report.hpp"

namespace gpudoctor::gpu {

struct LibrarySource {
  std::string label;              ///< "system", "toolkit", or the environment's path
  std::vector<std::string> dirs;  ///< empty for "system": the loader searches
};

/// One runtime library: its name in reports and its sonames, newest first.
struct RuntimeLibrarySpec {
  std::string name;
  std::vector<std::string> sonames;
};

/// cublas, cublasLt, cudnn, nccl, nvrtc, in that order.
const std::vector<RuntimeLibrarySpec>& runtime_library_specs();

/// What to try for `spec` from `source`: the sonames themselves for "system"; otherwise
/// DIR/soname for every dir and soname where that file exists (all of them when none does,
/// so the report says where it looked).
std::vector<std::string> library_candidates(const LibrarySource& source, const RuntimeLibrarySpec& spec);

/// The lib folders of the nvidia-* wheels in these site-packages folders, sorted.
std::vector<std::string> wheel_library_dirs(const std::vector<std::string>& site_packages);

/// Loads every runtime library from `source`, each in its own child, all at once, within
/// `deadline`. cuDNN's report is followed by one per sub-library of its major.
std::vector<RuntimeLibraryReport> probe_runtime_libraries(const LibrarySource& source,
                                                          std::chrono::milliseconds deadline);

/// The "runtime-library" task body: args = {name, candidate...}. Writes {"call": ...} lines
/// before each vendor call and {"library": report} for the library and each sub-library.
void runtime_library_body(const std::vector<std::string>& args, ChildChannel& out);

/// The parent's side: every library report the child wrote (the last one per name), with the
/// child's failure (crash, timeout, junk) put on the report it was working on.
std::vector<RuntimeLibraryReport> runtime_library_reports_from_child(const std::string& name,
                                                                     const ChildOutcome& outcome);

}  // namespace gpudoctor::gpu
