// `gpudoctor bench` against the fake driver and runtime libraries: the real binary, dlopen path,
// children and deadlines, small sizes. The fakes compute on the host and time with a steady clock,
// so the figures mean nothing; what is tested is that every GPU figure is measured, checked,
// keyed and held against its ceiling, and that a wrong answer, a hang or a missing driver becomes
// that figure's status rather than the run's end.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/text.hpp"
#include "gpu/cpu_bench.hpp"
#include "run_gpudoctor.hpp"
#include "test_files.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::run_shell;
using testing::shell_quote;

class FakeBench : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir_for_test("gpudoctor-bench");
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  testing::RunResult bench(const std::string& extra, const std::string& flags = "",
                           const std::string& lib_path = GPUDOCTOR_FAKE_LIB_DIR,
                           const std::string& base = "verify_healthy.ini") {
    std::ifstream in(base.starts_with("/") ? base : std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/" + base);
    std::stringstream healthy;
    healthy << in.rdbuf();
    fs::path scenario = dir_ / "scenario.ini";
    std::ofstream(scenario) << healthy.str() << "\n" << extra << "\n";
    std::string line = "LD_LIBRARY_PATH=" + shell_quote(lib_path) +
                       " GPUDOCTOR_FAKE_DRIVER=" + shell_quote(scenario.string()) + " " +
                       shell_quote(GPUDOCTOR_BINARY) + " --json bench --quick --no-history " + sizes_ + " " + flags;
    // A whole quick bench (every CPU and GPU figure, each in its own child) under ASan on a loaded
    // 2-core machine passed 60 s once (8 s unloaded); the deadline guards a hang, not speed.
    auto r = run_shell(line, std::chrono::minutes(4));
    EXPECT_TRUE(r.json.is_object()) << line << "\nstdout: " << r.out << "\nstderr: " << r.err;
    return r;
  }

  static const nlohmann::json* figure(const testing::RunResult& r, const std::string& key) {
    if (!r.json.is_object()) return nullptr;
    for (const auto& m : r.json["measurements"]) {
      if (m["key"] == key) return &m;
    }
    return nullptr;
  }

  fs::path dir_;
  /// Small sizes, unless a test gives its own.
  std::string sizes_ =
      "--sgemm-size 96 --conv-batch 1 --gpu-gemm-size 64 --gpu-copy-mib 1 --host-copy-mib 1 --gpu-conv-shape 1,4,8,4";
};

TEST_F(FakeBench, EveryGpuFigureIsMeasuredCheckedAndHeldAgainstItsCeiling) {
  auto r = bench("");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const char* keys[] = {"gemm_fp32.tflops",  "gemm_tf32.tflops",  "gemm_fp16.tflops", "gemm_bf16.tflops",
                        "copy.gbps",         "triad.gbps",        "h2d_pinned.gbps",  "d2h_pinned.gbps",
                        "h2d_pageable.gbps", "d2h_pageable.gbps", "conv_fp32.tflops", "conv_fp16.tflops"};
  for (int gpu = 0; gpu < 2; ++gpu) {
    for (const char* k : keys) {
      std::string key = "gpu" + std::to_string(gpu) + "." + k;
      ASSERT_TRUE(r.json["results"].contains(key)) << key;
      EXPECT_TRUE(r.json["results"][key].is_number()) << key << ": " << r.out;
    }
  }
  // Each figure's whole child is timed: what --quick's 30 s are made of (27.6 to 30.2 s on an H200).
  for (const auto& m : r.json["measurements"]) {
    EXPECT_GT(m["wall_seconds"].get<double>(), 0.0) << m["key"];
    EXPECT_LT(m["wall_seconds"].get<double>(), 240.0) << m["key"];
  }
  const auto* bf16 = figure(r, "gpu0.gemm_bf16");
  ASSERT_NE(bf16, nullptr);
  EXPECT_EQ((*bf16)["status"], "ok");
  EXPECT_TRUE((*bf16)["check_passed"].get<bool>());
  // "NVIDIA H100 80GB HBM3" matches compat/gpu_peaks.toml's H100 row: 989.4 dense BF16.
  EXPECT_DOUBLE_EQ((*bf16)["ceiling"].get<double>(), 989.4);
  EXPECT_NE((*bf16)["ceiling_source"].get<std::string>().find("gpu_peaks.toml"), std::string::npos);
  EXPECT_DOUBLE_EQ((*figure(r, "gpu1.copy"))["ceiling"].get<double>(), 3350);
  EXPECT_EQ(r.json["gpus"][0], "NVIDIA H100 80GB HBM3");
  // Two GPUs that can reach each other: both peer directions and the all-reduce, checked.
  for (const char* key : {"gpu0.peer_to_gpu1", "gpu1.peer_to_gpu0", "gpus.allreduce_busbw"}) {
    const auto* m = figure(r, key);
    ASSERT_NE(m, nullptr) << key;
    EXPECT_EQ((*m)["status"], "ok") << key << ": " << (*m)["detail"];
    EXPECT_TRUE((*m)["check_passed"].get<bool>()) << key;
  }
  EXPECT_NE((*figure(r, "gpus.allreduce_busbw"))["detail"].get<std::string>().find("sweep"), std::string::npos);
  // The claims use the GPU figures now.
  bool gemm_claim = false;
  for (const auto& c : r.json["claims"]) {
    if (c["what"] == "GPU/CPU on GEMM (FP32 both)") gemm_claim = c["ratio"].is_number();
  }
  EXPECT_TRUE(gemm_claim) << r.json["claims"].dump();
}

// A figure that fails while its library sets up (cublasCreate, cudnnCreate, ncclCommInitAll: the
// symptoms of a library built for another CUDA major or a stray copy on the path) names the file
// that was loaded, as a passing figure does.
TEST_F(FakeBench, AFailureInALibrarysSetUpNamesTheFileLoaded) {
  auto r = bench("[calls]\ncublasCreate_v2 = 1\ncudnnCreate = 1001\nncclCommInitAll = 1\n", "--gpu-only");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ(r.exit_code, 1);
  const struct {
    const char* key;
    const char* call;
    const char* file;
  } cases[] = {{"gpu0.gemm_fp32", "cublasCreate_v2", "/libcublas.so"},
               {"gpu0.conv_fp32", "cudnnCreate", "/libcudnn.so"},
               {"gpus.allreduce_busbw", "ncclCommInitAll", "/libnccl.so"}};
  for (const auto& c : cases) {
    const auto* m = figure(r, c.key);
    ASSERT_NE(m, nullptr) << c.key;
    EXPECT_EQ((*m)["status"], "failed") << c.key << ": " << (*m)["detail"];
    EXPECT_NE((*m)["detail"].get<std::string>().find(c.call), std::string::npos) << (*m)["detail"];
    ASSERT_TRUE((*m)["library"].is_string()) << c.key << " names no library";
    EXPECT_NE((*m)["library"].get<std::string>().find(c.file), std::string::npos) << (*m)["library"];
  }
  // cuDNN's version is read before the handle: it is named with the file.
  EXPECT_NE((*figure(r, "gpu0.conv_fp32"))["library"].get<std::string>().find("cuDNN 9."), std::string::npos);
}

