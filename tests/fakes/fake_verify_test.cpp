// `gpudoctor verify` against the fake driver and runtime libraries (tests/fakes): the real
// binary, the real dlopen path, real children and deadlines. Each test writes its scenario
// (verify_healthy.ini plus what it breaks) and starts gpudoctor with the fakes first on
// LD_LIBRARY_PATH. Every case must end with a report that names the failing step.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "run_gpudoctor.hpp"
#include "test_files.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using testing::run_shell;
using testing::shell_quote;

class FakeVerify : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir_for_test("gpudoctor-verify");
    fs::create_directories(dir_);
    base_ = read_text(std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/verify_healthy.ini");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  /// verify --json with the healthy scenario plus `extra` (INI lines), returning the run.
  testing::RunResult verify(const std::string& extra, const std::string& flags = "",
                            const std::string& lib_path = GPUDOCTOR_FAKE_LIB_DIR) {
    fs::path scenario = dir_ / "scenario.ini";
    std::ofstream(scenario) << base_ << "\n" << extra << "\n";
    std::string line = "env -u CUDA_VISIBLE_DEVICES LD_LIBRARY_PATH=" + shell_quote(lib_path) +
                       " GPUDOCTOR_FAKE_DRIVER=" + shell_quote(scenario.string()) + " " +
                       shell_quote(GPUDOCTOR_BINARY) + " --json verify " + flags;
    auto r = run_shell(line);
    EXPECT_TRUE(r.json.is_object()) << line << "\nstdout: " << r.out << "\nstderr: " << r.err;
    return r;
  }

  /// The same run in text (no --json), as a user reads it.
  testing::RunResult verify_text(const std::string& extra, const std::string& flags = "",
                                 const std::string& lib_path = GPUDOCTOR_FAKE_LIB_DIR) {
    fs::path scenario = dir_ / "scenario.ini";
    std::ofstream(scenario) << base_ << "\n" << extra << "\n";
    return run_shell("env -u CUDA_VISIBLE_DEVICES LD_LIBRARY_PATH=" + shell_quote(lib_path) +
                     " GPUDOCTOR_FAKE_DRIVER=" + shell_quote(scenario.string()) + " " + shell_quote(GPUDOCTOR_BINARY) +
                     " verify " + flags);
  }

  static const nlohmann::json* step(const testing::RunResult& r, const std::string& name, int device = 0) {
    if (!r.json.is_object()) return nullptr;
    for (const auto& s : r.json["steps"]) {
      bool across = !s.contains("device");
      if (s["name"] == name && (across || s["device"] == device)) return &s;
    }
    return nullptr;
  }

  /// The first step that did not pass or skip: what the report names as the failure.
  static std::string first_failure(const testing::RunResult& r) {
    if (!r.json.is_object()) return "";
    for (const auto& s : r.json["steps"]) {
      if (s["status"] != "passed" && s["status"] != "skipped") return s["name"].get<std::string>();
    }
    return "";
  }

  static const nlohmann::json* library(const testing::RunResult& r, const std::string& name) {
    if (!r.json.is_object()) return nullptr;
    for (const auto& l : r.json["libraries"]) {
      if (l["name"] == name) return &l;
    }
    return nullptr;
  }

  fs::path dir_;
  std::string base_;  ///< the scenario's start: verify_healthy.ini unless a test changes it
};

