// The second re-read of session 39's explain changes (/tmp/s39/reread2.md): log facts that mark a
// whole log were too broad, and the log's Windows markers decided too much.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"
#include "kb_test_support.hpp"
#include "model/platform.hpp"
#include "render/explain_render.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::mentions;
using testing::rule_list;
using testing::says_all;

ExplainReport reread39_explain_with_kb(std::string_view text) {
  ExplainMachine machine;
  machine.kb = &testing::builtin_kb();
  return explain_text(testing::builtin_matcher(), text, machine);
}

// H1: faster-whisper (CTranslate2) loads its own cuDNN; one torch warning line in its log made
// it a PyTorch log, and the answer "reinstall torch", which cannot bring cuDNN 8 (torch 2.4 and
// later carry cuDNN 9).
TEST(ExplainReread39, CtranslateTwosCudnnInALogWithTorchLinesIsNotATorchReinstall) {
  const std::string tail =
      "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object "
      "file: No such file or directory\n";
  const auto r = explain_no_facts(
      "/home/me/venv/lib/python3.10/site-packages/torch/functional.py:665: UserWarning: stft with return_complex=False "
      "is deprecated.\n"
      "  File \"/home/me/venv/lib/python3.10/site-packages/faster_whisper/transcribe.py\", line 1157, in encode\n" +
      tail);
  ASSERT_TRUE(leads_with(r, "cudnn-library-missing/ctranslate2")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"ctranslate2==4.4.0", "3.24.0"})) << r.matches.front().fix;
  EXPECT_EQ(find_rule(r, "cudnn-library-missing/pytorch"), nullptr) << rule_list(r);
  // Near miss: a PyTorch traceback alone keeps PyTorch's answer.
  const auto torch = explain_no_facts(
      "  File \"/home/me/venv/lib/python3.10/site-packages/torch/nn/modules/conv.py\", line 456, in _conv_forward\n" +
      tail);
  ASSERT_TRUE(leads_with(torch, "cudnn-library-missing/pytorch")) << rule_list(torch);
}

// M1: "msvc-build" came from torch.utils.cpp_extension on any platform and from "Visual Studio
// Code"; a pickle's UTF-8 decode error in such a log was answered with Visual Studio's language pack.
TEST(ExplainReread39, Utf8DecodeErrorInALinuxOrVsCodeLogIsNoChineseCompiler) {
  const auto linux_log = explain_no_facts(
      "  File \"/home/me/proj/build.py\", line 3, in <module>\n"
      "    from torch.utils.cpp_extension import load\n"
      "  File \"/usr/lib/python3.10/codecs.py\", line 322, in decode\n"
      "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte\n");
  EXPECT_EQ(find_rule(linux_log, "msvc-output-not-utf8"), nullptr) << rule_list(linux_log);
  const auto vscode = explain_no_facts(
      "I run it from Visual Studio Code\n"
      "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte\n");
  EXPECT_EQ(find_rule(vscode, "msvc-output-not-utf8"), nullptr) << rule_list(vscode);
  // Near miss: the Windows build's own warning keeps the answer.
  const auto win = explain_no_facts(
      "C:\\Python39\\lib\\site-packages\\torch\\utils\\cpp_extension.py:287: UserWarning: Error checking compiler "
      "version for cl: 'utf-8' codec can't decode byte 0xd3 in position 0: invalid continuation byte\n");
  ASSERT_TRUE(leads_with(win, "msvc-output-not-utf8")) << rule_list(win);
  // On a machine known to be Linux the Windows compiler's answer is contradicted, like every
  // Windows-only answer there.
  const auto on_linux = testing::explain_on(
      Platform::linux,
      "C:\\Python39\\lib\\site-packages\\torch\\utils\\cpp_extension.py:287: UserWarning: Error checking compiler "
      "version for cl: 'utf-8' codec can't decode byte 0xd3 in position 0: invalid continuation byte\n");
  const auto* m = find_rule(on_linux, "msvc-output-not-utf8");
  ASSERT_NE(m, nullptr) << rule_list(on_linux);
  EXPECT_EQ(m->facts_verdict, "contradicted");
}

// M2: WSL2 users fill the template with "Windows 11, WSL2 Ubuntu"; that is no native Windows.
TEST(ExplainReread39, AnIssueTemplateNamingWsl2IsNotNativeWindows) {
  const auto r = reread39_explain_with_kb(
      "OS platform and distribution: Windows 11, WSL2 Ubuntu 22.04\n"
      "TensorFlow version: tf 2.16\n"
      ">>> tf.config.list_physical_devices('GPU')\n"
      "[]\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_NE(r.matches.front().rule, "tf-empty-gpu-list/windows") << rule_list(r);
  const auto host = reread39_explain_with_kb(
      "Host OS: Windows 11\n"
      "TensorFlow version: tf 2.16\n"
      ">>> tf.config.list_physical_devices('GPU')\n"
      "[]\n");
  ASSERT_FALSE(host.matches.empty());
  EXPECT_NE(host.matches.front().rule, "tf-empty-gpu-list/windows") << rule_list(host);
  // Near miss: a plain "OS: Windows 11 Pro" is native Windows.
  const auto win = reread39_explain_with_kb(
      "OS: Windows 11 Pro\n"
      "TensorFlow version: tf 2.16\n"
      ">>> tf.config.list_physical_devices('GPU')\n"
      "[]\n");
  ASSERT_FALSE(win.matches.empty());
  EXPECT_EQ(win.matches.front().rule, "tf-empty-gpu-list/windows") << rule_list(win);
}

// M3: Docker Desktop started from PowerShell: the drive paths are the host's, the error the
// container's; the container cause stays.
TEST(ExplainReread39, DockerDesktopFromPowershellKeepsTheContainerCause) {
  const auto r = explain_no_facts(
      "PS C:\\Users\\me\\proj> docker run -it --rm -v C:\\Users\\me\\proj:/work my-image python /work/train.py\n"
      "Traceback (most recent call last):\n"
      "  File \"/work/train.py\", line 3, in <module>\n"
      "    torch.cuda.init()\n"
      "RuntimeError: CUDA driver version is insufficient for CUDA runtime version\n");
  EXPECT_NE(find_rule(r, "cuda-driver-insufficient/container-without-gpu"), nullptr) << rule_list(r);
}

// L3: under --no-probe nothing of the machine is known: a verdict decided by the log's own
// platform markers is the log's.
TEST(ExplainReread39, NoProbeVerdictsAreTheLogsNotTheMachines) {
  const auto r = reread39_explain_with_kb(
      "OS platform and distribution: win10\n"
      "TensorFlow version: tf 2.16\n"
      ">>> tf.config.list_physical_devices('GPU')\n"
      "[]\n");
  ASSERT_FALSE(r.matches.empty());
  ASSERT_EQ(r.matches.front().facts_verdict, "supported") << rule_list(r);
  const std::string text = render_explain_text(r, ExplainTextOptions{.color = false});
  EXPECT_FALSE(mentions(text, "what is known of this machine")) << text;
}

}  // namespace
}  // namespace gpudoctor
