// `verify --framework` end to end with a stand-in interpreter: a copy of a fixture venv with
// TensorFlow 2.15 whose bin/python is a shell script that writes TensorFlow's own warning on
// stderr and a CPU-fallback result. The real binary must run it with a deadline, report the
// fallback, and put the stderr through the explain rules; a hanging interpreter is a timeout.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "run_gpudoctor.hpp"
#include "test_files.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

class VerifyFrameworkFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir_for_test("gpudoctor-vfw");
    fs::create_directories(dir_);
    // cp -a: the fixture holds symlinks that fs::copy will not follow into a copy.
    auto copied = testing::run_command(
        {"cp", "-a",
         (fs::path(GPUDOCTOR_FIXTURES_DIR) / "linux-tf215-cudnn86-mismatch/root/home/alex/tf/venv").string(),
         (dir_ / "venv").string()});
    ASSERT_EQ(copied.exit_code, 0) << copied.err;
    // The fixture's bin/python is a symlink to /usr/bin/python3.10: writing the stand-in
    // through it would write outside the scratch folder. A fresh bin/ holds only our files.
    fs::remove_all(dir_ / "venv/bin");
    fs::create_directories(dir_ / "venv/bin");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void interpreter(const std::string& body) {
    for (const char* name : {"python", "python3"}) {
      fs::path p = dir_ / "venv/bin" / name;
      ASSERT_FALSE(fs::is_symlink(p)) << p;
      std::ofstream(p) << "#!/bin/sh\n" << body;
      fs::permissions(p, fs::perms::owner_all);
    }
  }
  const nlohmann::json* tf_step(const testing::RunResult& r) {
    if (!r.json.is_object()) return nullptr;
    for (const auto& s : r.json["steps"]) {
      if (s["name"] == "framework tensorflow") return &s;
    }
    return nullptr;
  }
  fs::path dir_;
};

TEST_F(VerifyFrameworkFixture, CpuFallbackIsReportedAndTheFrameworksWordsExplained) {
  interpreter(
      "echo \"2024-03-01 10:00:00.000000: W tensorflow/tsl/platform/default/dso_loader.cc:78] Could not load dynamic "
      "library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory\" "
      ">&2\n"
      "echo 'GPUDOCTOR-RESULT "
      "{\"framework\":\"tensorflow\",\"version\":\"2.15.0\",\"devices\":[\"/physical_device:CPU:0\"],"
      "\"placed_on\":\"/"
      "CPU:0\",\"matmul_error\":1e-5,\"matmul_ratio\":0.1,\"conv_error\":1e-6,\"conv_ratio\":0.1,\"error\":null,"
      "\"loaded\":[\"/venv/lib/python3.10/site-packages/tensorflow/libtensorflow_framework.so.2\"]}'\n");
  auto r = testing::run_gpudoctor({"--env", (dir_ / "venv").string(), "--json", "verify", "--framework", "tensorflow"});
  const auto* s = tf_step(r);
  ASSERT_NE(s, nullptr) << r.out << r.err;
  EXPECT_EQ((*s)["status"], "failed");
  EXPECT_NE((*s)["detail"].get<std::string>().find("CPU fallback"), std::string::npos) << (*s)["detail"];
  std::string notes = (*s)["notes"].dump();
  EXPECT_NE(notes.find("explain: "), std::string::npos) << "the dso_loader line must be explained: " << notes;
  EXPECT_NE(notes.find("libcudnn.so.8"), std::string::npos) << notes;
  EXPECT_NE(notes.find("loaded /venv/lib/python3.10/site-packages/tensorflow/libtensorflow_framework.so.2"),
            std::string::npos);
  EXPECT_EQ(r.exit_code, 1);
}

TEST_F(VerifyFrameworkFixture, AHangingInterpreterIsATimeout) {
  interpreter("sleep 30\n");
  auto r = testing::run_gpudoctor({"--env", (dir_ / "venv").string(), "--json", "verify", "--framework", "tensorflow",
                                   "--step-timeout-ms", "1000"});
  const auto* s = tf_step(r);
  ASSERT_NE(s, nullptr) << r.out << r.err;
  EXPECT_EQ((*s)["status"], "timeout") << (*s)["detail"];
  EXPECT_EQ(r.exit_code, 1);
}