TEST_F(FakeVerify, HealthyTwoGpusPassEveryStepAndExitZero) {
  auto r = verify("");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.json["passed"], true);
  for (const char* name : {"driver", "context", "memory", "kernel", "sgemm", "hgemm", "cudnn-conv"}) {
    for (int d : {0, 1}) {
      const auto* s = step(r, name, d);
      ASSERT_NE(s, nullptr) << name << " on GPU " << d;
      EXPECT_EQ((*s)["status"], "passed") << name << ": " << (*s)["detail"];
    }
  }
  EXPECT_EQ((*step(r, "nccl-allreduce"))["status"], "passed");
  EXPECT_EQ((*step(r, "peer-access"))["status"], "passed");
  EXPECT_EQ((*step(r, "gpu-count"))["status"], "passed") << (*step(r, "gpu-count"))["detail"];
  // Each library is reported with the fake's own version call and the absolute path loaded.
  const auto* cudnn = library(r, "cudnn");
  ASSERT_NE(cudnn, nullptr);
  EXPECT_EQ((*cudnn)["version"], "9.1.0");
  EXPECT_EQ((*cudnn)["path"], std::string(GPUDOCTOR_FAKE_LIB_DIR) + "/libcudnn.so.9");
  EXPECT_EQ((*library(r, "cublas"))["version"], "12.4.2");
  EXPECT_EQ((*library(r, "nccl"))["version"], "2.23.4");
  EXPECT_EQ((*library(r, "nvrtc"))["version"], "13.0");
  EXPECT_EQ((*library(r, "cudnn_cnn"))["status"], "ok");
}

TEST_F(FakeVerify, QuickStopsAfterTheFirstKernel) {
  auto r = verify("", "--quick");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(step(r, "kernel"), nullptr);
  EXPECT_EQ(step(r, "sgemm"), nullptr);
  EXPECT_EQ(step(r, "nccl-allreduce"), nullptr);
}

TEST_F(FakeVerify, OneGpuSkipsPeerAccessAndSaysWhy) {
  base_.erase(base_.rfind("[device]"), base_.find("[cublas]") - base_.rfind("[device]"));  // NVML sees one too
  auto r = verify("[cuda]\ndevice_count = 1\n");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const auto* peer = step(r, "peer-access");
  ASSERT_NE(peer, nullptr);
  EXPECT_EQ((*peer)["status"], "skipped");
  EXPECT_NE((*peer)["detail"].get<std::string>().find("only one GPU"), std::string::npos);
}

/// A library that computes a wrong answer: verify must catch it, in the step that used it.
struct WrongCase {
  const char* extra;
  const char* step;
};

class FakeVerifyWrong : public FakeVerify, public ::testing::WithParamInterface<WrongCase> {};

TEST_P(FakeVerifyWrong, IsCaughtAndNamed) {
  auto r = verify(GetParam().extra);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(first_failure(r), GetParam().step) << r.out;
  const auto* s = step(r, GetParam().step);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ((*s)["status"], "failed");
}

INSTANTIATE_TEST_SUITE_P(Results, FakeVerifyWrong,
                         ::testing::Values(WrongCase{"[cuda]\nmemcpy = corrupt\n", "memory"},
                                           WrongCase{"[kernel]\nresult = wrong\n", "kernel"},
                                           WrongCase{"[cublas]\nresult = wrong\n", "sgemm"},
                                           WrongCase{"[cudnn]\nresult = wrong\n", "cudnn-conv"},
                                           WrongCase{"[nccl]\nresult = wrong\n", "nccl-allreduce"}));

// Found by the mutation run (verify-conv-backward-unchecked survived): only forward was ever wrong.
TEST_F(FakeVerify, AWrongBackwardDataConvolutionIsCaughtWhenForwardIsRight) {
  auto r = verify("[cudnn]\nresult = wrong-backward\n");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(first_failure(r), "cudnn-conv") << r.out;
  const auto* s = step(r, "cudnn-conv");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ((*s)["status"], "failed");
  std::string detail = (*s)["detail"];
  EXPECT_NE(detail.find("backward data gave a wrong result"), std::string::npos) << detail;
}

TEST_F(FakeVerify, WrongHalfGemmIsCaughtToo) {
  auto r = verify("[cublas]\nresult = wrong\n");
  EXPECT_EQ((*step(r, "hgemm"))["status"], "failed");
  EXPECT_NE((*step(r, "hgemm"))["detail"].get<std::string>().find("wrong result"), std::string::npos);
}

/// An error code at each step's own call: the step fails with the call and the code's name.
struct ErrorCase {
  const char* call;
  const char* code;
  const char* step;
  const char* words;  ///< in the step's detail
};

class FakeVerifyError : public FakeVerify, public ::testing::WithParamInterface<ErrorCase> {};

