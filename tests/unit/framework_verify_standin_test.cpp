// `verify --framework pytorch` end to end with a stand-in torch (tests/fixtures/standin-torch: a
// `torch` and a small `numpy` in pure Python) in a fresh venv: the real binary runs the real
// script in that interpreter. The stand-in's "GPU" computes right unless STANDIN_TORCH_FAULT
// says otherwise, and rounds its convolution to TF32 unless the script turns that off.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "run_gpudoctor.hpp"
#include "test_files.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::shell_quote;

class StandinTorch : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir_for_test("gpudoctor-standin");
    fs::create_directories(dir_);
    venv_ = dir_ / "torchenv";
    auto made = testing::run_shell("python3 -m venv --without-pip " + shell_quote(venv_.string()) + " && cp -r " +
                                   shell_quote(std::string(GPUDOCTOR_FIXTURES_DIR) + "/standin-torch/site-packages/.") +
                                   " " + shell_quote(venv_.string()) + "/lib/python3*/site-packages/");
    ASSERT_EQ(made.exit_code, 0) << made.out << made.err;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  /// verify --framework pytorch with these variables (text when `json` is false).
  testing::RunResult verify(const std::string& vars, bool json = true) {
    return testing::run_shell("env -u CUDA_VISIBLE_DEVICES " + vars + " " + shell_quote(GPUDOCTOR_BINARY) + " --env " +
                              shell_quote(venv_.string()) + (json ? " --json" : "") + " verify --framework pytorch");
  }
  static const nlohmann::json& the_step(const testing::RunResult& r) {
    static const nlohmann::json none = nlohmann::json::object();
    if (!r.json.is_object() || r.json["steps"].empty()) return none;
    return r.json["steps"][0];
  }
  fs::path dir_;
  fs::path venv_;
};

// The near miss of every fault below: a right GPU, with TF32 turned off by the script, passes;
// its figures are fields (review 44A, 10) and its row names the environment.
TEST_F(StandinTorch, ARightGpuRunPassesWithItsFiguresAsFields) {
  auto r = verify("STANDIN_TORCH_GPUS=1");
  const auto& s = the_step(r);
  ASSERT_TRUE(s.contains("framework")) << r.out << r.err;
  EXPECT_EQ(s["status"], "passed") << s["detail"];
  EXPECT_EQ(r.exit_code, 0);
  const auto& f = s["framework"];
  EXPECT_TRUE(f["environment"].get<std::string>().ends_with("/torchenv")) << f["environment"];
  EXPECT_EQ(f["framework"], "pytorch");
  EXPECT_EQ(f["version"], "2.5.1+cu124");
  EXPECT_EQ(f["placed_on"], "cuda:0");
  EXPECT_EQ(f["devices"][0], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(f["cpu_fallback"], false);
  ASSERT_EQ(f["figures"].size(), 3U) << f;
  for (const auto& figure : f["figures"]) {
    ASSERT_TRUE(figure["bound_ratio"].is_number()) << figure;
    EXPECT_LE(figure["bound_ratio"].get<double>(), 1.0) << figure;
  }
  EXPECT_EQ(f["figures"][2]["check"], "fp16-matmul");
  EXPECT_EQ(f["figures"][2]["dtype"], "torch.float16");
  auto text = verify("STANDIN_TORCH_GPUS=1", false);
  // The environment's last two folder names (session 44's re-read: two projects' `.venv` differ).
  EXPECT_TRUE(std::regex_search(text.out, std::regex("framework pytorch +[^ /]+/torchenv "))) << text.out;
}

// Review 44A, 02, 03, 04: an FP16 product twice the right one passed; a NaN read as "the
// interpreter ended without a result"; 0.009 on one element of a 256-long FP32 product passed
// under a fixed 1e-2. Each is a wrong result on the GPU now.
struct Fault {
  const char* fault;
  const char* words;  ///< in the detail
};

class StandinTorchFault : public StandinTorch, public ::testing::WithParamInterface<Fault> {};

TEST_P(StandinTorchFault, IsAWrongResult) {
  auto r = verify(std::string("STANDIN_TORCH_GPUS=1 STANDIN_TORCH_FAULT=") + GetParam().fault);
  const auto& s = the_step(r);
  ASSERT_TRUE(s.contains("detail")) << r.out << r.err;
  EXPECT_EQ(s["status"], "failed");
  const std::string detail = s["detail"];
  EXPECT_NE(detail.find("on cuda:0: wrong result: "), std::string::npos) << detail;
  EXPECT_NE(detail.find(GetParam().words), std::string::npos) << detail;
  EXPECT_EQ(r.exit_code, 1);
}

INSTANTIATE_TEST_SUITE_P(Faults, StandinTorchFault,
                         ::testing::Values(Fault{"fp16-wrong", "torch.float16 matmul max error"},
                                           Fault{"fp16-nan", "torch.float16 matmul max error nan"},
                                           Fault{"mm-nan", "matmul max error nan"},
                                           Fault{"mm-small", "matmul max error 0.009"}));

TEST_F(StandinTorch, TheCpuFallbackIsAFieldToo) {
  auto r = verify("STANDIN_TORCH_GPUS=0");
  const auto& s = the_step(r);
  ASSERT_TRUE(s.contains("framework")) << r.out << r.err;
  EXPECT_EQ(s["status"], "failed");
  EXPECT_EQ(s["framework"]["cpu_fallback"], true);
  EXPECT_EQ(s["framework"]["placed_on"], "cpu");
}

// Review 44A, 09: the first 1 MiB of a long output was kept and the rest dropped: the traceback
// at the end went unexplained, "stderr, last line" was a line from the middle, and a result
// printed after 9.6 MB of chatter read as no result.
TEST_F(StandinTorch, TheEndOfALongOutputIsKept) {
  auto r = verify("STANDIN_TORCH_GPUS=1 STANDIN_TORCH_LOG=30000");  // about 2.4 MB of stderr
  const auto& s = the_step(r);
  ASSERT_TRUE(s.contains("notes")) << r.out << r.err;
  const std::string notes = s["notes"].dump();
  EXPECT_NE(notes.find("cudnn-library-missing"), std::string::npos) << notes;
  EXPECT_NE(notes.find("bytes from its middle not kept), last line: ImportError: libcudnn.so.9"), std::string::npos)
      << notes;
  auto chatter = verify("STANDIN_TORCH_GPUS=1 STANDIN_TORCH_CHATTER=40000");  // about 2 MB of stdout
  EXPECT_EQ(the_step(chatter)["status"], "passed") << the_step(chatter)["detail"];
  // Near miss: a short stderr is whole, and says nothing of cutting.
  auto short_log = verify("STANDIN_TORCH_GPUS=1 STANDIN_TORCH_LOG=3");
  const std::string short_notes = the_step(short_log)["notes"].dump();
  EXPECT_NE(short_notes.find("stderr, last line: ImportError: libcudnn.so.9"), std::string::npos) << short_notes;
}

}  // namespace
}  // namespace gpudoctor
