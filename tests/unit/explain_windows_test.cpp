// Windows before the framework runs: TensorFlow's own preload self-check, Windows' error codes
// that PyTorch's DLL loader passes on (4551: Smart App Control), pip's long-path hint, Python's
// spawn bootstrapping error, two OpenMP runtimes, TorchCodec's FFmpeg, the display watchdog,
// and the system's message for error 1455 as localised Windows prints it (found in review: each
// of these logs was answered "No known problem found", or blamed on the VC++ runtime).
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_matcher;
using testing::explain_on;
using testing::find_rule;
using testing::leads_with;

TEST(ExplainWindows, TensorFlowsSelfCheckNamesTheMissingRuntime) {
  const auto r = explain_on(
      Platform::windows,
      "  File \"C:\\venv\\lib\\site-packages\\tensorflow\\python\\platform\\self_check.py\", line 50, in "
      "preload_check\n    raise ImportError(\n"
      "ImportError: Could not find the DLL(s) 'msvcp140_1.dll'. TensorFlow requires that these DLLs be installed in "
      "a directory that is named in your %PATH% environment variable.\n");
  ASSERT_TRUE(leads_with(r, "tf-windows-msvc-runtime-missing"));
  EXPECT_NE(r.matches.front().cause.find("msvcp140_1.dll"), std::string::npos) << r.matches.front().cause;
  EXPECT_NE(r.matches.front().fix.find("vc_redist.x64.exe"), std::string::npos);
  const auto mixed =
      explain_on(Platform::windows,
                 "ImportError: Found conflicting TensorFlow installations in this environment: tensorflow 2.16.1, "
                 "tensorflow-intel 2.15.0. These distributions install into the same directory\n");
  ASSERT_TRUE(leads_with(mixed, "tf-conflicting-installations"));
  EXPECT_NE(mixed.matches.front().cause.find("tensorflow 2.16.1, tensorflow-intel 2.15.0"), std::string::npos)
      << mixed.matches.front().cause;
  EXPECT_TRUE(leads_with(explain_on(Platform::windows,
                                    "ImportError: TensorFlow requires a 64-bit Python interpreter, but this "
                                    "interpreter is 32-bit.\n"),
                         "python-32-bit"));
}

TEST(ExplainWindows, EveryWindowsErrorFromTorchsLoaderIsAnswered) {
  const auto blocked =
      explain_on(Platform::windows,
                 "OSError: [WinError 4551] An Application Control policy has blocked this file. Error loading "
                 "\"C:\\venv\\lib\\site-packages\\torch\\lib\\torch_python.dll\" or one of its dependencies.\n");
  ASSERT_TRUE(leads_with(blocked, "windows-app-control-blocked-dll"));
  EXPECT_NE(blocked.matches.front().cause.find("torch_python.dll"), std::string::npos);
  EXPECT_EQ(find_rule(blocked, "torch-dll-load-error"), nullptr) << "4551 has its own rule";
  const auto denied = explain_on(
      Platform::windows,
      "OSError: [WinError 5] Access is denied. Error loading \"C:\\venv\\lib\\site-packages\\torch\\lib\\shm.dll\" "
      "or one of its dependencies.\n");
  ASSERT_TRUE(leads_with(denied, "torch-dll-load-error"));
  EXPECT_NE(denied.matches.front().fix.find("net helpmsg 5"), std::string::npos) << denied.matches.front().fix;
  // The codes with rules of their own are not answered twice.
  for (const char* code : {"126", "127", "193", "1114", "1455"}) {
    const auto r = explain_on(Platform::windows,
                              std::string("OSError: [WinError ") + code +
                                  "] text. Error loading \"C:\\t\\torch\\lib\\c10.dll\" or one of its dependencies.\n");
    EXPECT_EQ(find_rule(r, "torch-dll-load-error"), nullptr) << code;
    EXPECT_FALSE(r.matches.empty()) << code;
  }
}