TEST_P(FakeVerifyError, FailsTheStepThatMadeTheCall) {
  const ErrorCase& c = GetParam();
  auto r = verify(std::string("[calls]\n") + c.call + " = " + c.code + "\n");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(first_failure(r), c.step) << r.out;
  const auto* s = step(r, c.step);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ((*s)["status"], "failed");
  std::string detail = (*s)["detail"];
  EXPECT_NE(detail.find(c.call), std::string::npos) << detail;
  EXPECT_NE(detail.find(c.words), std::string::npos) << detail;
}

INSTANTIATE_TEST_SUITE_P(
    Calls, FakeVerifyError,
    ::testing::Values(ErrorCase{"cuInit", "CUDA_ERROR_NO_DEVICE", "driver", "CUDA_ERROR_NO_DEVICE"},
                      ErrorCase{"cuDevicePrimaryCtxRetain", "999", "context", "CUDA_ERROR_UNKNOWN"},
                      ErrorCase{"cuMemcpyDtoH_v2", "1", "memory", "CUDA_ERROR_INVALID_VALUE"},
                      ErrorCase{"cuModuleLoadDataEx", "218", "kernel", "(218)"},
                      ErrorCase{"cublasSgemm_v2", "13", "sgemm", "CUBLAS_STATUS_EXECUTION_FAILED"},
                      ErrorCase{"cublasGemmEx", "15", "hgemm", "CUBLAS_STATUS_NOT_SUPPORTED"},
                      ErrorCase{"cudnnConvolutionBackwardData", "2000", "cudnn-conv", "CUDNN_STATUS_BAD_PARAM"},
                      ErrorCase{"ncclAllReduce", "4", "nccl-allreduce", "invalid argument"},
                      ErrorCase{"cuMemcpyPeer", "1", "peer-access", "CUDA_ERROR_INVALID_VALUE"}));

TEST_F(FakeVerify, AHangBecomesATimeoutNamingTheStepAndTheCall) {
  auto r = verify("[calls]\ncublasSgemm_v2 = hang\n", "--step-timeout-ms 1500");
  EXPECT_EQ(r.exit_code, 1);
  const auto* s = step(r, "sgemm");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ((*s)["status"], "timeout");
  EXPECT_EQ((*s)["last_call"], "cublasSgemm_v2");
  // The run went on to the other GPU; this one, hung, is given no more work (review 44A, 07).
  EXPECT_EQ((*step(r, "context", 1))["status"], "passed");
  EXPECT_EQ((*step(r, "cudnn-conv"))["status"], "skipped");
}

// Review 44A, 07: every hung step cost a full deadline, GPUs x steps (24 minutes on 8 GPUs with
// cuBLAS and cuDNN wedged). After a GPU hangs its later steps are not run, with the reason.
TEST_F(FakeVerify, AHungGpuGetsNoMoreWorkSoEachGpuCostsOneDeadline) {
  auto r = verify("[calls]\ncublasSgemm_v2 = hang\ncublasGemmEx = hang\ncudnnConvolutionForward = hang\n",
                  "--step-timeout-ms 1000");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ(r.exit_code, 1);
  int timeouts = 0;
  for (const auto& s : r.json["steps"]) timeouts += s["status"] == "timeout" ? 1 : 0;
  EXPECT_EQ(timeouts, 2) << "one per GPU: " << r.json["steps"].dump();
  for (int d : {0, 1}) {
    EXPECT_EQ((*step(r, "kernel", d))["status"], "passed");
    EXPECT_EQ((*step(r, "sgemm", d))["status"], "timeout");
    for (const char* later : {"hgemm", "cudnn-conv"}) {
      const auto* s = step(r, later, d);
      ASSERT_NE(s, nullptr) << later;
      EXPECT_EQ((*s)["status"], "skipped") << later;
      EXPECT_NE((*s)["detail"].get<std::string>().find("GPU " + std::to_string(d) + " hung in cublasSgemm_v2"),
                std::string::npos)
          << (*s)["detail"];
    }
  }
  EXPECT_EQ((*step(r, "nccl-allreduce"))["status"], "skipped");
  EXPECT_NE((*step(r, "peer-access"))["detail"].get<std::string>().find("hung"), std::string::npos);
}