// A relative --env or --python is the user's working directory's, as in any command line (it
// used to be looked up under "/" and not found). From a sub-folder, so that the project-folder
// search (./venv) cannot find it instead.
TEST_F(VerifyFrameworkFixture, RelativeEnvAndPythonPathsAreFound) {
  interpreter(
      "echo 'GPUDOCTOR-RESULT {\"framework\":\"tensorflow\",\"version\":\"2.15.0\",\"devices\":[\"cpu\"],"
      "\"placed_on\":\"/"
      "CPU:0\",\"matmul_error\":1e-5,\"matmul_ratio\":0.1,\"conv_error\":1e-6,\"conv_ratio\":0.1,\"error\":null,"
      "\"loaded\":[],"
      "\"model\":\"resnet18\",\"gpus\":[],\"figures\":[{\"key\":\"resnet18_fp32.cpu\",\"batch\":4,"
      "\"times\":[1,1,1],\"losses\":[7,6,5],\"error\":null}]}'\n");
  fs::create_directories(dir_ / "work");
  const std::string cd = "cd " + testing::shell_quote((dir_ / "work").string()) + " && exec " +
                         testing::shell_quote(GPUDOCTOR_BINARY) + " ";
  const std::string venv = fs::canonical(dir_ / "venv").string();
  for (const char* where : {"--env ../venv", "--python ../venv/bin/python"}) {
    auto v = testing::run_shell(cd + where + " --json verify --framework tensorflow");
    const auto* s = tf_step(v);
    ASSERT_NE(s, nullptr) << where << ": " << v.out << v.err;
    EXPECT_EQ((*s)["status"], "failed") << where << ": " << (*s)["detail"];
    EXPECT_NE((*s)["notes"].dump().find("environment: " + venv), std::string::npos) << where << ": " << (*s)["notes"];

    auto b = testing::run_shell(cd + where + " --json bench --framework tensorflow --quick --no-history");
    ASSERT_TRUE(b.json.is_object()) << where << ": " << b.out << b.err;
    EXPECT_DOUBLE_EQ(b.json["results"].value("tensorflow.resnet18_fp32.cpu.images_per_s", 0.0), 4.0)
        << where << ": " << b.out;
    EXPECT_EQ(b.exit_code, 0) << where << ": " << b.out;
  }
}

// An --env that cannot be used is named where verify and bench say nothing was found.
TEST_F(VerifyFrameworkFixture, AnUnusableEnvIsNamedWhenNothingIsFound) {
  const std::string missing = (dir_ / "no-such-venv").string();
  auto v = testing::run_gpudoctor({"--env", missing, "--json", "verify", "--framework", "jax"});
  ASSERT_TRUE(v.json.is_object()) << v.out << v.err;
  const std::string detail = v.json["steps"][0]["detail"];
  EXPECT_NE(detail.find("--env names " + missing + ", which cannot be used"), std::string::npos) << detail;
  auto b = testing::run_gpudoctor({"--env", missing, "--json", "bench", "--framework", "jax", "--no-history"});
  ASSERT_TRUE(b.json.is_object()) << b.out << b.err;
  EXPECT_NE(b.json["notes"].dump().find("--env names " + missing + ", which cannot be used"), std::string::npos)
      << b.json["notes"];
  EXPECT_EQ(b.exit_code, 1);
}

