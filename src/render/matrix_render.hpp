#pragma once
/// Renderers for `gpudoctor matrix`: the knowledge-base tables, filtered, as text or JSON.
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"
#include "platform/platform.hpp"

namespace gpudoctor {

class KnowledgeBase;

constexpr int kMatrixSchemaVersion = 1;

struct MatrixFilter {
  std::string framework;  ///< "tensorflow", "pytorch", "jax"; empty: all
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
  std::string framework;
  std::string version;
  std::string os;      ///< "linux", "windows", "linux,windows,wsl2"
  std::string python;  ///< range
  std::string cuda;    ///< empty: CPU-only
  std::string cudnn;
  std::string variant;  ///< "cu126", "cuda13", "" for TF
  std::string gpu;      ///< coverage of the filtered GPU ("native", ...) or ""
  std::string note;
  std::string source;
};

std::vector<MatrixRow> matrix_framework_rows(const KnowledgeBase& kb, const MatrixFilter& f);
std::string render_matrix_text(const KnowledgeBase& kb, const MatrixFilter& f);
std::string render_matrix_json(const KnowledgeBase& kb, const MatrixFilter& f);

}  // namespace gpudoctor