TEST(ExplainWindows, ThePagingFileInTheLanguagesWindowsPrintsIt) {
  for (const char* line : {
           "OSError: \xe9\xa1\xb5\xe9\x9d\xa2\xe6\x96\x87\xe4\xbb\xb6\xe5\xa4\xaa\xe5\xb0\x8f\xef\xbc\x8c\xe6\x97\xa0"
           "\xe6\xb3\x95\xe5\xae\x8c\xe6\x88\x90\xe6\x93\x8d\xe4\xbd\x9c\xe3\x80\x82 (os error 1455)",
           "ImportError: DLL load failed while importing _C: \xe9\xa1\xb5\xe9\x9d\xa2\xe6\x96\x87\xe4\xbb\xb6\xe5"
           "\xa4\xaa\xe5\xb0\x8f\xef\xbc\x8c\xe6\x97\xa0\xe6\xb3\x95\xe5\xae\x8c\xe6\x88\x90\xe6\x93\x8d\xe4\xbd\x9c"
           "\xe3\x80\x82",
           "Failed (\xd0\xa4\xd0\xb0\xd0\xb9\xd0\xbb \xd0\xbf\xd0\xbe\xd0\xb4\xd0\xba\xd0\xb0\xd1\x87\xd0\xba\xd0\xb8 "
           "\xd1\x81\xd0\xbb\xd0\xb8\xd1\x88\xd0\xba\xd0\xbe\xd0\xbc \xd0\xbc\xd0\xb0\xd0\xbb (os error 1455))",
           "OSError: The paging file is too small for this operation to complete. (os error 1455)",
       }) {
    const auto r = explain_on(Platform::windows, std::string(line) + "\n");
    EXPECT_TRUE(leads_with(r, "windows-paging-file-too-small")) << line;
  }
  // The same message in GBK bytes, as Python on a Chinese Windows writes redirected output.
  const auto gbk = explain_on(
      Platform::windows,
      "ImportError: DLL load failed while importing _C: \xd2\xb3\xc3\xe6\xce\xc4\xbc\xfe\xcc\xab\xd0\xa1\xa3\xac\xce"
      "\xde\xb7\xa8\xcd\xea\xb3\xc9\xb2\xd9\xd7\xf7\xa1\xa3\n");
  EXPECT_TRUE(leads_with(gbk, "windows-paging-file-too-small"));
  EXPECT_EQ(gbk.input.lines_recoded, 1u);
}

TEST(ExplainWindows, WhatPythonPipAndTheRuntimesPrintBeforeTheFrameworkRuns) {
  struct Case {
    const char* log;
    const char* rule;
  };
  const Case cases[] = {
      {"HINT: This error might have occurred since this system does not have Windows Long Path support enabled. "
       "You can find information on how to enable this at https://pip.pypa.io/warnings/enable-long-paths",
       "pip-windows-long-paths"},
      {"RuntimeError:\n        An attempt has been made to start a new process before the\n        current process "
       "has finished its bootstrapping phase.\n",
       "multiprocessing-spawn-without-main-guard"},
      {"OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized.\n",
       "openmp-runtime-loaded-twice"},
      {"RuntimeError: Could not load libtorchcodec. Likely causes:\n"
       "FFmpeg version 7: Could not find module 'C:\\v\\Lib\\site-packages\\torchcodec\\libtorchcodec_core7.dll' (or "
       "one of its dependencies). Try using the full path with constructor syntax.\n",
       "torchcodec-ffmpeg-missing"},
      {"RuntimeError: CUDA error: the launch timed out and was terminated\n", "windows-tdr-launch-timeout"},
      {"The kernel for train.ipynb appears to have died. It will restart automatically.\n", "jupyter-kernel-died"},
      {"ERROR: Could not install packages due to an OSError: [WinError 5] Access is denied: "
       "'C:\\venv\\lib\\site-packages\\torch\\lib\\c10.dll'\n",
       "pip-file-in-use-windows"},
      {"Python was not found; run without arguments to install from the Microsoft Store, or disable this shortcut "
       "from Settings > Manage App Execution Aliases.\n",
       "windows-python-store-alias"},
      {"CondaError: Run 'conda init' before 'conda activate'\n", "conda-shell-not-initialised"},
      {"EnvironmentNameNotFound: Could not find conda environment: tf-gpu\n", "conda-environment-not-found"},
      {"conda : The term 'conda' is not recognized as the name of a cmdlet, function, script file, or operable "
       "program.\n",
       "conda-not-on-path"},
  };
  for (const Case& c : cases) {
    const auto r = explain_on(Platform::windows, c.log);
    EXPECT_TRUE(leads_with(r, c.rule)) << c.log;
  }
  // TorchCodec's own DLLs are not PyTorch's: no "reinstall torch" answer first.
  const auto codec = explain_on(
      Platform::windows,
      "FileNotFoundError: Could not find module 'C:\\v\\Lib\\site-packages\\torchcodec\\libtorchcodec_core7.dll' (or "
      "one of its dependencies). Try using the full path with constructor syntax.\n");
  EXPECT_TRUE(leads_with(codec, "torchcodec-ffmpeg-missing"));
}

