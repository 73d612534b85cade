#pragma once
/// What `gpudoctor verify` found (gpu/verify_runner.hpp): the runtime libraries it loaded, with
/// the absolute path and version of each, and every step it ran on every GPU, with its time
/// and result. Plain data: the children write it, the parent reads it back through the JSON
/// codec (model/json_codec.hpp), the renderers print it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/gpu_reports.hpp"

namespace gpudoctor {

/// One runtime library (cuBLAS, cuBLASLt, cuDNN and its sub-libraries, NCCL, NVRTC) as loaded
/// from the chosen source. Status vocabulary as LibraryReport's ("ok", "not-found",
/// "load-failed", "init-failed", "timeout", "crashed").
struct RuntimeLibraryReport : LibraryReport {
  std::string name;                       ///< "cublas", "cudnn", "cudnn_cnn", "nccl", ...
  std::string version;                    ///< "13.0.0.19", from the library's own call; "" if none
  std::optional<long long> version_code;  ///< what that call answered (cudnnGetVersion: 90300)
  std::string version_call;               ///< "cudnnGetVersion"
  std::vector<std::string> tried;         ///< the names or paths tried, in order
};

/// A step's result; in JSON by these names ("" for none).
enum class StepStatus {
  none,  ///< not reported (a child that ended without an answer)
  passed,
  failed,   ///< ran, and the answer was wrong or an error
  skipped,  ///< could not run here; `detail` says why
  crashed,  ///< the child died from a signal
  timeout,  ///< killed at its deadline
  /// "not-found": the library the step needs is not where verify was told to look; a failure
  /// of the run (the layer was never exercised), unlike a skip.
  not_found,
};
const char* to_string(StepStatus s);
/// The status of that name; none for any other text (a report from another process is untrusted).
StepStatus parse_step_status(std::string_view name);

/// One correctness check of `verify --framework` against a float64 result.
struct FrameworkFigure {
  std::string check;                  ///< "matmul", "conv", "fp16-matmul"
  std::string dtype;                  ///< "torch.float16" for the mixed-precision one; "" for FP32
  std::optional<double> max_error;    ///< none when the result was NaN/Inf or absent
  std::optional<double> bound_ratio;  ///< worst error/bound per element: at most 1 when right
  std::string non_finite;             ///< "nan" or "inf" when the result held one
};

/// What `verify --framework` learnt in one environment, as data (the detail says it in words).
struct FrameworkStepFacts {
  std::string environment;  ///< the environment's path
  std::string interpreter;  ///< its python
  std::string framework;    ///< "pytorch", "jax", "tensorflow"
  std::string version;      ///< what the framework reports itself; "" if it did not import
  std::string placed_on;    ///< "cuda:0", "gpu:0", "/GPU:0", "cpu"
  std::vector<std::string> devices;
  bool cpu_fallback = false;
  std::string fallback_reasons;  ///< the doctor's facts on why, "" when none known
  std::string error;             ///< the script's exception, "" when none
  std::vector<FrameworkFigure> figures;
  std::vector<std::string> loaded;  ///< the CUDA and framework libraries the process mapped
};

struct VerifyStep {
  std::string name;           ///< "driver", "context", "memory", "kernel", "sgemm", ...
  std::optional<int> device;  ///< the GPU; none for steps across GPUs (NCCL)
  /// The GPU's PCI address, domain:bus:device ("0000:3b:00", nvidia-smi's 00000000:3B:00.0),
  /// "" when unknown: the CUDA ordinal is not nvidia-smi's index under CUDA_VISIBLE_DEVICES or
  /// CUDA_DEVICE_ORDER=FASTEST_FIRST.
  std::string pci_bus_id;
  std::optional<FrameworkStepFacts> framework;  ///< verify --framework's steps only
  StepStatus status = StepStatus::none;
  std::string detail;              ///< what was proven, or why not, in words
  std::string last_call;           ///< the vendor call in progress when the child stopped
  long long elapsed_ms = 0;        ///< wall time of the step's child
  std::vector<std::string> notes;  ///< measured figures: max error vs bound, bytes, names
  /// Whether a later step may build on this one.
  [[nodiscard]] bool passed() const { return status == StepStatus::passed; }
};

struct VerifyReport {
  std::string libs_from;  ///< "system", "toolkit" or the environment's path
  bool quick = false;
  CudaDriverReport driver;  ///< libcuda as the first step found it
  NvmlReport nvml;          ///< NVML's GPUs, to count against CUDA's (the "gpu-count" step)
  std::vector<RuntimeLibraryReport> libraries;
  std::vector<VerifyStep> steps;
  std::vector<std::string> problems;  ///< failures outside any step (the child could not start)
  std::vector<std::string> notes;     ///< what limited the run (CUDA_VISIBLE_DEVICES), not failures
};

/// True when no step failed, crashed, timed out or found its library missing, at least one ran,
/// and no problem was recorded. Skipped steps name their reason and do not count against the run.
bool verify_passed(const VerifyReport& report);

/// "9.3.0" for cudnnGetVersion's 90300 and "8.9.7" for 8907; cuBLAS and NCCL encode their
/// versions the same way (library headers: CUDNN_VERSION, CUBLAS_VERSION, NCCL_VERSION_CODE:
/// major*10000 + minor*100 + patch today, major*1000 + minor*100 + patch in older releases).
/// cuDNN and NCCL, whose majors have one digit.
std::string packed_version_text(long long code);
/// cuBLAS and cuBLASLt, whose majors have two: 11401 is 11.4.1 (major*1000 form), 130100 is
/// 13.1.0 (major*10000 form).
std::string cublas_version_text(long long code);

}  // namespace gpudoctor