// A crash inside a driver call leaves the GPU unfit too; a crash in a library's own code (the
// cuDNN test above) does not: the other steps still run there.
TEST_F(FakeVerify, ACrashInADriverCallEndsThatGpusWork) {
  auto r = verify("[calls]\ncuLaunchKernel = crash\n");
  EXPECT_EQ((*step(r, "kernel"))["status"], "crashed");
  const auto* sgemm = step(r, "sgemm");
  ASSERT_NE(sgemm, nullptr);
  EXPECT_EQ((*sgemm)["status"], "skipped");
  EXPECT_NE((*sgemm)["detail"].get<std::string>().find("GPU 0 crashed in cuLaunchKernel"), std::string::npos)
      << (*sgemm)["detail"];
}

TEST_F(FakeVerify, ASegfaultBecomesACrashNamingTheStepTheSignalAndTheCall) {
  auto r = verify("[calls]\ncudnnConvolutionForward = crash\n");
  EXPECT_EQ(r.exit_code, 1);
  const auto* s = step(r, "cudnn-conv");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ((*s)["status"], "crashed");
  std::string detail = (*s)["detail"];
#if !defined(__SANITIZE_ADDRESS__)
  // Under ASan the sanitizer catches the signal and exits with a status instead.
  EXPECT_NE(detail.find("SIGSEGV"), std::string::npos) << detail;
#endif
  EXPECT_NE(detail.find("in cudnnConvolutionForward"), std::string::npos) << detail;
  EXPECT_EQ((*step(r, "nccl-allreduce"))["status"], "passed");
}

TEST_F(FakeVerify, ACrashWhileAskingALibraryItsVersionIsThatLibrarysFinding) {
  auto r = verify("[calls]\nncclGetVersion = crash\n");
  const auto* nccl = library(r, "nccl");
  ASSERT_NE(nccl, nullptr);
  EXPECT_EQ((*nccl)["status"], "crashed");
  EXPECT_NE((*nccl)["error"].get<std::string>().find("in ncclGetVersion"), std::string::npos) << (*nccl)["error"];
  const auto* s = step(r, "nccl-allreduce");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ((*s)["status"], "failed");
  EXPECT_EQ(r.exit_code, 1);
}

TEST_F(FakeVerify, AMissingRequiredEntryPointIsNamed) {
  auto r = verify("", "", std::string(GPUDOCTOR_FAKE_MISSING_RUNTIME_DIR) + ":" + GPUDOCTOR_FAKE_LIB_DIR);
  const auto* cublas = library(r, "cublas");
  ASSERT_NE(cublas, nullptr);
  EXPECT_EQ((*cublas)["status"], "load-failed");
  EXPECT_NE((*cublas)["error"].get<std::string>().find("cublasSgemm_v2"), std::string::npos);
  EXPECT_EQ((*step(r, "sgemm"))["status"], "failed");
  EXPECT_EQ(first_failure(r), "sgemm");
  EXPECT_EQ(r.exit_code, 1);
}

TEST_F(FakeVerify, AnOldCudnnIsRefusedWithItsVersion) {
  auto r = verify("[cudnn]\nversion = 7605\n");
  const auto* s = step(r, "cudnn-conv");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ((*s)["status"], "failed");
  EXPECT_NE((*s)["detail"].get<std::string>().find("cuDNN 7.6.5"), std::string::npos) << (*s)["detail"];
  EXPECT_EQ(first_failure(r), "cudnn-conv");
}

TEST_F(FakeVerify, NoDriverSaysSoAndSkipsTheRestWithTheReason) {
  auto r = verify("", "", GPUDOCTOR_FAKE_EMPTY_DIR);
  EXPECT_EQ(r.exit_code, 1);
  const auto* d = step(r, "driver");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ((*d)["status"], "failed");
  EXPECT_NE((*d)["detail"].get<std::string>().find("no NVIDIA driver"), std::string::npos);
  EXPECT_EQ((*step(r, "kernel"))["status"], "skipped");
}

