// Session 42 review C: torch.compile/Inductor/Triton, CUDA extension builds, pip's CUDA wheels
// (docs: "Unseen logs, session 42 review C: torch.compile, extension builds, pip").
// - Dynamo's `[WARNING]` of a compile error it suppressed: the frame ran uncompiled (log 02).
// - torch.utils.cpp_extension's informational `No CUDA runtime is found, using CUDA_HOME='...'`
//   led over the real error (logs 03, 18) and its capture stopped at a space in the path.
// - triton-windows on a Python without include\ and libs\ (log 05), MSVC's cl.exe missing (log 08),
//   Windows' symlink privilege in xformers' setup.py (log 18).
// - pip's `torch==X+cuNNN` not found although PyTorch's index was used: macOS (log 06), a Python
//   the release has no wheels for (log 07).
// - flash-attn's setup.py importing torch during pip's metadata step (log 11); two NCCL wheels of
//   different CUDA majors sharing one libnccl.so.2 (log 13).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::leads_without;
using testing::mentions;
using testing::problem_count;
using testing::rule_list;
using testing::says_all;
using testing::told;

// /tmp/rev42c/logs/02.txt (verbatim), https://github.com/2noise/ChatTTS/issues/235
constexpr std::string_view kReview42cDynamoTitanLog =
    R"LOG([2024-06-18 23:38:49,504] torch._dynamo.convert_frame: [WARNING]     raise RuntimeError(
[2024-06-18 23:38:49,504] torch._dynamo.convert_frame: [WARNING] torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:
[2024-06-18 23:38:49,504] torch._dynamo.convert_frame: [WARNING] RuntimeError: Found NVIDIA GeForce GTX TITAN X which is too old to be supported by the triton GPU compiler, which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 
)LOG";

// /tmp/rev42c/logs/03.txt (verbatim), https://github.com/pytorch/pytorch/issues/92745
constexpr std::string_view kReview42cNoCxxLog = R"LOG(No CUDA runtime is found, using CUDA_HOME='/opt/conda'
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/torch/_dynamo/output_graph.py", line 676, in call_user_compiler
    compiled_fn = compiler_fn(gm, self.fake_example_inputs())
  File "/opt/conda/lib/python3.10/site-packages/torch/_inductor/codecache.py", line 128, in cpp_compiler_search
    raise exc.InvalidCxxCompiler()
torch._inductor.exc.InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1482, in _call_impl
    return forward_call(*args, **kwargs)
  File "/opt/conda/lib/python3.10/site-packages/torch/_dynamo/eval_frame.py", line 83, in forward
    return self.dynamo_ctx(self._orig_mod.forward)(*args, **kwargs)
  File "/opt/conda/lib/python3.10/site-packages/torch/_dynamo/eval_frame.py", line 212, in _fn
    return fn(*args, **kwargs)
  File "/opt/conda/lib/python3.10/site-packages/torch/_dynamo/eval_frame.py", line 333, in catch_errors
    return callback(frame, cache_size, hooks)
  File "/opt/conda/lib/python3.10/site-packages/torch/_dynamo/convert_frame.py", line 480, in _convert_frame
    result = inner_convert(frame, cache_size, hooks)
  File "/opt/conda/lib/python3.10/site-packages/torch/_dynamo/convert_frame.py", line 103, in _fn
    return fn(*args, **kwargs)
)LOG";

// /tmp/rev42c/logs/05.txt (verbatim), https://github.com/woct0rdho/triton-windows/issues/77
constexpr std::string_view kReview42cTritonWindowsLog = R"LOG(WARNING: Failed to find Python libs.
cuda_utils.c
C:\Users\mrtak\AppData\Local\Temp\tmp4v27vhss\cuda_utils.c(12): fatal error C1083: Не удается открыть файл включение: Python.h: No such file or directory,
LoadLibrary C:\Windows\System32\kernel.appcore.dll
LoadLibrary C:\Windows\System32\apphelp.dll
LoadLibrary C:\Users\Public\Applications\FishSpeech\python_embedded\Lib\site-packages\triton\_C\libtriton.pyd
LoadLibrary C:\Windows\System32\DXCore.dll
LoadLibrary C:\Windows\System32\DriverStore\FileRepository\nvmdi.inf_amd64_7aeebfdffcb5f92b\nvcuda64.dll
LoadLibrary C:\Windows\System32\shlwapi.dll
LoadLibrary C:\Windows\System32\msasn1.dll
LoadLibrary C:\Windows\System32\cryptnet.dll
LoadLibrary C:\Windows\System32\wldp.dll
LoadLibrary C:\Windows\System32\drvstore.dll
LoadLibrary C:\Windows\System32\nvapi64.dll
LoadLibrary C:\Windows\System32\setupapi.dll
LoadLibrary C:\Windows\System32\DriverStore\FileRepository\nvmdi.inf_amd64_7aeebfdffcb5f92b\nvdxgdmal64.dll
Traceback (most recent call last):
  File "C:\Users\Public\Applications\FishSpeech\test.py", line 29, in <module>
    b_compiled = add(a, a)
  File "C:\Users\Public\Applications\FishSpeech\test.py", line 24, in add
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
)LOG";

