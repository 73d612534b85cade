// `gpudoctor bench` against the fake driver and runtime libraries: the real binary, dlopen path,
// children and deadlines, small sizes. The fakes compute on the host and time with a steady clock,
// so the figures mean nothing; what is tested is that every GPU figure is measured, checked,
// keyed and held against its ceiling, and that a wrong answer, a hang or a missing driver becomes
// that figure's status rather than the run's end.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::run_shell;
using testing::shell_quote;

class FakeBench : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpudoctor-bench-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  testing::RunResult bench(const std::string& extra, const std::string& flags = "",
                           const std::string& lib_path = GPUDOCTOR_FAKE_LIB_DIR) {
    std::ifstream in(std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/verify_healthy.ini");
    std::stringstream healthy;
    healthy << in.rdbuf();
    fs::path scenario = dir_ / "scenario.ini";
    std::ofstream(scenario) << healthy.str() << "\n" << extra << "\n";
    std::string line = "LD_LIBRARY_PATH=" + shell_quote(lib_path) +
                       " GPUDOCTOR_FAKE_DRIVER=" + shell_quote(scenario.string()) + " " +
                       shell_quote(GPUDOCTOR_BINARY) +
                       " --json bench --quick --no-history --sgemm-size 96 --conv-batch 1 --gpu-gemm-size 64"
                       " --gpu-copy-mib 1 --host-copy-mib 1 --gpu-conv-shape 1,4,8,4 " +
                       flags;
    auto r = run_shell(line);
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

TEST_F(FakeBench, AWrongGemmFailsItsFigureAndTheRun) {
  auto r = bench("[cublas]\nresult = wrong\n", "--gpu-only");
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
  auto r = bench("[cudnn]\nversion = 90100\nresult = wrong\n", "--gpu-only");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ((*figure(r, "gpu0.conv_fp16"))["status"], "failed");
  EXPECT_EQ((*figure(r, "gpu0.conv_fp32"))["status"], "failed");
  EXPECT_EQ((*figure(r, "gpu0.gemm_fp16"))["status"], "ok");
}

TEST_F(FakeBench, AWrongAllReduceIsCaught) {
  auto r = bench("[nccl]\nresult = wrong\n", "--gpu-only");
  ASSERT_TRUE(r.json.is_object());
  const auto* m = figure(r, "gpus.allreduce_busbw");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ((*m)["status"], "failed");
  EXPECT_EQ(r.exit_code, 1);
}

TEST_F(FakeBench, CorruptCopiesAreCaught) {
  auto r = bench("[cuda]\nmemcpy = corrupt\n", "--gpu-only");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ((*figure(r, "gpu0.h2d_pinned"))["status"], "failed");
  EXPECT_EQ(r.exit_code, 1);
}

TEST_F(FakeBench, AHangInCublasIsThatFiguresTimeout) {
  auto r = bench("[calls]\ncublasGemmEx = hang\n", "--gpu-only --timeout-ms 2500");
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

}  // namespace
}  // namespace gpudoctor
