// Windows DLL loading of PyTorch/TensorFlow: torch/__init__.py raises
// ctypes.WinError(code) + ' Error loading "<dll>" or one of its dependencies.', so the Win32
// code tells what went wrong (126 not found, 127 procedure not found, 1114 DLL init failed, 193
// bad image format), whatever the system's language; cuDNN 8 prints "Could not locate
// zlibwapi.dll".
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::among_first_three;
using testing::builtin_matcher;
using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

ExplainReport on_windows(std::string_view text) {
  return testing::explain_on(Platform::windows, text);
}

TEST(ExplainWindowsDll, Error127IsAnotherVersionOfTheDllNotAMissingOne) {
  const auto r = on_windows(
      "OSError: [WinError 127] The specified procedure could not be found. Error loading "
      "\"C:\\x\\.venv\\lib\\site-packages\\torch\\lib\\cudnn_cnn64_9.dll\" or one of its dependencies.\n");
  ASSERT_TRUE(leads_with(r, "windows-dll-procedure-not-found"));
  EXPECT_NE(r.matches.front().cause.find("cudnn_cnn64_9.dll"), std::string::npos);
  // The "could not be loaded / missing" rule is for 126.
  EXPECT_EQ(find_rule(r, "framework-native-library-missing"), nullptr);
}

TEST(ExplainWindowsDll, Error1114InAnyLanguage) {
  const auto r = on_windows(
      "OSError: [WinError 1114] \xe5\x8a\xa8\xe6\x80\x81\xe9\x93\xbe\xe6\x8e\xa5\xe5\xba\x93(DLL)\xe5\x88\x9d\xe5\xa7"
      "\x8b\xe5\x8c\x96\xe4\xbe\x8b\xe7\xa8\x8b\xe5\xa4\xb1\xe8\xb4\xa5\xe3\x80\x82 Error loading "
      "\"C:\\Program Files\\Python311\\Lib\\site-packages\\torch\\lib\\c10.dll\" or one of its dependencies.\n");
  ASSERT_TRUE(leads_with(r, "windows-dll-init-failed"));
  EXPECT_NE(r.matches.front().cause.find("c10.dll"), std::string::npos);
  EXPECT_EQ(find_rule(r, "framework-native-library-missing"), nullptr);
}

TEST(ExplainWindowsDll, Error193IsABadImage) {
  const auto r = on_windows(
      "OSError: [WinError 193] %1 is not a valid Win32 application. Error loading "
      "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\torch_cpu.dll\" or one of its dependencies.\n");
  ASSERT_TRUE(leads_with(r, "windows-dll-bad-format"));
}

// (torch\lib\fbgemm.dll has an answer of its own since session 37: ExplainReview37b.)
TEST(ExplainWindowsDll, Error126KeepsTheMissingLibraryRule) {
  const auto r = on_windows(
      "OSError: [WinError 126] The specified module could not be found. Error loading "
      "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll\" or one of its dependencies.\n"
      "FileNotFoundError: Could not find module 'C:\\venv\\Lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll' (or "
      "one of its dependencies). Try using the full path with constructor syntax.\n");
  ASSERT_TRUE(leads_with(r, "framework-native-library-missing"));
  EXPECT_EQ(r.matches.front().count, 2u);
}