// /tmp/rev42c/logs/06.txt (verbatim), https://github.com/zhoudaquan/ChatAnything/issues/3
constexpr std::string_view kReview42cMacCu117Log = R"LOG([When running the command]
conda env create -f environment.yaml

[Error message]
Pip subprocess output:
Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cu117

Pip subprocess error:
ERROR: Could not find a version that satisfies the requirement torch==2.0.1+cu117 (from versions: 1.9.0, 1.10.0, 1.10.1, 1.10.2, 1.11.0, 1.12.0, 1.12.1, 1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0, 2.1.1)
ERROR: No matching distribution found for torch==2.0.1+cu117

failed

CondaEnvException: Pip failed

[My Environment]
Mac M1
Torch Version: 2.1.1
)LOG";

// /tmp/rev42c/logs/07.txt (verbatim), https://github.com/ogkalu2/comic-translate/issues/215
constexpr std::string_view kReview42cPy312Cu121Log =
    R"LOG(pip install torch==2.1.0+cu121 -f https://download.pytorch.org/whl/torch_stable.html
Looking in links: https://download.pytorch.org/whl/torch_stable.html
ERROR: Could not find a version that satisfies the requirement torch==2.1.0+cu121 (from versions: 2.2.0, 2.2.0+cpu, 2.2.0+cu118, 2.2.0+cu121, 2.2.1, 2.2.1+cpu, 2.2.1+cu118, 2.2.1+cu121, 2.2.2, 2.2.2+cpu, 2.2.2+cu118, 2.2.2+cu121, 2.3.0, 2.3.0+cpu, 2.3.0+cu118, 2.3.0+cu121, 2.3.1, 2.3.1+cpu, 2.3.1+cu118, 2.3.1+cu121, 2.4.0, 2.4.1, 2.5.0, 2.5.1, 2.6.0)
ERROR: No matching distribution found for torch==2.1.0+cu121
)LOG";

// /tmp/rev42c/logs/08.txt (verbatim), https://github.com/asappresearch/sru/issues/202
constexpr std::string_view kReview42cWhereClLog =
    R"LOG(D:\Anaconda\envs\taidi\lib\site-packages\torch\utils\cpp_extension.py:316: UserWarning: Error checking compiler version for cl: [WinError 2] 系统找不到指定的文件。
  warnings.warn(f'Error checking compiler version for {compiler}: {error}')
��Ϣ: ���ṩ��ģʽ�޷��ҵ��ļ���
D:\Anaconda\envs\taidi\lib\site-packages\sru\cuda_functional.py:24: UserWarning: Just-in-time loading and compiling the CUDA kernels of SRU was unsuccessful. Got the following error:
Command '['where', 'cl']' returned non-zero exit status 1.
  "Got the following error:\n" + str(e))
��Ϣ: ���ṩ��ģʽ�޷��ҵ��ļ���
Traceback (most recent call last):
  File "D:\Anaconda\envs\taidi\lib\site-packages\sru\cuda_functional.py", line 20, in <module>
    verbose=False
  File "D:\Anaconda\envs\taidi\lib\site-packages\torch\utils\cpp_extension.py", line 1136, in load
    keep_intermediates=keep_intermediates)
  File "D:\Anaconda\envs\taidi\lib\site-packages\torch\utils\cpp_extension.py", line 1347, in _jit_compile
    is_standalone=is_standalone)
  File "D:\Anaconda\envs\taidi\lib\site-packages\torch\utils\cpp_extension.py", line 1445, in _write_ninja_file_and_build_library
    is_standalone=is_standalone)
)LOG";

// /tmp/rev42c/logs/11.txt (verbatim), https://github.com/TianHuiLab/Falcon/issues/11
constexpr std::string_view kReview42cFlashAttnNoTorchLog = R"LOG(pip install requirements error:
  Preparing metadata (setup.py) ... error
  error: subprocess-exited-with-error

  × python setup.py egg_info did not run successfully.
  │ exit code: 1
  ╰─> [6 lines of output]
      Traceback (most recent call last):
        File "<string>", line 2, in <module>
        File "<pip-setuptools-caller>", line 34, in <module>
        File "/tmp/pip-install-v_8s9w7i/flash-attn_67edd227d98e40fdb7686c3e3a516548/setup.py", line 19, in <module>
          import torch
      ModuleNotFoundError: No module named 'torch'
      [end of output]

  note: This error originates from a subprocess, and is likely not a problem with pip.
error: metadata-generation-failed

× Encountered error while generating package metadata.
╰─> See above for output.

note: This is an issue with the package mentioned above, not pip.
hint: See above for details.
)LOG";

// /tmp/rev42c/logs/13.txt (verbatim), https://github.com/rwth-i6/returnn/issues/1802
constexpr std::string_view kReview42cNcclTwoWheelsLog = R"LOG(Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/home/runner/.local/lib/python3.10/site-packages/torch/__init__.py", line 416, in <module>
    from torch._C import *  # noqa: F403
ImportError: /home/runner/.local/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclMemFree

[pip3] nvidia-nccl-cu11==2.14.3
[pip3] nvidia-nccl-cu12==2.27.3

libnccl.so.2 => /home/runner/.local/lib/python3.10/site-packages/torch/lib/../../nvidia/nccl/lib/libnccl.so.2 (0x00007f7a62a00000)
)LOG";

