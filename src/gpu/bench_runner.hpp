#pragma once
/// `gpudoctor bench` in the parent: the CPU baseline (cpu_bench.hpp) and the GPU benchmarks
/// (gpu_bench.hpp), each in a child with a deadline, one after the other so that none
/// competes with another for the cores or the GPU. The knowledge base's ceilings and the
/// history are the command's business (cli/cmd_bench.cpp); this only measures.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "gpu/runtime_libraries.hpp"
#include "model/bench_report.hpp"

namespace gpudoctor::gpu {

struct BenchSizes {
  int sgemm_n = 2048;  ///< CPU SGEMM: N x N x N
  int conv_n = 8;      ///< images in the convolution batch (64 channels, 56x56, 64 3x3 filters)
  int gpu_gemm_n = 8192;
  /// GPU convolution: batch, channels, height (= width), filters; 3x3, pad 1.
  int gpu_conv[4] = {32, 64, 56, 64};
  long long gpu_copy_bytes = 1LL << 30;  ///< device copy / triad buffers
  long long host_copy_bytes = 256LL << 20;
};

/// quick: a few seconds of CPU; default; full: bigger sizes, longer sampling.
BenchSizes bench_sizes(const std::string& mode);

struct BenchOptions {
  std::string mode = "default";  ///< quick | default | full
  bool cpu = true;
  int cpu_threads = 0;  ///< 0: every CPU this process may use
  /// OpenBLAS libraries the user named for the CPU SGEMM (--openblas), in order: one missing
  /// fails the figure; empty: the loader's names, openblas_names(), which may all be absent.
  std::vector<std::string> openblas;
  /// Then copies bundled by Python packages (bundled_openblas()): one that cannot load is a note.
  std::vector<std::string> openblas_bundled;
  /// Bundled copies not offered because others could change them ("FOLDER: why"): said in the detail.
  std::vector<std::string> openblas_refused;
  bool gpu = true;
  LibrarySource libraries{.label = "system", .dirs = {}};
  std::vector<std::string> cuda_names;         ///< empty: default_cuda_driver_names()
  std::chrono::milliseconds deadline{120000};  ///< per benchmark child
  BenchSizes sizes = bench_sizes("default");
  /// --only: run only the GPU figures whose key ("gpu0.gemm_fp8", "gpu1.peer_to_gpu0",
  /// "gpus.allreduce_busbw") contains one of these words; empty: all.
  std::vector<std::string> only;
  /// Called before each benchmark starts (its key) and after it ends, for progress.
  std::function<void(const std::string& key)> on_start;
  std::function<void(const BenchMeasurement&)> on_measurement;
};

BenchReport run_bench(const BenchOptions& options);

/// "2026-12-01T10:58:03Z", now.
std::string bench_utc_now();

}  // namespace gpudoctor::gpu
