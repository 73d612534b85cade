#pragma once
/// What `gpudoctor matrix` shows: the knowledge-base tables after the user's filters. The query
/// (kb/matrix_query.hpp) fills a MatrixView; the renderers (render/matrix_render.hpp) print it.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/version.hpp"
#include "model/framework.hpp"
#include "model/kb_rows.hpp"
#include "model/platform.hpp"

namespace gpudoctor {

constexpr int kMatrixSchemaVersion = 1;

struct MatrixFilter {
  std::optional<Framework> framework;   ///< empty: all
  std::optional<VersionSpec> versions;  ///< the request's range (PEP 440): rows of a series it admits
  std::vector<std::string> extras;      ///< the request's extras (PEP 685): jax[cuda13] keeps its variant
  std::optional<Platform> os;
  std::optional<Version> cuda;  ///< "12" matches 12.x; "12.2" matches 12.2.x
  std::optional<Version> python;
  std::string gpu_name;       ///< keeps rows whose build has kernels for this GPU
  std::optional<Version> cc;  ///< resolved from gpu_name
  bool drivers = false;       ///< CUDA -> driver tables
  bool arch = false;          ///< CUDA -> SASS archs, generations, GPU -> CC
  bool cudnn = false;         ///< cuDNN support matrix
  bool sources = false;       ///< text: a source column
};

/// One framework row: the JSON contract of `matrix --json`.
struct MatrixRow {
  Framework framework = Framework::tensorflow;
  std::string version;
  std::string os;      ///< "linux", "windows", "linux,windows,wsl2"
  std::string python;  ///< range
  std::string cuda;    ///< empty: CPU-only
  std::string cudnn;
  std::string nccl;     ///< the NCCL the build's pip wheels require, where the tables hold it
  std::string variant;  ///< "cu126", "cuda13", "" for TF
  std::string archs;    ///< compiled SASS list (+PTX) when recorded: "6.0 7.0 8.0 8.9 +PTX 9.0"
  /// PyTorch: the platforms whose plain `pip install torch` gets this variant ("linux-x86_64").
  std::string pypi_default;
  std::string gpu;  ///< coverage of the filtered GPU ("native", ...) or ""
  std::string note;
  std::string source;
  /// Where single facts of the row were read when not `source` ("python", "archs", "cudnn",
  /// "nccl", "pip_default", "variant", "cuda", "yanked"), in that order.
  std::vector<std::pair<std::string, std::string>> fact_sources;
  std::vector<std::string> yanked;  ///< releases of the row PyPI marks yanked (jax 0.4.32)
};

/// The GPU the rows were filtered for, as the knowledge base matched it.
struct MatrixGpu {
  std::string query;  ///< as the user gave it
  bool known = false;
  std::string name;  ///< the knowledge base's name, when known
  std::optional<Version> cc;
  std::string arch;
  std::vector<std::string> suggestions;  ///< nearest known names, when unknown
  std::vector<std::string> ambiguous;    ///< the known names the query fits equally ("RTX 6000")
};

/// Every table the filter keeps; the renderers choose which to show (text: the flags; JSON:
/// the framework and driver tables always, the others with their flags).
struct MatrixView {
  MatrixFilter filter;
  std::optional<MatrixGpu> gpu;  ///< when filter.gpu_name was given
  std::vector<MatrixRow> frameworks;
  std::vector<CudaDriverRow> drivers;  ///< newest first, of the filtered CUDA series
  std::vector<CudaFamily> families;
  std::vector<ToolkitArch> toolkit_archs;  ///< those that hold the filtered CUDA
  std::vector<ArchGeneration> generations;
  std::vector<GpuModel> gpus;     ///< of the filtered compute capability
  std::vector<CudnnBuild> cudnn;  ///< those for the filtered CUDA
  /// tensorflow-addons series and the TensorFlow each supports, newest first; empty when
  /// TensorFlow is filtered out (or, with --python, when no TensorFlow row is kept).
  std::vector<TfAddons> addons;
};

}  // namespace gpudoctor