// /tmp/rev42c/logs/18.txt (verbatim), https://github.com/facebookresearch/xformers/issues/581
constexpr std::string_view kReview42cXformersSymlinkLog =
    R"LOG(Looking in indexes: https://pypi.org/simple, https://pypi.ngc.nvidia.com/
Obtaining file:///F:/Stable_Diffusion/stable-diffusion-webui-master/repositories/xformers
Preparing metadata (setup.py) ... error
error: subprocess-exited-with-error

× python setup.py egg_info did not run successfully.
│ exit code: 1
╰─> [9 lines of output]
No CUDA runtime is found, using CUDA_HOME='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.0'
Traceback (most recent call last):
File "", line 2, in
File "", line 34, in
File "F:\Stable_Diffusion\stable-diffusion-webui-master\repositories\xformers\setup.py", line 293, in
symlink_package(
File "F:\Stable_Diffusion\stable-diffusion-webui-master\repositories\xformers\setup.py", line 83, in symlink_package
os.symlink(src=path_from, dst=path_to)
OSError: [WinError 1314] A required privilege is not held by the client: 'F:\Stable_Diffusion\stable-diffusion-webui-master\repositories\xformers\third_party\flash-attention\flash_attn' -> 'F:\Stable_Diffusion\stable-diffusion-webui-master\repositories\xformers\xformers\_flash_attn'
[end of output]

note: This error originates from a subprocess, and is likely not a problem with pip.
error: metadata-generation-failed

× Encountered error while generating package metadata.
╰─> See above for output.
)LOG";

// --- log 02: Dynamo suppressed the compile error and ran the frame eagerly ---

TEST(ExplainReview42C, DynamoWarningOfAGpuTooOldForTritonIsAFallbackToEagerNotAFailure) {
  const auto r = explain_no_facts(kReview42cDynamoTitanLog);
  ASSERT_TRUE(leads_with(r, "torch-inductor-gpu-too-old-for-triton/suppressed")) << told(r);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
  // Not even as another possible cause: the error did not stop anything.
  EXPECT_EQ(find_rule(r, "torch-inductor-gpu-too-old-for-triton"), nullptr) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(lead.harmless) << rule_list(r);
  EXPECT_TRUE(says_all(lead.cause, {"GTX TITAN X", "suppress_errors", "eager"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"TORCH_COMPILE_DISABLE=1"})) << lead.fix;
  // The BackendCompilerFailed line itself is the same note, not a problem.
  const auto* backend = find_rule(r, "dynamo-backend-error-suppressed");
  ASSERT_NE(backend, nullptr) << rule_list(r);
  EXPECT_TRUE(backend->harmless);
}

TEST(ExplainReview42C, DynamoSuppressedErrorInTheGlogFormatOfTorch22IsTheSameNote) {
  const auto r = explain_no_facts(
      "W0618 23:38:49.504000 140035 torch/_dynamo/convert_frame.py:1009] [0/0] "
      "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
      "W0618 23:38:49.504000 140035 torch/_dynamo/convert_frame.py:1009] [0/0] InvalidCxxCompiler: No working C++ "
      "compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')\n");
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
  ASSERT_TRUE(leads_with(r, "inductor-no-cxx-compiler/suppressed")) << rule_list(r);
  EXPECT_NE(find_rule(r, "dynamo-backend-error-suppressed"), nullptr) << rule_list(r);
}

TEST(ExplainReview42C, NearMissAGpuTooOldForTritonThatWasRaisedStaysAProblem) {
  // Without Dynamo's suppression the error reaches the program: torch.compile failed.
  const auto r = explain_no_facts(
      "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
      "RuntimeError: Found Tesla P100-PCIE-16GB which is too old to be supported by the triton GPU compiler, which is "
      "used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA "
      "capability 6.0\n");
  ASSERT_TRUE(leads_with(r, "torch-inductor-gpu-too-old-for-triton")) << rule_list(r);
  EXPECT_FALSE(r.matches.front().harmless);
  EXPECT_EQ(find_rule(r, "dynamo-backend-error-suppressed"), nullptr) << rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-inductor-gpu-too-old-for-triton/suppressed"), nullptr) << rule_list(r);
  // Another logger's warning that quotes the error is no suppression by Dynamo either.
  const auto other = explain_no_facts(
      "[2024-06-18 23:38:49,504] my_app.trainer: [WARNING] torch._dynamo.exc.BackendCompilerFailed: "
      "backend='inductor' raised:\n");
  EXPECT_EQ(find_rule(other, "dynamo-backend-error-suppressed"), nullptr) << rule_list(other);
}

// --- logs 03 and 18: `No CUDA runtime is found, using CUDA_HOME=...` is a note ---

TEST(ExplainReview42C, NoCxxCompilerLeadsAndTheNoCudaRuntimeLineIsANote) {
  const auto r = explain_no_facts(kReview42cNoCxxLog);
  ASSERT_TRUE(leads_without(r, "inductor-no-cxx-compiler", {"cuda-home-not-set", "cuda-home-not-set/env"})) << told(r);
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
  const auto* note = find_rule(r, "torch-no-cuda-runtime-note");
  ASSERT_NE(note, nullptr) << rule_list(r);
  EXPECT_TRUE(note->harmless);
  EXPECT_TRUE(says_all(note->cause, {"/opt/conda", "torch.cuda.is_available()"})) << note->cause;
}