// bench --framework through the same stand-in: it answers only when given the default config
// (ResNet-50), with two GPUs' figures; the report has each figure, the claims from them (92 %
// scaling on two GPUs) and keeps the run in the history under its own mode.
TEST_F(VerifyFrameworkFixture, BenchFrameworkFiguresAndClaims) {
  interpreter(
      "case \"$4\" in *'\"model\": \"resnet50\"'*|*'\"model\":\"resnet50\"'*) ;; *) echo \"wrong config: $4\" >&2; "
      "exit 3;; esac\n"
      "echo 'GPUDOCTOR-RESULT {\"framework\":\"tensorflow\",\"version\":\"2.15.0\",\"model\":\"resnet50\",'"
      "'\"model_source\":\"defined in the script\",\"gpus\":[\"/physical_device:GPU:0\",\"/physical_device:GPU:1\"],'"
      "'\"error\":null,\"figures\":['"
      "'{\"key\":\"resnet50_fp32.cpu\",\"batch\":8,\"detail\":\"cpu\",\"times\":[4,4,4],\"losses\":[7,6,5],\"error\":"
      "null},'"
      "'{\"key\":\"resnet50_fp32.gpu0\",\"batch\":64,\"detail\":\"gpu\",\"times\":[0.1,0.1,0.1],\"losses\":[7,6,5],"
      "\"error\":null},'"
      "'{\"key\":\"resnet50_fp16.gpu0\",\"batch\":64,\"detail\":\"amp\",\"times\":[0.04,0.04,0.04],\"losses\":[7,6,5],"
      "\"error\":null},'"
      "'{\"key\":\"resnet50_fp32.gpus2\",\"batch\":128,\"detail\":\"mirrored\",\"times\":[0.125,0.125,0.125],"
      "\"losses\":[7,6,5],\"error\":null}]}'\n");
  const std::string history = (dir_ / "bench.sqlite").string();
  auto r = testing::run_gpudoctor(
      {"--env", (dir_ / "venv").string(), "--json", "bench", "--framework", "tensorflow", "--history", history});
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.json["mode"], "framework-default");
  EXPECT_DOUBLE_EQ(r.json["results"]["tensorflow.resnet50_fp32.cpu.images_per_s"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(r.json["results"]["tensorflow.resnet50_fp32.gpu0.images_per_s"].get<double>(), 640.0);
  EXPECT_DOUBLE_EQ(r.json["results"]["tensorflow.resnet50_fp16.gpu0.images_per_s"].get<double>(), 1600.0);
  EXPECT_DOUBLE_EQ(r.json["results"]["tensorflow.resnet50_fp32.gpus2.images_per_s"].get<double>(), 1024.0);
  std::map<std::string, double> ratios;
  for (const auto& c : r.json["claims"]) {
    if (c.contains("ratio") && c["ratio"].is_number()) ratios[c["what"].get<std::string>()] = c["ratio"].get<double>();
  }
  EXPECT_DOUBLE_EQ(ratios["ResNet-50 training, tensorflow: GPU/CPU (FP32 both)"], 320.0) << r.json["claims"].dump();
  EXPECT_DOUBLE_EQ(ratios["ResNet-50 training, tensorflow: mixed precision (fp16) over FP32"], 2.5);
  EXPECT_DOUBLE_EQ(ratios["ResNet-50 training, tensorflow: data-parallel scaling efficiency on 2 GPUs"], 0.8);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::exists(history));

  // --quick asks for ResNet-18: the stand-in refuses it, and that is the figure's failure.
  auto quick = testing::run_gpudoctor(
      {"--env", (dir_ / "venv").string(), "--json", "bench", "--framework", "tensorflow", "--quick", "--no-history"});
  ASSERT_TRUE(quick.json.is_object()) << quick.out << quick.err;
  EXPECT_EQ(quick.json["measurements"][0]["key"], "tensorflow.resnet18_fp32.cpu");
  EXPECT_EQ(quick.json["measurements"][0]["status"], "failed");
  EXPECT_EQ(quick.exit_code, 1);
}

// The script may scale the GPU batch for a large card (ResNet-50 at 64 measured Python, not an
// H200; PyTorch and JAX do, the stand-in here plays the part): the batch it used becomes part of the mode, so --compare
// never holds 256 against 64, and a batch given with --framework-batch is not scaled.
TEST_F(VerifyFrameworkFixture, AScaledGpuBatchIsPartOfTheModeAndAGivenOneIsNotScaled) {
  const std::string seen = (dir_ / "config.json").string();
  auto read_file = [](const std::string& path) {
    std::stringstream text;
    text << std::ifstream(path).rdbuf();
    return text.str();
  };
  interpreter("printf '%s' \"$4\" > " + testing::shell_quote(seen) +
              "\n"
              "echo 'GPUDOCTOR-RESULT {\"framework\":\"pytorch\",\"version\":\"2.11.0\",\"model\":\"resnet50\",'"
              "'\"model_source\":\"defined in the script\",\"gpus\":[\"NVIDIA H200\"],\"error\":null,\"figures\":['"
              "'{\"key\":\"resnet50_fp32.gpu0\",\"batch\":256,\"detail\":\"gpu; batch 4x the default\",'"
              "'\"times\":[0.1,0.1,0.1],\"losses\":[7,6,5],\"error\":null}]}'\n");
  auto r = testing::run_gpudoctor({"--env", (dir_ / "venv").string(), "--json", "bench", "--framework", "tensorflow",
                                   "--gpu-only", "--no-history"});
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.json["mode"], "framework-default (GPU batch 256)");
  EXPECT_DOUBLE_EQ(r.json["results"]["tensorflow.resnet50_fp32.gpu0.images_per_s"].get<double>(), 2560.0);
  auto config = nlohmann::json::parse(read_file(seen), nullptr, false);
  ASSERT_TRUE(config.is_object()) << read_file(seen);
  EXPECT_EQ(config["gpu_batch"], 64);
  EXPECT_EQ(config["gpu_batch_scaled"], true);
  auto given = testing::run_gpudoctor({"--env", (dir_ / "venv").string(), "--json", "bench", "--framework",
                                       "tensorflow", "--gpu-only", "--no-history", "--framework-batch", "8,256"});
  ASSERT_TRUE(given.json.is_object()) << given.out << given.err;
  config = nlohmann::json::parse(read_file(seen), nullptr, false);
  EXPECT_EQ(config["gpu_batch"], 256);
  EXPECT_EQ(config["gpu_batch_scaled"], false);
  EXPECT_EQ(given.json["mode"].get<std::string>().find("(GPU batch"), std::string::npos) << given.json["mode"];
}

}  // namespace
}  // namespace gpudoctor