TEST_F(FakeVerify, TextReportNamesTheFailingStep) {
  fs::path scenario = dir_ / "text.ini";
  std::ofstream(scenario) << read_text(std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/verify_healthy.ini")
                          << "\n[kernel]\nresult = wrong\n";
  auto r = run_shell("LD_LIBRARY_PATH=" + shell_quote(GPUDOCTOR_FAKE_LIB_DIR) + " GPUDOCTOR_FAKE_DRIVER=" +
                     shell_quote(scenario.string()) + " " + shell_quote(GPUDOCTOR_BINARY) + " verify --quick");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("the first: kernel on GPU 0 (failed)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("elements wrong"), std::string::npos) << r.out;
}

// Review 44A, 01: NVRTC (no step of its own) crashing in nvrtcVersion left "every step that could
// run passed", exit 0, "passed": true. A library verify loaded that crashed or hung is a failure.
struct LoadFault {
  const char* calls;
  const char* words;  ///< in the problem and the summary
};

class FakeVerifyLoadFault : public FakeVerify, public ::testing::WithParamInterface<LoadFault> {};

TEST_P(FakeVerifyLoadFault, FailsTheRunAndIsNamedInTheSummary) {
  auto r = verify(std::string("[calls]\n") + GetParam().calls, "--step-timeout-ms 1500");
  ASSERT_TRUE(r.json.is_object());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(r.json["passed"], false);
  EXPECT_NE(r.json["problems"].dump().find(GetParam().words), std::string::npos) << r.json["problems"];
  auto text = verify_text(std::string("[calls]\n") + GetParam().calls, "--step-timeout-ms 1500");
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_EQ(text.out.find("every step that could run passed"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("problem(s) outside the steps; the first: " + std::string(GetParam().words)),
            std::string::npos)
      << text.out;
}

INSTANTIATE_TEST_SUITE_P(Libraries, FakeVerifyLoadFault,
                         ::testing::Values(LoadFault{"nvrtcVersion = crash\n", "nvrtc crashed when loaded"},
                                           LoadFault{"nvrtcVersion = hang\n", "nvrtc hung when loaded"},
                                           LoadFault{"cublasLtGetVersion = crash\n", "cublasLt crashed when loaded"}));

// Review 44A, 05: cuBLAS, cuDNN and NCCL absent from the environment --libs-from named: 7 steps
// "skipped", "every step that could run passed", exit 0. Now "not-found", a failure, named.
TEST_F(FakeVerify, LibrariesNotFoundWhereAskedFailTheRunAndAreNamed) {
  fs::path driver = dir_ / "driver";
  fs::create_directories(driver);
  for (const char* lib : {"libcuda.so.1", "libnvidia-ml.so.1"})
    fs::create_symlink(fs::path(GPUDOCTOR_FAKE_LIB_DIR) / lib, driver / lib);
  fs::path venv = dir_ / "venv";
  fs::path nvrtc = venv / "lib/python3.11/site-packages/nvidia/cuda_nvrtc/lib";
  fs::create_directories(nvrtc);
  std::ofstream(venv / "pyvenv.cfg") << "home = /usr/bin\nversion = 3.11.7\n";
  fs::copy_file(fs::path(GPUDOCTOR_FAKE_LIB_DIR) / "libnvrtc.so.13", nvrtc / "libnvrtc.so.13");
  const std::string flags = "--libs-from " + shell_quote(venv.string());
  fs::path scenario = dir_ / "scenario.ini";
  std::ofstream(scenario) << read_text(std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/verify_healthy.ini");
  const std::string start = "LD_LIBRARY_PATH=" + shell_quote(driver.string()) +
                            " GPUDOCTOR_FAKE_DRIVER=" + shell_quote(scenario.string()) + " " +
                            shell_quote(GPUDOCTOR_BINARY) + " --env " + shell_quote(venv.string());
  auto r = run_shell(start + " --json verify " + flags);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(r.json["passed"], false);
  for (const char* name : {"sgemm", "hgemm", "cudnn-conv", "nccl-allreduce"}) {
    const auto* s = step(r, name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_EQ((*s)["status"], "not-found") << name << ": " << (*s)["detail"];
  }
  EXPECT_EQ((*step(r, "kernel"))["status"], "passed");
  EXPECT_EQ((*step(r, "peer-access"))["status"], "passed");
  auto text = run_shell(start + " verify " + flags);
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_EQ(text.out.find("every step that could run passed"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("7 step(s) not run: cuBLAS not found in " + venv.string() + "; cuDNN not found in " +
                          venv.string() + "; NCCL not found in " + venv.string()),
            std::string::npos)
      << text.out;
}

// Review 44A, 08: a cuBLAS refused for a missing entry point was shown without its path in text.
TEST_F(FakeVerify, ARefusedLibraryIsShownWithItsPath) {
  auto r = verify_text("", "", std::string(GPUDOCTOR_FAKE_MISSING_RUNTIME_DIR) + ":" + GPUDOCTOR_FAKE_LIB_DIR);
  EXPECT_NE(r.out.find("missing required entry point: cublasSgemm_v2 (" +
                       std::string(GPUDOCTOR_FAKE_MISSING_RUNTIME_DIR) + "/libcublas.so.13)"),
            std::string::npos)
      << r.out;
  // Near miss: a healthy library's row is its path alone, once.
  auto ok = verify_text("");
  const std::string cudnn = std::string(GPUDOCTOR_FAKE_LIB_DIR) + "/libcudnn.so.9";
  EXPECT_NE(ok.out.find(" " + cudnn + "\n"), std::string::npos) << ok.out;
}

// Review 44A, 06: GPUs were named only by CUDA ordinal, and a CUDA_VISIBLE_DEVICES subset was
// tested without a word. Each GPU's steps carry its PCI address; the variable is named.
TEST_F(FakeVerify, EachGpusStepsNameItsPciAddress) {
  // The fake's cuDeviceGetAttribute answers the PCI domain, bus and device from [device] pci_bus_id.
  size_t at = 0;
  for (const char* bus : {"00000000:3B:00.0", "00000000:86:00.0"}) {
    at = base_.find("cc = 9.0\n", at);
    ASSERT_NE(at, std::string::npos);
    at += 9;
    base_.insert(at, std::string("pci_bus_id = ") + bus + "\n");
  }
  auto r = verify("");
  const auto* driver = step(r, "driver", 1);
  ASSERT_NE(driver, nullptr);
  EXPECT_NE((*driver)["detail"].get<std::string>().find("PCI 0000:86:00"), std::string::npos) << (*driver)["detail"];
  for (const char* name : {"context", "memory", "kernel", "sgemm", "cudnn-conv"}) {
    EXPECT_EQ((*step(r, name, 0)).value("pci_bus_id", ""), "0000:3b:00") << name;
    EXPECT_EQ((*step(r, name, 1)).value("pci_bus_id", ""), "0000:86:00") << name;
  }
  EXPECT_FALSE((*step(r, "nccl-allreduce")).contains("pci_bus_id"));
  // Near miss: without CUDA_VISIBLE_DEVICES there is nothing to say about it.
  EXPECT_TRUE(r.json["notes"].empty()) << r.json["notes"];
  auto text = verify_text("[kernel]\nresult = wrong\n", "--quick");
  EXPECT_NE(text.out.find("the first: kernel on GPU 0 at PCI 0000:3b:00 (failed)"), std::string::npos) << text.out;
}

TEST_F(FakeVerify, CudaVisibleDevicesIsNamedWhenItLimitsTheRun) {
  fs::path scenario = dir_ / "one.ini";
  std::ofstream(scenario) << read_text(std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/verify_healthy.ini")
                          << "\n[cuda]\ndevice_count = 1\n";
  const std::string start = "LD_LIBRARY_PATH=" + shell_quote(GPUDOCTOR_FAKE_LIB_DIR) +
                            " GPUDOCTOR_FAKE_DRIVER=" + shell_quote(scenario.string()) + " ";
  auto r = run_shell(start + "CUDA_VISIBLE_DEVICES=1 " + shell_quote(GPUDOCTOR_BINARY) + " verify");
  EXPECT_NE(r.out.find("note: CUDA_VISIBLE_DEVICES=\"1\" limits which GPUs CUDA shows: 1 GPU(s) tested"),
            std::string::npos)
      << r.out;
  // NVML sees both GPUs, CUDA the one the variable names: expected, said, not a failure (review 45, 1).
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("NVML sees 2 GPU(s), CUDA 1"), std::string::npos) << r.out;
  std::ofstream(scenario, std::ios::app) << "\n[calls]\ncuInit = CUDA_ERROR_NO_DEVICE\n";
  auto hidden = run_shell(start + "CUDA_VISIBLE_DEVICES= " + shell_quote(GPUDOCTOR_BINARY) + " --json verify");
  ASSERT_TRUE(hidden.json.is_object()) << hidden.out;
  EXPECT_NE(hidden.json["notes"].dump().find("set and empty, it hides every GPU"), std::string::npos)
      << hidden.json["notes"];
  EXPECT_EQ(hidden.exit_code, 1);
}

// Review 45, 1: NVML saw two GPUs, CUDA one (a board that failed initialisation), and verify
// tested the one and said "every step passed". The counts are now compared.
TEST_F(FakeVerify, AGpuThatNvmlSeesAndCudaDoesNotFailsTheRun) {
  size_t at = 0;
  for (const char* bus : {"00000000:3B:00.0", "00000000:86:00.0"}) {
    at = base_.find("cc = 9.0\n", at) + 9;
    base_.insert(at, std::string("pci_bus_id = ") + bus + "\n");
  }
  auto r = verify("[cuda]\ndevice_count = 1\n");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(r.json["passed"], false);
  const auto* count = step(r, "gpu-count");
  ASSERT_NE(count, nullptr) << r.out;
  EXPECT_EQ((*count)["status"], "failed");
  EXPECT_NE((*count)["detail"].get<std::string>().find("NVML sees 2 GPU(s), CUDA only 1"), std::string::npos)
      << (*count)["detail"];
  EXPECT_NE((*count)["notes"].dump().find("NVML GPU 1, NVIDIA H100 80GB HBM3 at PCI 0000:86:00.0"), std::string::npos)
      << (*count)["notes"];
  // Both counts as data: NVML's report beside the driver's.
  EXPECT_EQ(r.json["nvml"]["device_count"], 2);
  EXPECT_EQ(r.json["driver"]["device_count"], 1);
  auto text = verify_text("[cuda]\ndevice_count = 1\n");
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("gpu-count"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("nvidia-smi -r"), std::string::npos) << text.out;
}

TEST_F(FakeVerify, AMigInstanceExplainsFewerGpusInCuda) {  // one MIG instance per process, by design
  size_t at = base_.find("name = NVIDIA H100 80GB HBM3\n");
  base_.replace(at, 29, "name = NVIDIA H100 80GB HBM3 MIG 1g.10gb\n");
  auto r = verify("[cuda]\ndevice_count = 1\n");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const auto* count = step(r, "gpu-count");
  ASSERT_NE(count, nullptr) << r.out;
  EXPECT_EQ((*count)["status"], "skipped") << (*count)["detail"];
}

TEST_F(FakeVerify, NvmlThatCannotBeAskedLeavesTheCountUncompared) {
  auto r = verify("[calls]\nnvmlInit_v2 = NVML_ERROR_DRIVER_NOT_LOADED\n");
  const auto* count = step(r, "gpu-count");
  ASSERT_NE(count, nullptr) << r.out;
  EXPECT_EQ((*count)["status"], "skipped");
  EXPECT_NE((*count)["detail"].get<std::string>().find("not compared"), std::string::npos) << (*count)["detail"];
  EXPECT_EQ(r.exit_code, 0) << r.out;  // CUDA's own steps all passed: no claim either way
}

}  // namespace
}  // namespace gpudoctor