TEST(ExplainReview42C, NearMissARealCudaHomeFailureKeepsTheToolkitAnswer) {
  const auto r = explain_no_facts(
      "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA "
      "install root.\n");
  ASSERT_TRUE(leads_with(r, "cuda-home-not-set")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-no-cuda-runtime-note"), nullptr) << rule_list(r);
}

// --- log 18: WinError 1314 from os.symlink; the CUDA_HOME path keeps its spaces ---

TEST(ExplainReview42C, XformersSymlinkWithoutThePrivilegeIsDeveloperModeNotCuda) {
  const auto r = explain_no_facts(kReview42cXformersSymlinkLog);
  ASSERT_TRUE(leads_without(r, "windows-symlink-privilege", {"cuda-home-not-set", "cuda-home-not-set/env"})) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"os.symlink", "1314"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"Developer Mode", "Administrator", "prebuilt"})) << lead.fix;
  EXPECT_EQ(problem_count(r), 2u) << rule_list(r);  // and pip's summary of the failed build
  const auto* note = find_rule(r, "torch-no-cuda-runtime-note");
  ASSERT_NE(note, nullptr) << rule_list(r);
  EXPECT_TRUE(mentions(note->cause, "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.0")) << note->cause;
}

TEST(ExplainReview42C, NearMissOtherWindowsErrorsAreNotTheSymlinkPrivilege) {
  const auto r =
      explain_no_facts("PermissionError: [WinError 5] Access is denied: 'C:\\\\Python310\\\\Scripts\\\\pip.exe'\n");
  EXPECT_EQ(find_rule(r, "windows-symlink-privilege"), nullptr) << rule_list(r);
  // Error 1314 of a call that names one path is not a symlink (which names two: 'src' -> 'dst').
  const auto other = explain_no_facts(
      "OSError: [WinError 1314] A required privilege is not held by the client: 'C:\\\\Windows\\\\Temp'\n");
  EXPECT_EQ(find_rule(other, "windows-symlink-privilege"), nullptr) << rule_list(other);
}

TEST(ExplainReview42C, QuotedPathsWithSpacesAreCapturedWhole) {
  // The capture stopped at the first space: "the one at CUDA_HOME (C:\Program)".
  const auto cuda = explain_no_facts(
      "No CUDA runtime is found, using CUDA_HOME='C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8'\n");
  const auto* note = find_rule(cuda, "torch-no-cuda-runtime-note");
  ASSERT_NE(note, nullptr) << rule_list(cuda);
  EXPECT_TRUE(mentions(note->cause, "(C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8)")) << note->cause;
  // Ollama's libDir, which Go's slog quotes (backslashes escaped) when the path has a space: a user
  // name with a space, the same shape.
  const auto ollama = explain_no_facts(
      R"(time=2025-01-10T10:00:00.000+01:00 level=DEBUG source=runner.go:120 msg="skipping available library at user's request" requested=cuda libDir="C:\\Users\\John Smith\\AppData\\Local\\Programs\\Ollama\\lib\\ollama\\cuda_v12")"
      "\n");
  ASSERT_TRUE(leads_with(ollama, "ollama-llm-library-skips-gpu")) << rule_list(ollama);
  EXPECT_TRUE(mentions(ollama.matches.front().cause, "John Smith\\\\AppData")) << ollama.matches.front().cause;
}

// --- log 05: triton-windows on a Python without include\ and libs\ ---

TEST(ExplainReview42C, TritonWindowsOnAnEmbeddedPythonNeedsIncludeAndLibs) {
  const auto r = explain_no_facts(kReview42cTritonWindowsLog);
  ASSERT_TRUE(leads_with(r, "windows-python-dev-files-missing")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"Python.h", "embed"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"include", "libs", "same version"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "apt install")) << told(r);
}

TEST(ExplainReview42C, MsvcAndTccMissingPythonHAloneAreTheSameAnswer) {
  for (const char* line : {
           "C:\\Users\\me\\AppData\\Local\\Temp\\tmpab\\main.c(5): fatal error C1083: Cannot open include file: "
           "'Python.h': No such file or directory",
           "C:\\Users\\me\\AppData\\Local\\Temp\\tmpab\\cuda_utils.c:12: error: include file 'Python.h' not found",
           "WARNING: Failed to find Python libs.",
           "D:\\ComfyUI\\python_embeded\\Lib\\site-packages\\triton\\windows_utils.py:302: UserWarning: Failed to find "
           "Python libs.",
       }) {
    const auto r = explain_no_facts(std::string(line) + "\n");
    EXPECT_TRUE(leads_with(r, "windows-python-dev-files-missing")) << line << "\n" << rule_list(r);
  }
}