// cuDNN 8's Windows loader prints the Win32 code as a number ("Could not load library %s. Error
// code %ld", cudnn64_8.dll of nvidia-cudnn-cu12 8.9.7.29): 127 and 193 are not a missing cuDNN.
TEST(ExplainWindowsDll, CudnnLoaderErrorCodesOtherThan126AreNotAMissingCudnn) {
  const auto r127 = on_windows("Could not load library cudnn_cnn_infer64_8.dll. Error code 127\n");
  ASSERT_TRUE(leads_with(r127, "windows-dll-procedure-not-found"));
  EXPECT_EQ(find_rule(r127, "cudnn-library-missing"), nullptr);
  EXPECT_NE(r127.matches.front().fix.find("where cudnn_cnn_infer64_8.dll"), std::string::npos)
      << r127.matches.front().fix;
  const auto r193 = on_windows(
      "Could not load library cudnn_ops_infer64_8.dll. Error code 193. Please verify that the library is built "
      "correctly for your processor architecture (32-bit, 64-bit)\n");
  ASSERT_TRUE(leads_with(r193, "windows-dll-bad-format"));
  EXPECT_EQ(find_rule(r193, "cudnn-library-missing"), nullptr);
  // 126, not found, keeps the missing-cuDNN answer.
  const auto r126 = on_windows("Could not load library cudnn_cnn_infer64_8.dll. Error code 126\n");
  ASSERT_TRUE(leads_with(r126, "cudnn-library-missing"));
}

TEST(ExplainWindowsDll, ZlibwapiForCudnn8) {
  const auto r = on_windows("Could not locate zlibwapi.dll. Please make sure it is in your library path!\n");
  ASSERT_TRUE(leads_with(r, "cudnn-zlib-missing"));
  EXPECT_EQ(r.matches.front().category, "cudnn-missing");
}

TEST(ExplainWindowsDll, OnnxRuntimesOwnVisualCppWarning) {
  // onnxruntime/python/_pybind_state.py.in warns when vcruntime140_1.dll is not in System32.
  const auto r = on_windows(
      "C:\\venv\\Lib\\site-packages\\onnxruntime\\capi\\_pybind_state.py:28: UserWarning: Please install the "
      "2019 Visual C++ runtime and then try again. If you've installed the runtime in a non-standard location "
      "(other than %SystemRoot%\\System32), make sure it can be found by setting the correct path.\n"
      "ImportError: DLL load failed while importing onnxruntime_pybind11_state: The specified module could not be "
      "found.\n");
  ASSERT_TRUE(leads_with(r, "framework-native-library-missing"));
  EXPECT_EQ(r.matches.front().count, 2u);
  EXPECT_NE(r.matches.front().cause.find("ONNX Runtime"), std::string::npos);
}

// pywrap_tensorflow.py wraps the import's own error: that error answers first, the wrapper after.
TEST(ExplainWindowsDll, TheNativeRuntimeWrapperFollowsTheImportErrorItWraps) {
  const auto r = explain_no_facts(
      "ImportError: DLL load failed while importing _pywrap_tensorflow_internal: The specified module could not be "
      "found.\n"
      "\n"
      "Failed to load the native TensorFlow runtime.\n"
      "See https://www.tensorflow.org/install/errors for some common causes and solutions.\n");
  ASSERT_GE(r.matches.size(), 2u);
  EXPECT_NE(r.matches.front().rule, "tf-native-runtime-failed");
  ASSERT_NE(find_rule(r, "tf-native-runtime-failed"), nullptr);
  // Alone, it still says where to look.
  const auto alone = explain_no_facts("Failed to load the native TensorFlow runtime.\n");
  ASSERT_TRUE(leads_with(alone, "tf-native-runtime-failed"));
  EXPECT_NE(alone.matches.front().fix.find("ImportError above"), std::string::npos);
}

// cmd.exe's and PowerShell's "not found", in English and Chinese Windows.
TEST(ExplainWindowsDll, NvidiaSmiNotFoundOnWindowsIsTheDriver) {
  for (const char* line :
       {"'nvidia-smi' is not recognized as an internal or external command,\noperable program or batch file.\n",
        "'nvidia-smi' 不是内部或外部命令，也不是可运行的程序\n或批处理文件。\n",
        "nvidia-smi : The term 'nvidia-smi' is not recognized as the name of a cmdlet, function, script file, or "
        "operable program.\n"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "windows-nvidia-smi-not-found")) << line;
    EXPECT_NE(r.matches.front().fix.find("NVSMI"), std::string::npos);
  }
}