// Found in review: a Windows or WSL2 log was answered with Linux commands (ubuntu-drivers, dmesg,
// rmmod nvidia_uvm, systemctl), which cannot work there.
TEST(ExplainWindows, TheAnswerIsTheLogsPlatforms) {
  auto on = [](Platform p, std::string_view text) { return explain_text(builtin_matcher(), text, ExplainMachine{p}); };
  const std::string smi =
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA "
      "driver is installed and running.\n";
  const auto win_smi = explain_on(Platform::windows, smi);
  ASSERT_TRUE(leads_with(win_smi, "kernel-driver-not-running/windows"));
  EXPECT_EQ(win_smi.matches.front().fix.find("ubuntu-drivers"), std::string::npos);
  EXPECT_TRUE(leads_with(explain_on(Platform::linux, smi), "kernel-driver-not-running"));
  const std::string unknown =
      "RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env "
      "variable CUDA_VISIBLE_DEVICES after program start.\n";
  const auto wsl = explain_on(Platform::wsl2, unknown);
  ASSERT_TRUE(leads_with(wsl, "cuda-unknown-error/wsl2"));
  EXPECT_NE(wsl.matches.front().fix.find("wsl --shutdown"), std::string::npos);
  EXPECT_TRUE(leads_with(explain_on(Platform::windows, unknown), "cuda-unknown-error/windows"));
  EXPECT_TRUE(leads_with(explain_on(Platform::linux, unknown), "cuda-unknown-error"));
  const std::string no_gpus = "2.15.0\nNum GPUs Available:  0\n";
  // The release is not known from this log: the Windows answer is in the fix, in cmd's syntax.
  const auto tf = explain_on(Platform::windows, no_gpus);
  ASSERT_TRUE(leads_with(tf, "tf-empty-gpu-list"));
  EXPECT_NE(tf.matches.front().fix.find("set TF_CPP_MIN_LOG_LEVEL=0"), std::string::npos);
  EXPECT_NE(tf.matches.front().fix.find("only TensorFlow 2.10 or older"), std::string::npos);
  EXPECT_EQ(tf.matches.front().fix.find("TF_CPP_MIN_LOG_LEVEL=0 python"), std::string::npos);
  const auto tf_linux = explain_on(Platform::linux, no_gpus);
  ASSERT_TRUE(leads_with(tf_linux, "tf-empty-gpu-list"));
  EXPECT_NE(tf_linux.matches.front().fix.find("TF_CPP_MIN_LOG_LEVEL=0 python"), std::string::npos);
  const std::string docker =
      "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n";
  EXPECT_TRUE(leads_with(explain_on(Platform::windows, docker), "docker-no-gpu-driver/docker-desktop"));
  EXPECT_TRUE(leads_with(explain_on(Platform::linux, docker), "docker-no-gpu-driver"));
  EXPECT_TRUE(
      leads_with(explain_on(Platform::linux,
                            "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/x/"
                            "merged/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: file exists: unknown.\n"),
                 "container-image-has-driver-libraries"));
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// Found in review (2026-12-05): on native Windows an empty GPU list led with "the CUDA libraries
// are not on the library path" unless the log printed TensorFlow's version. Every release since
// 2.11 (November 2022) has no GPU on native Windows: without a version that is the likely cause;
// a version of 2.10 or older in the log leaves the library path first.
TEST(ExplainWindows, AnEmptyGpuListOnWindowsLeadsWithTheMissingWindowsGpuSupport) {
  const std::string log = ">>> import tensorflow as tf\n>>> tf.config.list_physical_devices('GPU')\n[]\n";
  const auto r =
      explain_text(testing::builtin_matcher(), log, ExplainMachine{Platform::windows, nullptr, &testing::builtin_kb()});
  ASSERT_TRUE(leads_with(r, "tf-empty-gpu-list/windows"));
  const auto old = explain_text(testing::builtin_matcher(), "tensorflow==2.10.1\n" + log,
                                ExplainMachine{Platform::windows, nullptr, &testing::builtin_kb()});
  EXPECT_TRUE(leads_with(old, "tf-empty-gpu-list"));
  // On Linux the Windows cause stays behind.
  const auto lin =
      explain_text(testing::builtin_matcher(), log, ExplainMachine{Platform::linux, nullptr, &testing::builtin_kb()});
  EXPECT_TRUE(leads_with(lin, "tf-empty-gpu-list"));
}

}  // namespace
}  // namespace gpudoctor