TEST(ExplainReview42C, NearMissOtherMissingHeadersAreNotPythonsDevFiles) {
  // MSVC's C1083 for a CUDA header is the toolkit's; gcc's Python.h keeps the Linux answer.
  const auto cuda = explain_no_facts(
      "C:\\src\\ext.cpp(4): fatal error C1083: Cannot open include file: 'cuda_runtime.h': No such file or "
      "directory\n");
  ASSERT_TRUE(leads_with(cuda, "cuda-header-missing")) << rule_list(cuda);
  EXPECT_EQ(find_rule(cuda, "windows-python-dev-files-missing"), nullptr) << rule_list(cuda);
  const auto gcc = explain_no_facts("/tmp/tmpab12cd/main.c:5:10: fatal error: Python.h: No such file or directory\n");
  ASSERT_TRUE(leads_with(gcc, "python-headers-missing")) << rule_list(gcc);
  EXPECT_EQ(find_rule(gcc, "windows-python-dev-files-missing"), nullptr) << rule_list(gcc);
  // tcc's message for another header is not Python's.
  const auto tcc = explain_no_facts("cuda_utils.c:3: error: include file 'cuda.h' not found\n");
  EXPECT_EQ(find_rule(tcc, "windows-python-dev-files-missing"), nullptr) << rule_list(tcc);
}

// --- logs 06 and 07: torch==X+cuNNN not found although PyTorch's index was used ---

TEST(ExplainReview42C, Cu117BuildNotFoundOnAMacWithPytorchsIndexIsNoCudaOnMacos) {
  const auto r = explain_no_facts(kReview42cMacCu117Log);
  ASSERT_TRUE(leads_without(r, "pip-pytorch-variant-not-published/macos", {"pip-pytorch-local-version-not-on-pypi"}))
      << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"macOS", "download.pytorch.org"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"torch==2.0.1`", "+cu117"})) << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "--index-url")) << lead.fix;
}

TEST(ExplainReview42C, Cu121BuildWithVersionsFrom220IsPython312) {
  const auto r = explain_no_facts(kReview42cPy312Cu121Log);
  ASSERT_TRUE(leads_without(r, "pip-pytorch-build-not-for-this-python",
                            {"pip-pytorch-local-version-not-on-pypi", "pip-pytorch-variant-not-published",
                             "pip-pytorch-variant-not-published/macos"}))
      << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"2.1.0+cu121", "start at 2.2.0", "Python 3.12 from torch 2.2.0"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"python=3.11", "2.2.0+cu121"})) << lead.fix;
  EXPECT_EQ(find_rule(r, "pip-no-matching-framework"), nullptr) << rule_list(r);
}

TEST(ExplainReview42C, AReleaseListedWithOtherCudaBuildsIsTheLabelNotThePython) {
  // pytorch/pytorch#54172's shape: 1.8.0 exists here, with cu101 and cu111 but no cu102.
  const auto r = explain_no_facts(
      "ERROR: Could not find a version that satisfies the requirement torch==1.8.0+cu102 (from versions: 0.1.2, "
      "1.7.1+cu110, 1.8.0, 1.8.0+cpu, 1.8.0+cu101, 1.8.0+cu111)\n"
      "ERROR: No matching distribution found for torch==1.8.0+cu102\n");
  ASSERT_TRUE(leads_without(r, "pip-pytorch-variant-not-published",
                            {"pip-pytorch-build-not-for-this-python", "pip-pytorch-local-version-not-on-pypi",
                             "pip-pytorch-variant-not-published/macos"}))
      << rule_list(r);
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_TRUE(mentions(r.matches.front().fix, "previous-versions")) << r.matches.front().fix;
}

TEST(ExplainReview42C, AListWithCudaBuildsAloneSaysPytorchsIndexWasUsed) {
  // No `Looking in` line: the +cuNNN builds in the list can only come from PyTorch's index.
  const auto r = explain_no_facts(
      "ERROR: Could not find a version that satisfies the requirement torch==1.13.1+cu117 (from versions: 2.5.0, "
      "2.5.0+cu121, 2.5.1, 2.5.1+cu124)\n");
  ASSERT_TRUE(leads_with(r, "pip-pytorch-build-not-for-this-python")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "pip-pytorch-local-version-not-on-pypi"), nullptr) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().cause, "start at 2.5.0")) << r.matches.front().cause;
}

TEST(ExplainReview42C, NearMissWithoutPytorchsIndexTheLocalVersionAnswerStays) {
  // PyPI's list, no PyTorch index in sight: the +cu117 build is only on PyTorch's index.
  const auto r = explain_no_facts(
      "Looking in indexes: https://pypi.org/simple\n"
      "ERROR: Could not find a version that satisfies the requirement torch==2.0.1+cu117 (from versions: 1.13.1, "
      "2.0.0, 2.0.1, 2.1.0)\n"
      "ERROR: No matching distribution found for torch==2.0.1+cu117\n");
  ASSERT_TRUE(leads_with(r, "pip-pytorch-local-version-not-on-pypi")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "pip-pytorch-build-not-for-this-python"), nullptr) << rule_list(r);
  EXPECT_EQ(find_rule(r, "pip-pytorch-variant-not-published"), nullptr) << rule_list(r);
  // A mirror whose URL merely contains the words is not PyTorch's index.
  const auto mirror = explain_no_facts(
      "Looking in indexes: https://mirrors.example.com/download.pytorch.org.mirror/simple\n"
      "ERROR: No matching distribution found for torch==2.0.1+cu117\n");
  EXPECT_TRUE(leads_with(mirror, "pip-pytorch-local-version-not-on-pypi")) << rule_list(mirror);
}

