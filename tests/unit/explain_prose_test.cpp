// A log as people paste it into an issue or a forum: prose around it in Chinese (or another
// language), a question on the same line as the error, full-width punctuation, escaped
// newlines. The prose must neither hide the error nor be read as one.
#include <gtest/gtest.h>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::category_rank;
using testing::explain;

TEST(ExplainProse, ChineseTextAroundTheLogDoesNotDisturbMatching) {
  const std::string log =
      "大家好，我在 Ubuntu 22.04 上用 RTX 3090 训练模型时报错，错误如下:\n"
      "2023-03-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
      "dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or "
      "directory\n"
      "已经按照教程安装了 CUDA 11.2 和 cuDNN，还是不行。\n"
      "请问这是什么原因？谢谢！\n";
  const ExplainReport r = explain(log);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "cudnn-missing");
  EXPECT_EQ(r.matches.front().lines.front(), 2u);
}

TEST(ExplainProse, QuestionOnTheSameLineAsTheError) {
  const ExplainReport r =
      explain("训练到一半报错 RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB 怎么办？");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "out-of-memory");
}

TEST(ExplainProse, ProseAloneIsNoAnswer) {
  // Words that name the stack, in prose, are not an error.
  const ExplainReport r = explain(
      "我的显卡是 NVIDIA GeForce RTX 4090，驱动版本 535，CUDA 12.2，cuDNN 8.9。\n"
      "Mi tarjeta gráfica es una RTX 3060 y el controlador de NVIDIA está instalado.\n"
      "Ma carte graphique ne fonctionne pas avec PyTorch, pouvez-vous m'aider ?\n");
  EXPECT_TRUE(r.matches.empty()) << r.matches.front().rule;
}

TEST(ExplainProse, EscapedNewlinesWithChineseAndFullWidthPunctuation) {
  const std::string pasted =
      "环境：Windows 11 + WSL2，问题如下：\\nTraceback (most recent call last):\\n  File \"train.py\", line 3, in "
      "<module>\\nRuntimeError: No CUDA GPUs are available\\n（已经重启过电脑了，还是同样的错误。）";
  const ExplainReport r = explain(pasted);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().rule.substr(0, 17), "torch-no-cuda-gpu") << r.matches.front().rule;
}

TEST(ExplainProse, RealErrorStillOutranksTheSymptomAmidProse) {
  const std::string log =
      "运行结果如下:\n"
      "W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
      "'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
      "W tensorflow/core/common_runtime/gpu/gpu_device.cc:1934] Cannot dlopen some GPU libraries. Please make sure "
      "the missing libraries mentioned above are installed properly if you would like to use GPU.\n"
      "tf.config.list_physical_devices('GPU') 返回 []，只有 CPU。\n";
  const ExplainReport r = explain(log);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "toolkit-missing") << "libcudart is the toolkit's runtime";
}

}  // namespace
}  // namespace gpudoctor
