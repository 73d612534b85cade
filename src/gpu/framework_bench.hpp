#pragma once
/// `gpudoctor bench --framework`: a synthetic-data training step of ResNet-50 (ResNet-18 for
/// --quick) in each framework the doctor's environment discovery found, run by the environment's
/// own interpreter in a child with a deadline (the seam of verify --framework,
/// framework_verify.hpp): FP32 on the CPU and on the first GPU, mixed precision on the GPU, and,
/// with several GPUs, the data-parallel step (PyTorch DDP, TensorFlow MirroredStrategy, JAX
/// sharding). The model is defined in the script for each framework (no torchvision or
/// keras.applications needed). Figures are images per second, the loss beside each as its check.
#include <chrono>
#include <string>
#include <vector>

#include "gpu/framework_verify.hpp"
#include "model/bench_report.hpp"

namespace gpudoctor::gpu {

struct FrameworkBenchConfig {
  std::string model = "resnet50";  ///< resnet50 | resnet18
  int image = 224;                 ///< square images, 3 channels
  int cpu_batch = 8;
  int gpu_batch = 64;  ///< per GPU
  /// gpu_batch was not given: the script scales it with the memory the framework may use on the
  /// first GPU (x2 from 24 GiB, x4 from 48 GiB), so that a large card runs the GPU and not Python.
  /// On an H200 at batch 64 PyTorch's mixed precision ran 0.89x to 1.22x of FP32 (2026-12-04).
  bool gpu_batch_scaled = true;
  int warmup = 2;  ///< untimed steps: compilation, cuDNN autotuning
  int min_steps = 5;
  int max_steps = 50;
  double min_seconds = 3;  ///< timed steps add up to at least this, unless max_steps came first
  double max_seconds = 20;
  bool cpu = true;
  bool gpu = true;
  /// Tests only: a JSON object merged into the script's config. {"dp_platform": "cpu"} runs the
  /// GPU figures' code on the CPU (PyTorch: autocast, GradScaler with "half": "fp16", DDP over gloo
  /// with "dp_ranks" processes, "dp_fail_rank" exits; JAX: sharding over forced host devices).
  std::string test_config;
};

/// quick: ResNet-18 at 112x112; default: ResNet-50 at 224x224; full: bigger batches, longer.
FrameworkBenchConfig framework_bench_config(const std::string& mode);

/// The config as the script's JSON argument.
std::string framework_bench_config_json(const FrameworkBenchConfig& config);

/// The Python the child runs (`python -c SCRIPT FRAMEWORK CONFIG_JSON`); its last line is
/// "GPUDOCTOR-RESULT {json}" with each figure's step times and losses.
const char* framework_bench_script();

struct FrameworkBenchRun {
  std::vector<BenchMeasurement> measurements;  ///< "<framework>.<model>_<precision>.<cpu|gpu0|gpusN>", images_per_s
  std::vector<std::string> notes;
  std::string stderr_text;
  int gpu_batch = 0;  ///< the per-GPU batch the script's first-GPU figures used (it may scale the configured one)
};

/// The figures from what the interpreter wrote (pure: the tests feed it recorded output). A
/// figure is ok when it timed at least one step and every loss is finite and the last one is
/// below the first (the same synthetic batch every step: a model that learns nothing, or NaNs,
/// is a wrong answer).
FrameworkBenchRun framework_bench_from_output(const FrameworkTarget& target, const FrameworkBenchConfig& config,
                                              const Result<ProcessOutput>& output, long long elapsed_ms);

FrameworkBenchRun run_framework_bench(const ProcessRunner& runner, const FrameworkTarget& target,
                                      const FrameworkBenchConfig& config, std::chrono::milliseconds deadline);

}  // namespace gpudoctor::gpu