// --- log 08: torch.utils.cpp_extension on Windows finds no cl.exe ---

TEST(ExplainReview42C, WhereClFailingIsMsvcNotInstalledOrNotOnPath) {
  const auto r = explain_no_facts(kReview42cWhereClLog);
  ASSERT_TRUE(leads_with(r, "msvc-cl-not-found")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"cl.exe", "where cl"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"Desktop development with C++", "x64 Native Tools", "vcvars64.bat"})) << lead.fix;
  for (const char* line : {"Command '['where', 'cl']' returned non-zero exit status 1.",
                           "RuntimeError: MSVC is required to load C++ extensions"}) {
    const auto alone = explain_no_facts(std::string(line) + "\n");
    EXPECT_TRUE(leads_with(alone, "msvc-cl-not-found")) << line << "\n" << rule_list(alone);
  }
}

TEST(ExplainReview42C, NearMissClThatRanButPrintedNonUtf8KeepsTheDecodeAnswer) {
  const auto r = explain_no_facts(
      "C:\\Python39\\lib\\site-packages\\torch\\utils\\cpp_extension.py:287: UserWarning: Error checking compiler "
      "version for cl: 'utf-8' codec can't decode byte 0xd3 in position 0: invalid continuation byte\n");
  ASSERT_TRUE(leads_with(r, "msvc-output-not-utf8")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "msvc-cl-not-found"), nullptr) << rule_list(r);
}

// --- log 11: flash-attn's setup.py imports torch while pip prepares its metadata ---

TEST(ExplainReview42C, FlashAttnSetupPyWithoutTorchIsTheBuildNotTheInterpreter) {
  const auto r = explain_no_facts(kReview42cFlashAttnNoTorchLog);
  ASSERT_TRUE(leads_with(r, "torch-not-importable/build-isolation")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"setup.py", "not installed yet"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"--no-build-isolation", "first"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "Jupyter")) << told(r);
}

TEST(ExplainReview42C, NearMissNoModuleTorchOutsideABuildIsTheInterpreter) {
  const auto r = explain_no_facts(
      "Traceback (most recent call last):\n"
      "  File \"/home/me/train.py\", line 1, in <module>\n"
      "    import torch\n"
      "ModuleNotFoundError: No module named 'torch'\n");
  ASSERT_TRUE(leads_with(r, "torch-not-importable")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-not-importable/build-isolation"), nullptr) << rule_list(r);
}

// --- log 13: nvidia-nccl-cu11 and nvidia-nccl-cu12 share nvidia/nccl/lib/libnccl.so.2 ---

TEST(ExplainReview42C, NcclWheelsOfTwoCudaMajorsShareOneLibrary) {
  const auto r = explain_no_facts(kReview42cNcclTwoWheelsLog);
  ASSERT_TRUE(leads_with(r, "undefined-symbol-nccl/two-cuda-majors")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"nvidia-nccl-cu11", "nvidia-nccl-cu12", "nvidia/nccl/lib/libnccl.so.2"}))
      << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"pip uninstall -y nvidia-nccl-cu11", "--force-reinstall"})) << lead.fix;
  // The same with cu12 and cu13 (pip list's columns).
  const auto cu13 = explain_no_facts(
      "ImportError: libtorch_cuda.so: undefined symbol: ncclCommWindowRegister\n"
      "\n"
      "nvidia-nccl-cu12          2.21.5\n"
      "nvidia-nccl-cu13          2.27.7\n");
  ASSERT_TRUE(leads_with(cu13, "undefined-symbol-nccl/two-cuda-majors")) << rule_list(cu13);
}

TEST(ExplainReview42C, NearMissOneNcclWheelKeepsTheOlderNcclAnswer) {
  const auto r = explain_no_facts(
      "ImportError: /usr/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclMemFree\n"
      "[pip3] nvidia-nccl-cu12==2.18.1\n");
  ASSERT_TRUE(leads_with(r, "undefined-symbol-nccl")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "undefined-symbol-nccl/two-cuda-majors"), nullptr) << rule_list(r);
}

// --- log 17 (OK: nothing found), the reviewer's wish: cpp_extension's TORCH_CUDA_ARCH_LIST warning
// is one of the most asked-about lines of an extension build; it is named as harmless ---

// logs/17.txt (openvinotoolkit/nncf#3141, verbatim)
constexpr std::string_view kReview42cArchListLog =
    R"LOG(INFO:nncf:Compiling and loading torch extension: quantized_functions_cuda...
/nncf_torch/lib/python3.10/site-packages/torch/utils/cpp_extension.py:1964: UserWarning: TORCH_CUDA_ARCH_LIST is not set, all archs for visible cards are included for compilation. 
If this is not desired, please set os.environ['TORCH_CUDA_ARCH_LIST'].
  warnings.warn(
)LOG";