// Host<->device copies are held against the GPU's maximum PCIe link (NVML), after encoding, the
// same rate the peer copies over PCIe use; a GPU whose link NVML does not give has no ceiling.
TEST_F(FakeBench, HostCopiesAreHeldAgainstTheMaximumPcieLink) {
  std::ifstream in(std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/verify_healthy.ini");
  std::stringstream text;
  text << in.rdbuf();
  std::string scenario = text.str();
  // GPU 0 gen 4 x16 (found in NVML by its bus id), GPU 1 without link data.
  const size_t first = scenario.find("[device]\n");
  ASSERT_NE(first, std::string::npos);
  scenario.insert(first + 9, "pci_bus_id = 00000000:18:00.0\npcie_max_gen = 4\npcie_max_width = 16\n");
  const fs::path base = dir_ / "pcie.ini";
  std::ofstream(base) << scenario;
  auto r = bench("", "--gpu-only --only h2d,d2h", GPUDOCTOR_FAKE_LIB_DIR, base.string());
  ASSERT_TRUE(r.json.is_object());
  for (const char* key : {"gpu0.h2d_pinned", "gpu0.d2h_pinned", "gpu0.h2d_pageable", "gpu0.d2h_pageable"}) {
    const auto* m = figure(r, key);
    ASSERT_NE(m, nullptr) << key;
    ASSERT_TRUE((*m)["ceiling"].is_number()) << key << ": " << m->dump();
    // 16 GT/s x 16 lanes x 128/130 / 8 bits.
    EXPECT_NEAR((*m)["ceiling"].get<double>(), 31.5077, 1e-3) << key;
    EXPECT_NE((*m)["ceiling_source"].get<std::string>().find("PCIe gen 4 x16"), std::string::npos)
        << (*m)["ceiling_source"];
  }
  const auto* other = figure(r, "gpu1.h2d_pinned");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ((*other)["status"], "ok");
  EXPECT_TRUE((*other)["ceiling"].is_null()) << "no link known, no ceiling: " << other->dump();
}

TEST_F(FakeBench, AWrongGemmFailsItsFigureAndTheRun) {
  auto r = bench("[cublas]\nresult = wrong\n", "--gpu-only --only gemm_fp32,copy");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ(r.exit_code, 1);
  const auto* fp32 = figure(r, "gpu0.gemm_fp32");
  ASSERT_NE(fp32, nullptr);
  EXPECT_EQ((*fp32)["status"], "failed");
  EXPECT_FALSE((*fp32)["check_passed"].get<bool>());
  EXPECT_NE((*fp32)["check"].get<std::string>().find("outside the bound"), std::string::npos) << (*fp32)["check"];
  EXPECT_EQ((*figure(r, "gpu0.copy"))["status"], "ok") << "one wrong library fails only its own figures";
}

TEST_F(FakeBench, AWrongFp16ConvolutionIsCaught) {
  auto r = bench("[cudnn]\nversion = 90100\nresult = wrong\n", "--gpu-only --only conv,gemm_fp16");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ((*figure(r, "gpu0.conv_fp16"))["status"], "failed");
  EXPECT_EQ((*figure(r, "gpu0.conv_fp32"))["status"], "failed");
  EXPECT_EQ((*figure(r, "gpu0.gemm_fp16"))["status"], "ok");
}

// On an H200 (cuDNN 9.14, 2026-12-04) the FP16 figure failed: the one algorithm bench asked for
// was refused at the workspace query. The heuristic's next candidate must run instead.
TEST_F(FakeBench, AConvolutionAlgorithmThisCudnnRefusesIsPassedOver) {
  auto r = bench("[cudnn]\nfp16_unsupported_algo = 1\n", "--gpu-only --only conv");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const auto* half = figure(r, "gpu0.conv_fp16");
  ASSERT_NE(half, nullptr);
  EXPECT_EQ((*half)["status"], "ok") << (*half)["detail"];
  EXPECT_TRUE((*half)["check_passed"].get<bool>());
  const std::string detail = (*half)["detail"].get<std::string>();
  EXPECT_TRUE(contains(detail, ", NCHW, implicit GEMM (the heuristic's first that this cuDNN supports)")) << detail;
  EXPECT_TRUE(contains(detail, "passed over: implicit precomputed GEMM in NCHW")) << detail;
  const std::string fp32 = (*figure(r, "gpu0.conv_fp32"))["detail"].get<std::string>();
  EXPECT_TRUE(contains(fp32, "implicit precomputed GEMM (the heuristic's first)")) << fp32;
  // cuDNN 9.14 on an H200: no legacy algorithm at all for FP16 in NCHW. NHWC (filters KRSC) runs,
  // and its result, laid out back, passes the same check; a wrong one in NHWC is still caught.
  auto nhwc = bench("[cudnn]\nfp16_nchw = 0\n", "--gpu-only --only conv_fp16");
  ASSERT_TRUE(nhwc.json.is_object());
  const auto* n = figure(nhwc, "gpu0.conv_fp16");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ((*n)["status"], "ok") << (*n)["detail"];
  EXPECT_TRUE((*n)["check_passed"].get<bool>()) << (*n)["check"];
  EXPECT_TRUE(contains((*n)["detail"].get<std::string>(), ", NHWC, implicit precomputed GEMM (the heuristic's first)"))
      << (*n)["detail"];
  EXPECT_TRUE(contains((*n)["detail"].get<std::string>(),
                       "passed over: implicit precomputed GEMM in NCHW, implicit GEMM in NCHW"))
      << (*n)["detail"];
  auto wrong = bench("[cudnn]\nfp16_nchw = 0\nresult = wrong\n", "--gpu-only --only conv_fp16");
  ASSERT_TRUE(wrong.json.is_object());
  EXPECT_EQ((*figure(wrong, "gpu0.conv_fp16"))["status"], "failed");
  // Both of the heuristic's candidates refused: the first of the fixed order's rest, named as such.
  auto rest =
      bench("[cudnn]\nfp16_unsupported_algo = 1\nfp16_unsupported_algo_too = 0\n", "--gpu-only --only conv_fp16");
  ASSERT_TRUE(rest.json.is_object());
  const auto* g = figure(rest, "gpu0.conv_fp16");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ((*g)["status"], "ok") << (*g)["detail"];
  EXPECT_TRUE(contains((*g)["detail"].get<std::string>(),
                       ", NCHW, GEMM (none of the heuristic's: the first supported of the rest)"))
      << (*g)["detail"];
  // A cuDNN without the heuristic: the fixed order, whose first is refused here too.
  auto plain = bench("[cudnn]\nfp16_unsupported_algo = 1\nheuristic = 0\n", "--gpu-only --only conv_fp16");
  ASSERT_TRUE(plain.json.is_object());
  const auto* m = figure(plain, "gpu0.conv_fp16");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ((*m)["status"], "ok") << (*m)["detail"];
  EXPECT_TRUE(contains((*m)["detail"].get<std::string>(), "implicit GEMM (no heuristic: the first supported)"))
      << (*m)["detail"];
}

TEST_F(FakeBench, AWrongAllReduceIsCaught) {
  auto r = bench("[nccl]\nresult = wrong\n", "--gpu-only --only allreduce");
  ASSERT_TRUE(r.json.is_object());
  const auto* m = figure(r, "gpus.allreduce_busbw");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ((*m)["status"], "failed");
  EXPECT_EQ(r.exit_code, 1);
}

TEST_F(FakeBench, CorruptCopiesAreCaught) {
  auto r = bench("[cuda]\nmemcpy = corrupt\n", "--gpu-only --only h2d");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ((*figure(r, "gpu0.h2d_pinned"))["status"], "failed");
  EXPECT_EQ(r.exit_code, 1);
}

// A Jetson's GPU shares the host's DRAM (CU_DEVICE_ATTRIBUTE_INTEGRATED): its host copies cross no
// bus, and the figure must not read as a PCIe measurement.
TEST_F(FakeBench, AnIntegratedGpusHostCopiesSayThereIsNoBus) {
  auto board = [&](const std::string& name, const std::string& integrated) {
    fs::path base = dir_ / ("board-" + integrated + ".ini");
    std::ofstream(base) << "[nvml]\ndriver_version = 540.4.0\ncuda_driver_version = 12060\n[cuda]\n"
                           "driver_version = 12060\ndevice_count = 1\n[device]\nname = "
                        << name << "\ncc = 8.7\nintegrated = " << integrated << "\n";
    return bench("", "--gpu-only --only h2d_pinned,d2h_pageable", GPUDOCTOR_FAKE_LIB_DIR, base.string());
  };
  auto orin = board("Orin", "1");
  ASSERT_TRUE(orin.json.is_object()) << orin.out;
  for (const char* key : {"gpu0.h2d_pinned", "gpu0.d2h_pageable"}) {
    const auto* m = figure(orin, key);
    ASSERT_NE(m, nullptr) << orin.out;
    EXPECT_EQ((*m)["status"], "ok") << m->dump();
    EXPECT_NE((*m)["detail"].get<std::string>().find("the same DRAM"), std::string::npos) << m->dump();
  }
  auto discrete = board("NVIDIA A100-SXM4-80GB", "0");
  ASSERT_TRUE(discrete.json.is_object()) << discrete.out;
  EXPECT_EQ((*figure(discrete, "gpu0.h2d_pinned"))["detail"].get<std::string>().find("DRAM"), std::string::npos);
}

TEST_F(FakeBench, AHangInCublasIsThatFiguresTimeout) {
  auto r = bench("[calls]\ncublasGemmEx = hang\n", "--gpu-only --timeout-ms 2500 --only gemm_fp32,triad");
  ASSERT_TRUE(r.json.is_object());
  const auto* fp32 = figure(r, "gpu0.gemm_fp32");
  ASSERT_NE(fp32, nullptr);
  EXPECT_EQ((*fp32)["status"], "timeout");
  EXPECT_EQ((*fp32)["last_call"], "cublasGemmEx");
  EXPECT_EQ((*figure(r, "gpu0.triad"))["status"], "ok");
}

// Review finding: a driver that fails, or --gpu-only where nothing can be measured, passed
// with exit 0 and nothing but a note.
TEST_F(FakeBench, AFailingDriverOrGpuOnlyWithoutAGpuFailsTheRun) {
  auto failing = bench("[calls]\ncuInit = CUDA_ERROR_SYSTEM_DRIVER_MISMATCH\n", "--cpu-only");
  EXPECT_EQ(failing.exit_code, 0) << "--cpu-only never asks the driver";
  auto broken = bench("[calls]\ncuInit = CUDA_ERROR_SYSTEM_DRIVER_MISMATCH\n");
  ASSERT_TRUE(broken.json.is_object());
  EXPECT_EQ(broken.exit_code, 1) << broken.out;
  EXPECT_FALSE(broken.json["passed"].get<bool>());
  ASSERT_FALSE(broken.json["problems"].empty()) << broken.out;
  EXPECT_NE(broken.json["problems"][0].get<std::string>().find("No GPU figures"), std::string::npos);
  auto none = bench("", "--gpu-only", GPUDOCTOR_FAKE_EMPTY_DIR);
  ASSERT_TRUE(none.json.is_object());
  EXPECT_EQ(none.exit_code, 1) << none.out;
}

TEST_F(FakeBench, NoDriverMeansCpuFiguresAndANote) {
  auto r = bench("", "", GPUDOCTOR_FAKE_EMPTY_DIR);
  ASSERT_TRUE(r.json.is_object());
  EXPECT_TRUE(r.json["results"]["cpu.sgemm_fp32.gflops"].is_number()) << r.out;
  EXPECT_FALSE(r.json["results"].contains("gpu0.gemm_fp32.tflops"));
  ASSERT_FALSE(r.json["notes"].empty());
  EXPECT_NE(r.json["notes"][0].get<std::string>().find("No GPU figures"), std::string::npos);
}

// cuBLASLt through the real dlopen path: FP16/BF16 on the tensor cores and FP8 E4M3 (the fake
// refuses FP8 unless A is transposed, as the real library does), each checked and held against
// the card's datasheet peak.
TEST_F(FakeBench, CublasLtGemmsIncludingFp8AreCheckedAndHeldAgainstThePeak) {
  auto r = bench("", "--gpu-only --only gemmlt,gemm_fp8");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  struct Want {
    const char* key;
    double ceiling;
  };
  // "NVIDIA H100 80GB HBM3" (CC 9.0): compat/gpu_peaks.toml's H100 row.
  for (Want w : {Want{"gpu0.gemmlt_fp16", 989.4}, Want{"gpu0.gemmlt_bf16", 989.4}, Want{"gpu0.gemm_fp8", 1979},
                 Want{"gpu1.gemm_fp8", 1979}}) {
    const auto* m = figure(r, w.key);
    ASSERT_NE(m, nullptr) << w.key << ": " << r.out;
    EXPECT_EQ((*m)["status"], "ok") << w.key << ": " << (*m)["detail"];
    EXPECT_TRUE((*m)["check_passed"].get<bool>()) << w.key;
    EXPECT_DOUBLE_EQ((*m)["ceiling"].get<double>(), w.ceiling) << w.key;
    EXPECT_TRUE((*m)["fraction_of_ceiling"].is_number()) << w.key;
    EXPECT_NE((*m)["detail"].get<std::string>().find("cublasLtMatmul"), std::string::npos) << w.key;
    EXPECT_NE((*m)["library"].get<std::string>().find("cuBLASLt"), std::string::npos) << w.key;
  }
  EXPECT_NE((*figure(r, "gpu0.gemm_fp8"))["detail"].get<std::string>().find("FP8 E4M3"), std::string::npos);
  EXPECT_EQ(figure(r, "gpu0.copy"), nullptr) << "--only measures the figures named alone";
  EXPECT_EQ(figure(r, "gpu0.gemm_fp32"), nullptr);
  EXPECT_EQ(figure(r, "gpus.allreduce_busbw"), nullptr);
}

TEST_F(FakeBench, AWrongCublasLtGemmIsRefused) {
  auto r = bench("[cublaslt]\nresult = wrong\n", "--gpu-only --only gemmlt,gemm_fp8,gemm_bf16");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  for (const char* key : {"gpu0.gemmlt_bf16", "gpu0.gemmlt_fp16", "gpu0.gemm_fp8"}) {
    const auto* m = figure(r, key);
    ASSERT_NE(m, nullptr) << key;
    EXPECT_EQ((*m)["status"], "failed") << key;
    EXPECT_FALSE((*m)["check_passed"].get<bool>()) << key;
    EXPECT_NE((*m)["check"].get<std::string>().find("outside the bound"), std::string::npos) << (*m)["check"];
    EXPECT_TRUE((*m)["fraction_of_ceiling"].is_null()) << key << ": no share of the peak for a wrong answer";
  }
  EXPECT_TRUE(r.json["results"]["gpu0.gemm_fp8.tflops"].is_null());
  EXPECT_EQ((*figure(r, "gpu0.gemm_bf16"))["status"], "ok") << "cublasGemmEx is another library";
}

TEST_F(FakeBench, Fp8IsSkippedWithWhyOnACardWithoutIt) {
  const std::string ampere =
      "[nvml]\ndriver_version = 550.54.15\ncuda_driver_version = 12040\n[cuda]\ndriver_version = 12040\n"
      "device_count = 1\n[device]\nname = NVIDIA A100-SXM4-80GB\ncc = 8.0\n[cublas]\nversion = 120402\n";
  fs::path base = dir_ / "ampere.ini";
  std::ofstream(base) << ampere;
  auto r = bench("", "--gpu-only --only gemmlt,gemm_fp8", GPUDOCTOR_FAKE_LIB_DIR, base.string());
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ(r.exit_code, 0) << "a card without FP8 is no failure: " << r.out;
  const auto* fp8 = figure(r, "gpu0.gemm_fp8");
  ASSERT_NE(fp8, nullptr) << r.out;
  EXPECT_EQ((*fp8)["status"], "skipped");
  EXPECT_TRUE((*fp8)["value"].is_null()) << "never a figure";
  EXPECT_NE((*fp8)["detail"].get<std::string>().find("not supported on CC 8.0"), std::string::npos) << (*fp8)["detail"];
  const auto* bf16 = figure(r, "gpu0.gemmlt_bf16");
  ASSERT_NE(bf16, nullptr);
  EXPECT_EQ((*bf16)["status"], "ok");
  EXPECT_DOUBLE_EQ((*bf16)["ceiling"].get<double>(), 312);  // A100: 312 dense BF16
}

// Before Ampere there is no TF32: cuBLAS's FAST_TF32 compute type then runs FP32, so a "TF32"
// figure would be the FP32 one under another name, and "BF16 over TF32" a claim about nothing.
// BF16 runs (cuBLAS emulates it on the CUDA cores) and says so; before Volta, FP16 too.
TEST_F(FakeBench, BeforeAmpereTf32IsSkippedAndTheHalfFiguresSayWhatTheCardLacks) {
  auto card = [&](const std::string& name, const std::string& cc, const std::string& cublas = "") {
    fs::path base = dir_ / ("card-" + cc + ".ini");
    std::ofstream(base) << "[nvml]\ndriver_version = 550.54.15\ncuda_driver_version = 12040\n[cuda]\n"
                           "driver_version = 12040\ndevice_count = 1\n[device]\nname = "
                        << name << "\ncc = " << cc << "\n[cublas]\nversion = 120402\n"
                        << cublas;
    return bench("", "--gpu-only --only gemm_", GPUDOCTOR_FAKE_LIB_DIR, base.string());
  };
  auto detail = [](const nlohmann::json* m) {
    return m == nullptr ? std::string() : (*m)["detail"].get<std::string>();
  };
  auto t4 = card("Tesla T4", "7.5");
  ASSERT_TRUE(t4.json.is_object());
  EXPECT_EQ(t4.exit_code, 0) << "a card without TF32 is no failure: " << t4.out;
  const auto* tf32 = figure(t4, "gpu0.gemm_tf32");
  ASSERT_NE(tf32, nullptr) << t4.out;
  EXPECT_EQ((*tf32)["status"], "skipped");
  EXPECT_TRUE(t4.json["results"]["gpu0.gemm_tf32.tflops"].is_null()) << "never the FP32 figure under TF32's name";
  EXPECT_NE(detail(tf32).find("TF32 needs CC 8.0"), std::string::npos) << detail(tf32);
  EXPECT_EQ((*figure(t4, "gpu0.gemm_fp32"))["status"], "ok");
  const auto* bf16 = figure(t4, "gpu0.gemm_bf16");
  ASSERT_NE(bf16, nullptr);
  EXPECT_EQ((*bf16)["status"], "ok");
  EXPECT_NE(detail(bf16).find("no BF16 tensor cores"), std::string::npos) << detail(bf16);
  EXPECT_EQ(detail(figure(t4, "gpu0.gemm_fp16")).find("tensor cores"), std::string::npos)
      << "a T4 has FP16 tensor cores: " << detail(figure(t4, "gpu0.gemm_fp16"));
  bool tf32_claim = false;
  for (const auto& c : t4.json["claims"]) {
    if (c["what"].get<std::string>().find("TF32") == std::string::npos) continue;
    tf32_claim = true;
    EXPECT_TRUE(c["ratio"].is_null()) << c.dump();
    EXPECT_NE(c["basis"].get<std::string>().find("gpu0.gemm_tf32 was skipped"), std::string::npos) << c.dump();
  }
  EXPECT_TRUE(tf32_claim) << t4.out;

  // A GTX 1660 Ti is CC 7.5 like the T4, but its chip (TU116) was built without tensor cores:
  // only the knowledge base, through the PCI ID database, can say so.
  auto tu116 = card("NVIDIA GeForce GTX 1660 Ti", "7.5");
  ASSERT_TRUE(tu116.json.is_object());
  EXPECT_EQ(tu116.exit_code, 0) << tu116.out;
  const std::string lacks = "NVIDIA GeForce GTX 1660 Ti has no tensor cores (a TU116 board)";
  EXPECT_NE(detail(figure(tu116, "gpu0.gemm_fp16")).find(lacks + ": FP16 runs on its shader cores"), std::string::npos)
      << detail(figure(tu116, "gpu0.gemm_fp16"));
  EXPECT_NE(detail(figure(tu116, "gpu0.gemm_bf16")).find(lacks + ": BF16 is emulated"), std::string::npos)
      << detail(figure(tu116, "gpu0.gemm_bf16"));
  EXPECT_EQ(detail(figure(tu116, "gpu0.gemm_fp32")).find("tensor cores"), std::string::npos);
  int noted = 0;
  for (const auto& n : tu116.json["notes"]) noted += n.get<std::string>().find(lacks) != std::string::npos;
  EXPECT_EQ(noted, 1) << "once per card, with its source: " << tu116.json["notes"].dump();
  EXPECT_NE(tu116.json["notes"].dump().find("anandtech.com/show/13973"), std::string::npos);

  auto pascal = card("NVIDIA GeForce GTX 1080", "6.1");
  ASSERT_TRUE(pascal.json.is_object());
  EXPECT_NE(detail(figure(pascal, "gpu0.gemm_fp16")).find("no tensor cores"), std::string::npos)
      << detail(figure(pascal, "gpu0.gemm_fp16"));
  // A cuBLAS that refuses BF16 on the card (CUBLAS_STATUS_NOT_SUPPORTED): skipped with why; a
  // healthy machine does not fail the run for what its card lacks.
  auto p100 = card("Tesla P100-PCIE-16GB", "6.0", "bf16 = unsupported\n");
  ASSERT_TRUE(p100.json.is_object());
  EXPECT_EQ(p100.exit_code, 0) << p100.out;
  const auto* refused = figure(p100, "gpu0.gemm_bf16");
  ASSERT_NE(refused, nullptr) << p100.out;
  EXPECT_EQ((*refused)["status"], "skipped") << detail(refused);
  EXPECT_NE(detail(refused).find("CUBLAS_STATUS_NOT_SUPPORTED (this cuBLAS has no such GEMM on CC 6.0)"),
            std::string::npos)
      << detail(refused);
  EXPECT_EQ((*figure(p100, "gpu0.gemm_fp16"))["status"], "ok");

  auto ampere = card("NVIDIA A100-SXM4-80GB", "8.0");
  ASSERT_TRUE(ampere.json.is_object());
  EXPECT_EQ((*figure(ampere, "gpu0.gemm_tf32"))["status"], "ok");
  // NVIDIA_TF32_OVERRIDE=0 turns TF32 off in NVIDIA's libraries: the same FP32 under TF32's name.
  ::setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
  auto overridden = card("NVIDIA A100-SXM4-80GB", "8.0");
  ::unsetenv("NVIDIA_TF32_OVERRIDE");
  ASSERT_TRUE(overridden.json.is_object());
  EXPECT_EQ((*figure(overridden, "gpu0.gemm_tf32"))["status"], "skipped");
  EXPECT_NE(detail(figure(overridden, "gpu0.gemm_tf32")).find("NVIDIA_TF32_OVERRIDE=0"), std::string::npos);
  EXPECT_EQ(detail(figure(ampere, "gpu0.gemm_bf16")).find("tensor cores"), std::string::npos);
}

// --full asks for three 4 GiB arrays and a 16384^3 GEMM, which a 12 GB card cannot hold: a
// figure's buffers shrink to 80 % of the free device memory (the fake card's memory_total_bytes,
// which its cuMemAlloc_v2 enforces and cuMemGetInfo_v2 reports), and the detail says so.
TEST_F(FakeBench, FiguresShrinkToTheCardsFreeMemoryAndSaySo) {
  auto card = [&](unsigned long long bytes, const std::string& flags) {
    fs::path base = dir_ / ("card-" + std::to_string(bytes) + ".ini");
    std::ofstream(base) << "[nvml]\ndriver_version = 550.54.15\ncuda_driver_version = 12040\n[cuda]\n"
                           "driver_version = 12040\ndevice_count = 1\n[device]\nname = NVIDIA A100-SXM4-80GB\n"
                           "cc = 8.0\nmemory_total_bytes = "
                        << bytes << "\n[cublas]\nversion = 120402\n[cudnn]\nprecomputed_workspace_mib = 8\n";
    return bench("", "--gpu-only " + flags, GPUDOCTOR_FAKE_LIB_DIR, base.string());
  };
  auto detail = [](const nlohmann::json* m) {
    return m == nullptr ? std::string() : (*m)["detail"].get<std::string>();
  };
  sizes_ = "--gpu-conv-shape 1,4,8,4";  // each run below gives the sizes it shrinks
  // 5 MiB: 4 MiB usable. Copy's two 4 MiB arrays -> 2 MiB each, the triad's three -> 1 MiB (three
  // of 2 MiB would not fit the card), an 8 MiB host copy -> 4 MiB.
  auto small = card(5ULL << 20, "--only copy,triad,h2d_pinned,conv_fp32 --gpu-copy-mib 4 --host-copy-mib 8");
  ASSERT_TRUE(small.json.is_object());
  EXPECT_EQ(small.exit_code, 0) << small.out;
  for (auto [key, each] :
       {std::pair{"gpu0.copy", "over 2 MiB per array"}, std::pair{"gpu0.triad", "over 1 MiB per array"}}) {
    const auto* m = figure(small, key);
    ASSERT_NE(m, nullptr) << small.out;
    EXPECT_EQ((*m)["status"], "ok") << detail(m);
    EXPECT_NE(detail(m).find(each), std::string::npos) << detail(m);
    EXPECT_NE(detail(m).find("4 MiB per array did not fit in the 4 MiB it may use"), std::string::npos) << detail(m);
  }
  const auto* h2d = figure(small, "gpu0.h2d_pinned");
  ASSERT_NE(h2d, nullptr);
  EXPECT_EQ((*h2d)["status"], "ok") << detail(h2d);
  EXPECT_NE(detail(h2d).find("host -> device 4 MiB"), std::string::npos) << detail(h2d);
  // The convolution's workspace too: the heuristic's first wants 8 MiB, the next 4 KiB.
  const auto* conv = figure(small, "gpu0.conv_fp32");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ((*conv)["status"], "ok") << detail(conv);
  EXPECT_NE(detail(conv).find("passed over: implicit precomputed GEMM in NCHW (a 8 MiB workspace)"), std::string::npos)
      << detail(conv);
  // 1 MiB: a 512^3 GEMM needs 3 MiB in FP32 and 1.5 MiB in FP16; both become 256^3.
  auto tiny = card(1ULL << 20, "--only gemm_fp32,gemm_fp16 --gpu-gemm-size 512");
  ASSERT_TRUE(tiny.json.is_object());
  EXPECT_EQ(tiny.exit_code, 0) << tiny.out;
  for (const char* key : {"gpu0.gemm_fp32", "gpu0.gemm_fp16"}) {
    const auto* m = figure(tiny, key);
    ASSERT_NE(m, nullptr) << tiny.out;
    EXPECT_EQ((*m)["status"], "ok") << detail(m);
    EXPECT_NE(detail(m).find("cublasGemmEx 256^3"), std::string::npos) << detail(m);
    EXPECT_NE(detail(m).find("512^3 did not fit"), std::string::npos) << detail(m);
  }
  // A card with room: as asked, and no word about it.
  auto roomy = card(1ULL << 30, "--only copy,gemm_fp32,conv_fp32 --gpu-copy-mib 4 --gpu-gemm-size 64");
  ASSERT_TRUE(roomy.json.is_object());
  EXPECT_NE(detail(figure(roomy, "gpu0.copy")).find("over 4 MiB per array"), std::string::npos);
  EXPECT_EQ(roomy.out.find("did not fit"), std::string::npos) << roomy.out;
  EXPECT_EQ(roomy.out.find("workspace)"), std::string::npos) << "8 MiB of workspace fits: " << roomy.out;
}

// The all-reduce's send and receive buffers on every GPU fit the smallest card's memory.
TEST_F(FakeBench, TheAllReduceSweepFitsTheSmallestGpu) {
  sizes_ = "--gpu-conv-shape 1,4,8,4 --gpu-copy-mib 4";
  std::string gpus;
  for (int d = 0; d < 2; ++d) {
    gpus += "[device]\nname = NVIDIA A100-SXM4-80GB\ncc = 8.0\nmemory_total_bytes = " +
            std::to_string(d == 0 ? 64ULL << 20 : 5ULL << 20) + "\npci_bus_id = 00000000:" + std::to_string(18 + d) +
            ":00.0\n";
  }
  fs::path base = dir_ / "two.ini";
  std::ofstream(base) << "[nvml]\ndriver_version = 550.54.15\n[cuda]\ndriver_version = 12040\ndevice_count = 2\n"
                      << gpus << "[nccl]\nversion = 22304\n";
  auto r = bench("", "--gpu-only --only allreduce", GPUDOCTOR_FAKE_LIB_DIR, base.string());
  ASSERT_TRUE(r.json.is_object());
  const auto* m = figure(r, "gpus.allreduce_busbw");
  ASSERT_NE(m, nullptr) << r.out;
  EXPECT_EQ((*m)["status"], "ok") << (*m)["detail"];
  const std::string detail = (*m)["detail"];
  EXPECT_NE(detail.find("4 MiB per buffer did not fit in the 4 MiB it may use (80 % of the free device memory) of the "
                        "smallest GPU"),
            std::string::npos)
      << detail;
  EXPECT_NE(detail.find("busbw at 2097152 B"), std::string::npos) << "the sweep's largest size: " << detail;
}

TEST_F(FakeBench, OnlyThatCannotApplyIsAUsageError) {
  for (const char* flags : {"--cpu-only --only gemm", "--only gemm,,copy", "--framework jax --only gemm"}) {
    auto r = run_shell(shell_quote(GPUDOCTOR_BINARY) + " bench --no-history " + flags);
    EXPECT_EQ(r.exit_code, 2) << flags << ": " << r.out << r.err;
  }
}

// Four GPUs, two NVLink pairs (0-1, 2-3, four links each), the pairs on two NUMA nodes: the matrix
// as nvidia-smi topo -m has it, NVML's P2P status, and each peer copy against its link's rate.
TEST_F(FakeBench, TopologyOfFourGpusInTwoNvlinkPairs) {
  std::string gpus;
  const char* bus[] = {"00000000:18:00.0", "00000000:2A:00.0", "00000000:9A:00.0", "00000000:AB:00.0"};
  for (int d = 0; d < 4; ++d) {
    const int pair = d ^ 1;
    std::string links;
    for (int l = 0; l < 4; ++l) links += std::string(l == 0 ? "" : " ") + bus[pair];
    gpus += std::string("[device]\nname = NVIDIA H100 80GB HBM3\ncc = 9.0\npci_bus_id = ") + bus[d] +
            "\nnvlinks = " + links + "\nnvlink_version = 6\nnuma_node = " + std::to_string(d / 2) +
            "\npcie_max_gen = 5\npcie_max_width = 16\n";
  }
  const std::string four =
      "[nvml]\ndriver_version = 550.54.15\ncuda_driver_version = 12040\n[cuda]\n"
      "driver_version = 12040\ndevice_count = 4\npeer = 1\n" +
      gpus + "[nccl]\nversion = 22304\n";
  fs::path base = dir_ / "four.ini";
  std::ofstream(base) << four;
  auto r = bench("", "--gpu-only --only peer", GPUDOCTOR_FAKE_LIB_DIR, base.string());
  ASSERT_TRUE(r.json.is_object());
  const auto& t = r.json["topology"];
  ASSERT_TRUE(t.is_object()) << r.out;
  const std::vector<std::vector<std::string>> links = {
      {"X", "NV4", "SYS", "SYS"}, {"NV4", "X", "SYS", "SYS"}, {"SYS", "SYS", "X", "NV4"}, {"SYS", "SYS", "NV4", "X"}};
  EXPECT_EQ(t["links"].get<std::vector<std::vector<std::string>>>(), links);
  EXPECT_EQ(t["p2p_read"][0][1], "OK");
  EXPECT_EQ(t["p2p_read"][0][2], "CNS");
  EXPECT_EQ(t["bus_ids"][3], "0000:ab:00");
  EXPECT_NE(t["note"].get<std::string>().find("by PCI bus id"), std::string::npos) << t["note"];
  // The NVLink pair against 4 x 25 GB/s; across the pairs against PCIe gen 5 x16.
  const auto* nv = figure(r, "gpu0.peer_to_gpu1");
  ASSERT_NE(nv, nullptr) << r.out;
  EXPECT_EQ((*nv)["status"], "ok");
  EXPECT_DOUBLE_EQ((*nv)["ceiling"].get<double>(), 100);
  EXPECT_NE((*nv)["ceiling_source"].get<std::string>().find("NV4"), std::string::npos) << (*nv)["ceiling_source"];
  EXPECT_NE((*nv)["ceiling_source"].get<std::string>().find("NVLink 4.0 link(s) x 25 GB/s"), std::string::npos)
      << "NVML's 6 is NVLink 4.0: " << (*nv)["ceiling_source"];
  const auto* sys = figure(r, "gpu3.peer_to_gpu0");
  ASSERT_NE(sys, nullptr);
  EXPECT_NEAR((*sys)["ceiling"].get<double>(), 63.02, 0.01);
  EXPECT_NE((*sys)["ceiling_source"].get<std::string>().find("PCIe gen 5 x16"), std::string::npos);
  EXPECT_EQ(figure(r, "gpu0.gemm_fp32"), nullptr);
  // The text report prints the matrix as nvidia-smi topo -m does.
  fs::path scenario = dir_ / "scenario.ini";
  auto text = run_shell("LD_LIBRARY_PATH=" + shell_quote(GPUDOCTOR_FAKE_LIB_DIR) + " GPUDOCTOR_FAKE_DRIVER=" +
                        shell_quote(scenario.string()) + " " + shell_quote(GPUDOCTOR_BINARY) +
                        " bench --quick --no-history --gpu-only --only allreduce --gpu-copy-mib 1");
  EXPECT_NE(text.out.find("  GPU0  X      NV4    SYS    SYS     0000:18:00"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  GPU2  SYS    SYS    X      NV4"), std::string::npos) << text.out;
}

// An NVSwitch system: every GPU's links go to switches (bus ids that are no GPU's), so each pair
// is NV<links>, as nvidia-smi shows on HGX boards. Without bus ids from CUDA, NVML's order is
// assumed and the note says so; without PCIe data no PCIe ceiling is invented.
TEST_F(FakeBench, NvswitchLinksAndMissingLinkData) {
  std::string gpus;
  for (int d = 0; d < 2; ++d) {
    std::string links;
    for (int l = 0; l < 18; ++l)
      links += std::string(l == 0 ? "" : " ") + "00000000:C" + std::to_string(l % 4) + ":00.0";
    gpus += "[device]\nname = NVIDIA H100 80GB HBM3\ncc = 9.0\npci_bus_id = 00000000:" + std::to_string(18 + d) +
            ":00.0\nnvlinks = " + links + "\nnvlink_version = 6\n";
  }
  fs::path base = dir_ / "hgx.ini";
  std::ofstream(base) << "[nvml]\ndriver_version = 550.54.15\n[cuda]\ndriver_version = 12040\ndevice_count = 2\n"
                         "peer = 1\n"
                      << gpus;
  auto r = bench("", "--gpu-only --only peer", GPUDOCTOR_FAKE_LIB_DIR, base.string());
  ASSERT_TRUE(r.json.is_object());
  ASSERT_TRUE(r.json["topology"].is_object()) << r.out;
  EXPECT_EQ(r.json["topology"]["links"][0][1], "NV18");
  const auto* m = figure(r, "gpu1.peer_to_gpu0");
  ASSERT_NE(m, nullptr);
  EXPECT_DOUBLE_EQ((*m)["ceiling"].get<double>(), 450);
  EXPECT_NE((*m)["ceiling_source"].get<std::string>().find("through NVSwitch"), std::string::npos);

  auto plain = bench("", "--gpu-only --only peer");
  ASSERT_TRUE(plain.json.is_object());
  const auto& t = plain.json["topology"];
  ASSERT_TRUE(t.is_object()) << plain.out;
  EXPECT_EQ(t["links"][0][1], "NODE");
  EXPECT_NE(t["note"].get<std::string>().find("NVML's order assumed"), std::string::npos) << t["note"];
  const auto* p = figure(plain, "gpu0.peer_to_gpu1");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ((*p)["status"], "ok");
  EXPECT_TRUE((*p)["ceiling"].is_null()) << "no link data, no ceiling";
}

// The CPU SGEMM through each shape of OpenBLAS a machine offers (fake_openblas.cpp): the usual
// LP64 build, Debian's ILP64 libopenblas64 (unsuffixed names, 64-bit dimensions: only its config
// says so) and numpy's bundled copy (scipy_..._64_ names). An ILP64 library called with 32-bit
// dimensions reads garbage in their upper halves; the library line says which form was called.
TEST(FakeOpenblas, EachShapeOfOpenblasIsCalledWithItsOwnIntegerWidth) {
  struct Shape {
    const char* file;
    bool ilp64;
  };
  for (Shape shape : {Shape{"openblas-lp64/libopenblas.so.0", false}, Shape{"openblas-ilp64/libopenblas64.so.0", true},
                      Shape{"openblas-scipy64/libscipy_openblas64_-fake.so", true}}) {
    const std::string lib = std::string(GPUDOCTOR_FAKE_DIR) + "/" + shape.file;
    auto r = testing::run_shell(shell_quote(GPUDOCTOR_BINARY) +
                                    " --json bench --quick --cpu-only --no-history --sgemm-size 96 --conv-batch 1"
                                    " --openblas " +
                                    shell_quote(lib),
                                std::chrono::minutes(2));
    ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
    const nlohmann::json* m = nullptr;
    for (const auto& f : r.json["measurements"]) {
      if (f["key"] == "cpu.sgemm_fp32") m = &f;
    }
    ASSERT_NE(m, nullptr) << r.out;
    EXPECT_EQ((*m)["status"], "ok") << shape.file << ": " << (*m)["detail"] << " " << (*m)["check"];
    EXPECT_TRUE((*m)["check_passed"].get<bool>()) << shape.file << ": " << (*m)["check"];
    const std::string library = (*m)["library"].get<std::string>();
    EXPECT_NE(library.find(lib), std::string::npos) << library;
    EXPECT_NE(library.find("(fake)"), std::string::npos) << library;
    EXPECT_EQ(library.find(", ILP64") != std::string::npos, shape.ilp64) << shape.file << ": " << library;
  }
}

/// bench's CPU figures only, small, through the library `--openblas` names.
testing::RunResult bench_cpu_with_openblas(const std::string& library) {
  return testing::run_shell(shell_quote(GPUDOCTOR_BINARY) +
                                " --json bench --quick --cpu-only --no-history --sgemm-size 64 --conv-batch 1"
                                " --openblas " +
                                shell_quote(library),
                            std::chrono::minutes(2));
}

TEST(FakeOpenblas, ALibraryWithoutSgemmFailsAndSoDoesAMissingNamedOne) {
  // The fake NVML is a shared library with no cblas_sgemm of any name.
  auto r = bench_cpu_with_openblas(std::string(GPUDOCTOR_FAKE_LIB_DIR) + "/libnvidia-ml.so.1");
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto& first = r.json["measurements"][0];
  EXPECT_EQ(first["key"], "cpu.sgemm_fp32");
  EXPECT_EQ(first["status"], "failed");
  EXPECT_NE(first["detail"].get<std::string>().find("exports no cblas_sgemm"), std::string::npos) << first["detail"];

  // The user named it: a typo is a failure that names the path, not "skipped" with exit 0.
  auto missing = bench_cpu_with_openblas("/nonexistent/libopenblas.so.0");
  ASSERT_TRUE(missing.json.is_object()) << missing.out << missing.err;
  EXPECT_EQ(missing.exit_code, 1) << missing.out;
  EXPECT_EQ(missing.json["measurements"][0]["status"], "failed");
  EXPECT_NE(missing.json["measurements"][0]["detail"].get<std::string>().find("/nonexistent/libopenblas.so.0"),
            std::string::npos)
      << missing.json["measurements"][0]["detail"];
  auto usage =
      testing::run_shell(shell_quote(GPUDOCTOR_BINARY) + " bench --gpu-only --openblas /x.so", std::chrono::minutes(1));
  EXPECT_EQ(usage.exit_code, 2) << usage.err;
}

// A cblas_sgemm without openblas_get_config is no OpenBLAS: whether its dimensions are 32- or
// 64-bit cannot be known, so it is not called (this fake is ILP64: called as LP64 it would read
// garbage dimensions).
TEST(FakeOpenblas, ABlasWhoseIntegerWidthIsUnknownIsNotCalled) {
  auto r = bench_cpu_with_openblas(std::string(GPUDOCTOR_FAKE_DIR) + "/blas-no-config/libblas64.so.3");
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const auto& m = r.json["measurements"][0];
  EXPECT_EQ(m["status"], "failed") << m;
  EXPECT_NE(m["detail"].get<std::string>().find("integer width (LP64 or ILP64) is unknown"), std::string::npos) << m;
  EXPECT_FALSE(m.contains("value") && m["value"].is_number()) << m;
}

// dlsym on a shim's handle finds the SGEMM of a library it depends on: the report names the file
// whose code ran, and the one that was opened.
TEST(FakeOpenblas, AShimIsNamedWithTheLibraryWhoseSgemmRan) {
  const std::string shim = std::string(GPUDOCTOR_FAKE_DIR) + "/blas-shim/libflexiblas.so.3";
  auto r = bench_cpu_with_openblas(shim);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const auto& m = r.json["measurements"][0];
  EXPECT_EQ(m["status"], "ok") << m;
  const std::string library = m["library"].get<std::string>();
  EXPECT_NE(library.find("openblas-lp64/libopenblas.so.0 through "), std::string::npos) << library;
  EXPECT_TRUE(library.ends_with("blas-shim/libflexiblas.so.3")) << library;
}

// The child tries every candidate in turn: a library that loads without any SGEMM is passed over
// for the next; a bundled copy that cannot load is a note, never the figure's failure, while a
// broken library of the system's or --openblas fails it.
TEST(FakeOpenblas, CandidatesArePassedOverInTurnAndOnlyANamedOneFailsTheFigure) {
  const std::string fake = GPUDOCTOR_FAKE_DIR;
  const std::string no_sgemm = std::string(GPUDOCTOR_FAKE_LIB_DIR) + "/libnvidia-ml.so.1";
  auto run = [](std::vector<std::string> libs) {
    std::vector<std::string> args{"sgemm", "64", "quick", "threads=1"};
    args.insert(args.end(), libs.begin(), libs.end());
    auto out = gpu::run_isolated({{"cpu-bench", args}}, std::chrono::seconds(60));
    return gpu::measurement_from_child("cpu.sgemm_fp32", "gflops", out.at(0));
  };
  // Not an ELF file: it exists, and fails to load.
  fs::path junk = fs::temp_directory_path() / ("gpudoctor-junk-openblas-" + std::to_string(::getpid()) + ".so");
  std::ofstream(junk) << "not a library";

  BenchMeasurement later = run({"lib=" + no_sgemm, "lib=/nonexistent/libopenblas.so.0", "bundled=" + junk.string(),
                                "bundled=" + fake + "/openblas-scipy64/libscipy_openblas64_-fake.so"});
  EXPECT_EQ(later.status, BenchStatus::ok) << later.detail;
  EXPECT_NE(later.library.find("openblas-scipy64"), std::string::npos) << later.library;
  EXPECT_NE(later.detail.find("passed over"), std::string::npos) << later.detail;
  EXPECT_NE(later.detail.find("exports no cblas_sgemm"), std::string::npos) << later.detail;
  EXPECT_NE(later.detail.find(junk.string()), std::string::npos) << later.detail;

  BenchMeasurement bundled_broken = run({"lib=/nonexistent/libopenblas.so.0", "bundled=" + junk.string()});
  EXPECT_EQ(bundled_broken.status, BenchStatus::skipped) << bundled_broken.detail;
  EXPECT_NE(bundled_broken.detail.find(junk.string()), std::string::npos) << bundled_broken.detail;

  BenchMeasurement named_broken = run({"lib=" + junk.string(), "bundled=/nonexistent/libscipy_openblas64_.so"});
  EXPECT_EQ(named_broken.status, BenchStatus::failed) << named_broken.detail;

  BenchMeasurement none = run({"lib=/nonexistent/libopenblas.so.0", "bundled=/nonexistent/libscipy_openblas64_.so"});
  EXPECT_EQ(none.status, BenchStatus::skipped) << none.detail;
  EXPECT_NE(none.detail.find("not found (/nonexistent/libopenblas.so.0"), std::string::npos) << none.detail;
  fs::remove(junk);
}

}  // namespace
}  // namespace gpudoctor