// zlibwapi.dll is cuDNN 8's dependency: cuDNN missing a part, or a missing DLL.
TEST(ExplainWindowsDll, ZlibForCudnnIsAlsoAMissingLibrary) {
  const auto r = explain_no_facts("Could not locate zlibwapi.dll. Please make sure it is in your library path!\n");
  ASSERT_TRUE(leads_with(r, "cudnn-zlib-missing"));
  EXPECT_NE(find_rule(r, "cudnn-zlib-missing/missing-dll"), nullptr);
}

// libgpuarray quotes the DLL name in double quotes; the CUDA-library rule reads it.
TEST(ExplainWindowsDll, DoubleQuotedLibraryNameIsRead) {
  const auto r = explain_no_facts(
      "pygpu.gpuarray.GpuArrayException: b'Could not load \"nvrtc64_70.dll\": The specified module could not be "
      "found.\\r\\n'\n");
  ASSERT_TRUE(leads_with(r, "cuda-library-missing"));
  EXPECT_TRUE(contains(r.matches.front().cause, "nvrtc64_70.dll")) << r.matches.front().cause;
}

// Windows error 127 while importing an extension's _C ("procedure", or "program" as some
// reports word it): a DLL of another version, or an extension built for another torch.
TEST(ExplainWindowsDll, ProcedureNotFoundWhileImportingAnExtensionIsAVersionMismatch) {
  const auto r = explain_no_facts(
      "  File \"E:\\Workplace\\DECA\\decalib\\utils\\renderer.py\", line 12, in set_rasterizer\n"
      "    from pytorch3d.io import load_obj\n"
      "ImportError: DLL load failed while importing _C: The specified procedure could not be found.\n");
  ASSERT_TRUE(leads_with(r, "windows-dll-procedure-not-found"));
  EXPECT_TRUE(among_first_three(r, "wrong-framework-build"));
  EXPECT_EQ(find_rule(r, "framework-native-library-missing"), nullptr);
  // Error 126 (the module itself not found) stays the missing-library answer.
  EXPECT_TRUE(leads_with(
      explain_no_facts("ImportError: DLL load failed while importing _C: The specified module could not be found.\n"),
      "framework-native-library-missing"));
}

// Windows error 182 ("The operating system cannot run %1."): a DLL of another build was loaded.
TEST(ExplainWindowsDll, CannotRunPercentOneIsAnotherBuildOfADll) {
  const auto r = explain_no_facts(
      " File \"C:\\anaconda2\\envs\\pytorch\\lib\\site-packages\\torch\\__init__.py\", line 78, in <module>\n"
      "    from torch._C import *\n"
      "ImportError: DLL load failed: The operating system cannot run %1.\n");
  ASSERT_TRUE(leads_with(r, "windows-dll-wrong-build-loaded"));
  EXPECT_EQ(r.matches.front().category, "path-or-env-misconfigured");
}

// CTranslate2 (faster-whisper) words a library that does not load so.
TEST(ExplainWindowsDll, CtranslateLibraryNotFoundIsTheCudaLibraryMissing) {
  // CTranslate2's own loader (src/cuda/cublas_stub.cc): its rule, of the same category.
  const auto r = explain_no_facts("RuntimeError: Library libcublas.so.11 is not found or cannot be loaded\n");
  ASSERT_TRUE(leads_with(r, "ctranslate2-cuda-library-missing"));
  EXPECT_EQ(r.matches.front().category, "cuda-lib-missing");
  EXPECT_TRUE(contains(r.matches.front().cause, "libcublas.so.11")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "ctranslate2==3.24.0")) << r.matches.front().fix;
  EXPECT_TRUE(leads_with(explain_no_facts("RuntimeError: Library cudnn_ops_infer64_8.dll is not found or cannot be "
                                          "loaded\n"),
                         "cudnn-library-missing"));
}

}  // namespace
}  // namespace gpudoctor