TEST(ExplainReview42C, ArchListNotSetIsAHarmlessNoteOfWhatTheBuildTargets) {
  const auto r = explain_no_facts(kReview42cArchListLog);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
  const auto* note = find_rule(r, "torch-cuda-arch-list-not-set");
  ASSERT_NE(note, nullptr) << rule_list(r);
  EXPECT_TRUE(note->harmless);
  EXPECT_TRUE(says_all(note->fix, {"TORCH_CUDA_ARCH_LIST", "8.6"})) << note->fix;
  // The near miss: the same warning before a failed compile leaves the failure first.
  const auto failed = explain_no_facts(std::string(kReview42cArchListLog) +
                                       "nvcc fatal   : Unsupported gpu architecture 'compute_89'\n");
  ASSERT_FALSE(failed.matches.empty());
  EXPECT_FALSE(failed.matches.front().harmless) << rule_list(failed);
  EXPECT_NE(failed.matches.front().rule, "torch-cuda-arch-list-not-set");
}

// --- The second re-read (session 42): wrong answers in the rules above ---

// /tmp/reread42b/d1.log (verbatim), after lbin/DCNv2#20: cpp_extension's "Error checking compiler
// version for cl" comes before setuptools sets up MSVC, and the build went on and finished.
constexpr std::string_view kReread42cClWarningBuildOkLog = R"LOG(running build_ext
C:\Users\LXAB\anaconda3\envs\mltorch\lib\site-packages\torch\utils\cpp_extension.py:304: UserWarning: Error checking compiler version for cl: [WinError 2] The system cannot find the file specified
  warnings.warn(f'Error checking compiler version for {compiler}: {error}')
building '_ext' extension
Emitting ninja build file C:\DCNv2\build\temp.win-amd64-3.8\Release\build.ninja...
Compiling objects...
Using envvar MAX_JOBS (4) as the number of workers...
[1/6] cl /showIncludes /nologo /O2 /W3 /GL /DNDEBUG /MD /MD /wd4819 /wd4251 /wd4244 /wd4267 /wd4275 /wd4018 /wd4190 /EHsc -DWITH_CUDA -IC:\DCNv2\src /c C:\DCNv2\src\vision.cpp /FoC:\DCNv2\build\temp.win-amd64-3.8\Release\DCNv2\src\vision.obj
[6/6] C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.3\bin\nvcc --use-local-env -c C:\DCNv2\src\cuda\dcn_v2_cuda.cu -o C:\DCNv2\build\temp.win-amd64-3.8\Release\DCNv2\src\cuda\dcn_v2_cuda.obj
Finished processing dependencies for DCNv2==0.1
)LOG";

TEST(ExplainReview42C, RereadClVersionWarningOfABuildThatFinishedIsNoError) {
  const auto r = explain_no_facts(kReread42cClWarningBuildOkLog);
  EXPECT_EQ(find_rule(r, "msvc-cl-not-found"), nullptr) << rule_list(r);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
  const auto* note = find_rule(r, "msvc-cl-version-check-failed");
  ASSERT_NE(note, nullptr) << rule_list(r);
  EXPECT_TRUE(note->harmless);
  // The deciding lines after the same warning still give the error.
  const auto failed = explain_no_facts(std::string(kReread42cClWarningBuildOkLog) +
                                       "Command '['where', 'cl']' returned non-zero exit status 1.\n");
  EXPECT_TRUE(leads_with(failed, "msvc-cl-not-found")) << rule_list(failed);
  // /tmp/reread42b/d2.log (verbatim): setuptools found no Visual C++ after the same warning.
  const auto no_vc = explain_no_facts(
      R"LOG(running build_ext
C:\Users\me\anaconda3\envs\dpt\lib\site-packages\torch\utils\cpp_extension.py:358: UserWarning: Error checking compiler version for cl: [WinError 2] The system cannot find the file specified
  warnings.warn(f'Error checking compiler version for {compiler}: {error}')
building 'MultiScaleDeformableAttention' extension
error: Microsoft Visual C++ 14.0 or greater is required. Get it with "Microsoft C++ Build Tools": https://visualstudio.microsoft.com/visual-cpp-build-tools/
)LOG");
  EXPECT_TRUE(leads_with(no_vc, "msvc-cl-not-found")) << rule_list(no_vc);
}

// /tmp/reread42b/e3.log (verbatim): pip's resolver says the cu11 wheel "is not installed"; only the
// cu12 wheel is, so it is not two CUDA majors sharing one libnccl.so.2.
constexpr std::string_view kReread42cNcclNotInstalledLog = R"LOG($ pip install vllm==0.2.7
Collecting nvidia-nccl-cu12==2.18.1 (from torch==2.1.2->vllm==0.2.7)
Installing collected packages: nvidia-nccl-cu12, torch, vllm
ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.
torch 2.0.1 requires nvidia-nccl-cu11==2.14.3; platform_system == "Linux" and platform_machine == "x86_64", which is not installed.
Successfully installed nvidia-nccl-cu12-2.18.1 torch-2.1.2 vllm-0.2.7
$ python -m vllm.entrypoints.api_server
ImportError: /venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommRegister
)LOG";

TEST(ExplainReview42C, RereadNcclRequirementNotInstalledIsNoSecondWheel) {
  const auto r = explain_no_facts(kReread42cNcclNotInstalledLog);
  EXPECT_EQ(find_rule(r, "undefined-symbol-nccl/two-cuda-majors"), nullptr) << rule_list(r);
  ASSERT_TRUE(leads_with(r, "undefined-symbol-nccl")) << rule_list(r);
  // Package-list shapes still count: pip freeze and "Requirement already satisfied".
  const auto listed = explain_no_facts(
      "nvidia-nccl-cu11==2.14.3\n"
      "Requirement already satisfied: nvidia-nccl-cu12==2.18.1 in /venv/lib/python3.10/site-packages\n"
      "ImportError: libtorch_cuda.so: undefined symbol: ncclCommRegister\n");
  EXPECT_TRUE(leads_with(listed, "undefined-symbol-nccl/two-cuda-majors")) << rule_list(listed);
  // A backtracking resolver's "Collecting" lines are no installed wheels.
  const auto collecting = explain_no_facts(
      "ImportError: libtorch_cuda.so: undefined symbol: ncclCommRegister\n"
      "Collecting nvidia-nccl-cu11==2.14.3 (from torch==2.0.1)\n"
      "[pip3] nvidia-nccl-cu12==2.18.1\n");
  EXPECT_EQ(find_rule(collecting, "undefined-symbol-nccl/two-cuda-majors"), nullptr) << rule_list(collecting);
}

// /tmp/reread42b/a1.log (verbatim): +cu117 asked on the cu121 index, whose list carries +cu121 only:
// the index is another CUDA's, not the Python's range.
constexpr std::string_view kReread42cOtherCudaIndexLog =
    R"LOG($ pip install torch==1.13.1+cu117 --index-url https://download.pytorch.org/whl/cu121
Looking in indexes: https://download.pytorch.org/whl/cu121
ERROR: Could not find a version that satisfies the requirement torch==1.13.1+cu117 (from versions: 2.1.0+cu121, 2.1.1+cu121, 2.1.2+cu121, 2.2.0+cu121, 2.2.1+cu121)
ERROR: No matching distribution found for torch==1.13.1+cu117
)LOG";

TEST(ExplainReview42C, RereadListOfAnotherCudaLabelIsTheIndexNotThePython) {
  const auto r = explain_no_facts(kReread42cOtherCudaIndexLog);
  EXPECT_EQ(find_rule(r, "pip-pytorch-build-not-for-this-python"), nullptr) << rule_list(r);
  ASSERT_TRUE(leads_with(r, "pip-pytorch-variant-not-published/other-index")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"+cu121", "+cu117"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"torch==2.1.0+cu121", "whl/cu121"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "2.1.0+cu117")) << told(r);
  // The same label first (cu121 asked, cu121 listed from a later release) is the Python range.
  const auto same = explain_no_facts(
      "Looking in indexes: https://download.pytorch.org/whl/cu121\n"
      "ERROR: Could not find a version that satisfies the requirement torch==2.1.0+cu121 (from versions: "
      "2.2.0+cu121, 2.2.1+cu121)\n");
  EXPECT_TRUE(leads_with(same, "pip-pytorch-build-not-for-this-python")) << rule_list(same);
}

// /tmp/reread42b/a2.log (verbatim): PyTorch's index was used for xformers, then torch's +cu118 was
// asked without it; the failing list has no + label at all, so it is PyPI's.
constexpr std::string_view kReread42cIndexForAnotherCommandLog =
    R"LOG($ pip install xformers==0.0.22 --index-url https://download.pytorch.org/whl/cu118
Looking in indexes: https://download.pytorch.org/whl/cu118
Collecting xformers==0.0.22
  Downloading https://download.pytorch.org/whl/cu118/xformers-0.0.22-cp310-cp310-manylinux2014_x86_64.whl (211.8 MB)
Successfully installed xformers-0.0.22
$ pip install torch==2.0.1+cu118
ERROR: Could not find a version that satisfies the requirement torch==2.0.1+cu118 (from versions: 1.11.0, 1.12.0, 1.12.1, 1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0)
ERROR: No matching distribution found for torch==2.0.1+cu118
)LOG";

TEST(ExplainReview42C, RereadUnlabelledListIsPypiWhateverAnotherCommandUsed) {
  const auto r = explain_no_facts(kReread42cIndexForAnotherCommandLog);
  ASSERT_TRUE(leads_without(r, "pip-pytorch-local-version-not-on-pypi/pypi-list",
                            {"pip-pytorch-variant-not-published", "pip-pytorch-build-not-for-this-python"}))
      << told(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "--index-url https://download.pytorch.org/whl/cu118"))
      << r.matches.front().fix;
  // Near miss: a labelled list on PyTorch's index keeps the answer that the label was not published.
  const auto labelled = explain_no_facts(
      "Looking in indexes: https://download.pytorch.org/whl/cu118\n"
      "ERROR: Could not find a version that satisfies the requirement torch==1.8.0+cu118 (from versions: "
      "1.8.0, 1.8.0+cpu, 1.8.0+cu111)\n");
  EXPECT_TRUE(leads_with(labelled, "pip-pytorch-variant-not-published")) << rule_list(labelled);
  EXPECT_EQ(find_rule(labelled, "pip-pytorch-local-version-not-on-pypi/pypi-list"), nullptr) << rule_list(labelled);
}

}  // namespace
}  // namespace gpudoctor
