// Session 43 review D (1): logs from machines whose GPU is not NVIDIA's (docs: "Unseen logs, session
// 43 review D (1): Macs, AMD and Intel GPUs"). The log facts rocm-log, xpu-log and macos-log (now also
// PyTorch's MPS messages) make the CUDA answers give way; the platforms' own messages get their own
// rules (data/explain/gpu-platforms.toml).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"
#include "model/platform.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::explain_on;
using testing::find_rule;
using testing::leads_with;
using testing::leads_without;
using testing::mentions;
using testing::problem_count;
using testing::rule_list;
using testing::says_all;
using testing::told;

// /tmp/rev43d/logs/01.txt (verbatim), https://github.com/deepbeepmeep/Wan2GP/issues/1680
constexpr std::string_view kReview43d1MacNotCompiledLog = R"LOG(Traceback (most recent call last):
  File "/Users/prashantsoni/pinokio/api/wan2gp.git/app/wgp.py", line 49, in <module>
    from shared.attention import get_attention_modes, get_supported_attention_modes
  File "/Users/prashantsoni/pinokio/api/wan2gp.git/app/shared/attention.py", line 9, in <module>
    major, minor = torch.cuda.get_device_capability(None)
  File "/Users/prashantsoni/pinokio/api/wan2gp.git/app/env/lib/python3.10/site-packages/torch/cuda/__init__.py", line 669, in get_device_capability
    prop = get_device_properties(device)
  File "/Users/prashantsoni/pinokio/api/wan2gp.git/app/env/lib/python3.10/site-packages/torch/cuda/__init__.py", line 686, in get_device_properties
    _lazy_init()  # will define _get_device_properties
  File "/Users/prashantsoni/pinokio/api/wan2gp.git/app/env/lib/python3.10/site-packages/torch/cuda/__init__.py", line 471, in _lazy_init
    raise AssertionError("Torch not compiled with CUDA enabled")
AssertionError: Torch not compiled with CUDA enabled
)LOG";

// /tmp/rev43d/logs/02.txt (verbatim), https://github.com/ROCm/rocALUTION/issues/197
constexpr std::string_view kReview43d1RocalutionLog = R"LOG(Number of CPU cores: 16
Host thread affinity policy - thread mapping on every core
Number of HIP devices in the system: 1
Matrix+Vectors loading:5.7e-05 sec
HIP error: invalid device function
File: /long_pathname_so_that_rpms_can_package_the_debug_info/src/extlibs/rocALUTION/src/base/hip/hip_vector.cpp; line: 845
)LOG";

// /tmp/rev43d/logs/05.txt (verbatim), https://github.com/ROCm/legacy-rocm-build/issues/2232
constexpr std::string_view kReview43d1KfdPitcairnLog = R"LOG(`rocminfo

ROCk module is loaded

Unable to open /dev/kfd read-write: Cannot allocate memory

igor is member of render group

hsa api call failure at: /src/rocminfo/rocminfo.cc:1142

Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. This error may also occur when the core runtime library needs to spawn threads or create internal OS-specific events.
`

look into dmesg: 

`sudo dmesg | grep kfd

[    3.548555] kfd kfd: amdgpu: PITCAIRN  not supported in kfd
`
Info: 

`uname -r

5.4.0-54-generic
`
`lspci | grep VGA

01:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Curacao PRO [Radeon R7 370 / R9 270/370 OEM]
`
)LOG";

// /tmp/rev43d/logs/06.txt (verbatim), https://github.com/IamCreateAI/Ruyi-Models/issues/31
constexpr std::string_view kReview43d1ArcNotCompiledLog = R"LOG(  *-display                 
       description: VGA compatible controller
       product: DG2 [Arc A770]
       vendor: Intel Corporation
       physical id: 0
       bus info: pci@0000:03:00.0
       logical name: /dev/fb0
       version: 08
       width: 64 bits
       clock: 33MHz
       capabilities: pciexpress msi pm vga_controller bus_master cap_list rom fb
       configuration: depth=32 driver=i915 latency=0 resolution=1920,1080
       resources: iomemory:400-3ff irq:159 memory:81000000-81ffffff memory:4000000000-43ffffffff memory:82000000-821fffff

Ruyi_I2VSampler
Torch not compiled with CUDA enabled

# ComfyUI Error Report
## Error Details
- **Node ID:** 19
- **Node Type:** Ruyi_I2VSampler
- **Exception Type:** AssertionError
- **Exception Message:** Torch not compiled with CUDA enabled
## Stack Trace
```
  File "/home/junwei161/ComfyUI/execution.py", line 327, in execute
    output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)
)LOG";

// /tmp/rev43d/logs/08.txt (verbatim), https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/3031
constexpr std::string_view kReview43d1A1111WindowsLog = R"LOG(C:\Users\erich\git\stable-diffusion-webui>webui-user.bat
venv "C:\Users\erich\git\stable-diffusion-webui\venv\Scripts\Python.exe"
Python 3.10.8 (tags/v3.10.8:aaaf517, Oct 11 2022, 16:50:30) [MSC v.1933 64 bit (AMD64)]
Commit hash: ab3f997c0c4a1423a82623ae1d4d3c66005bb8da
Traceback (most recent call last):
  File "C:\Users\erich\git\stable-diffusion-webui\launch.py", line 180, in <module>
    prepare_enviroment()
  File "C:\Users\erich\git\stable-diffusion-webui\launch.py", line 133, in prepare_enviroment
    run_python("import torch; assert torch.cuda.is_available(), 'Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check'")
  File "C:\Users\erich\git\stable-diffusion-webui\launch.py", line 57, in run_python
    return run(f'"{python}" -c "{code}"', desc, errdesc)
  File "C:\Users\erich\git\stable-diffusion-webui\launch.py", line 33, in run
    raise RuntimeError(message)
)LOG";

// /tmp/rev43d/logs/09.txt (verbatim), https://github.com/pytorch/pytorch/issues/77764 (comment by DDDOH)
constexpr std::string_view kReview43d1MpsFallbackLog =
    R"LOG(-/Users/shuffleofficial/opt/anaconda3/envs/future_rl/lib/python3.10/site-packages/torch/distributions/lowrank_multivariate_normal.py:21: UserWarning: The operator 'aten::linalg_cholesky_ex.L' is not currently supported on the MPS backend and will fall back to run on the CPU. This may have performance implications. (Triggered internally at /Users/runner/work/_temp/anaconda/conda-bld/pytorch_1664521725947/work/aten/src/ATen/mps/MPSFallback.mm:11.)
  return torch.linalg.cholesky(K)
)LOG";

// /tmp/rev43d/logs/11.txt (verbatim), https://github.com/etched-ai/open-oasis/issues/27
constexpr std::string_view kReview43d1TorchHipLog = R"LOG(Traceback (most recent call last):                
  File "/home/arch/Desktop/open-oasis/generate.py", line 70, in <module>                            
    x = vae.encode(x * 2 - 1).mean * scaling_factor                                                 
                   ~~^~~                          
RuntimeError: HIP error: invalid device function  
HIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.                                
For debugging consider passing AMD_SERIALIZE_KERNEL=3                                               
Compile with `TORCH_USE_HIP_DSA` to enable device-side assertions.
)LOG";

// /tmp/rev43d/logs/12.txt (verbatim), https://github.com/NVIDIA/k8s-device-plugin/issues/812
constexpr std::string_view kReview43d1NoNvidiaDriverLog =
    R"LOG(RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx
)LOG";

// /tmp/rev43d/logs/15.txt (verbatim), https://github.com/lllyasviel/Fooocus/issues/1139
constexpr std::string_view kReview43d1MpsOomLog =
    R"LOG(RuntimeError: MPS backend out of memory (MPS allocated: 8.89 GB, other allocations: 172.98 MB, max allowed: 9.07 GB). Tried to allocate 6.25 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).
Total time: 129.38 seconds
)LOG";

TEST(ExplainReview43D1, NotCompiledWithCudaOnAMacIsNoCudaOnMacs) {
  const auto r = explain_no_facts(kReview43d1MacNotCompiledLog);
  ASSERT_TRUE(leads_without(r, "torch-not-compiled-with-cuda/macos", {"torch-not-compiled-with-cuda"})) << told(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"mps", "torch.cuda.is_available()", "PYTORCH_ENABLE_MPS_FALLBACK=1"}))
      << r.matches.front().fix;
  EXPECT_FALSE(mentions(told(r), "whl/cu")) << told(r);
}

TEST(ExplainReview43D1, NotCompiledWithCudaOnAnIntelArcIsTheXpuDevice) {
  const auto r = explain_no_facts(kReview43d1ArcNotCompiledLog);
  ASSERT_TRUE(leads_without(r, "torch-not-compiled-with-cuda/xpu", {"torch-not-compiled-with-cuda"})) << told(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"xpu", "torch.xpu.is_available()"})) << r.matches.front().fix;
  EXPECT_FALSE(mentions(told(r), "whl/cu")) << told(r);
}

TEST(ExplainReview43D1, NotCompiledWithCudaOnAnAmdMachineIsTheRocmBuild) {
  const auto r = explain_no_facts(
      "Unable to open /dev/kfd read-write: Permission denied\n"
      "AssertionError: Torch not compiled with CUDA enabled\n");
  ASSERT_TRUE(leads_without(r, "torch-not-compiled-with-cuda/rocm", {"torch-not-compiled-with-cuda"})) << told(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "whl/rocm")) << r.matches.front().fix;
}

TEST(ExplainReview43D1, NearMissNotCompiledWithCudaOnLinuxOrWindowsKeepsTheCudaBuild) {
  // A Linux traceback, a Windows one, a CUDA build's collect_env ("ROCM ... N/A") and a laptop's
  // integrated Arc (no model number): no other vendor's GPU is shown, the CPU build is the answer.
  for (const char* log : {
           "  File \"/home/me/app/venv/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 239, in _lazy_init\n"
           "AssertionError: Torch not compiled with CUDA enabled\n",
           "  File \"C:\\Users\\me\\ComfyUI\\venv\\lib\\site-packages\\torch\\cuda\\__init__.py\", line 239, in "
           "_lazy_init\n"
           "AssertionError: Torch not compiled with CUDA enabled\n",
           "ROCM used to build PyTorch: N/A\nAssertionError: Torch not compiled with CUDA enabled\n",
           "GPU 0: Intel(R) Arc(TM) Graphics\nGPU 1: NVIDIA GeForce RTX 4060 Laptop GPU\n"
           "AssertionError: Torch not compiled with CUDA enabled\n",
       }) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "torch-not-compiled-with-cuda")) << log << told(r);
    EXPECT_TRUE(mentions(r.matches.front().fix, "whl/cu126")) << r.matches.front().fix;
    EXPECT_EQ(find_rule(r, "torch-not-compiled-with-cuda/xpu"), nullptr) << log << rule_list(r);
    EXPECT_EQ(find_rule(r, "torch-not-compiled-with-cuda/rocm"), nullptr) << log << rule_list(r);
    EXPECT_EQ(find_rule(r, "torch-not-compiled-with-cuda/macos"), nullptr) << log << rule_list(r);
  }
}

TEST(ExplainReview43D1, MpsMessagesMarkTheLogAsAMacs) {
  // PyTorch's MPS backend exists only on macOS: its messages make the log a Mac's without a /Users path.
  for (const char* mps : {
           "RuntimeError: MPS backend out of memory (MPS allocated: 1.73 GB, other allocations: 4.95 GB, max allowed: "
           "6.80 GB). Tried to allocate 4.00 MB on private pool.\n",
           "(Triggered internally at /private/var/tmp/pytorch/aten/src/ATen/mps/MPSFallback.mm:13.)\n",
       }) {
    const auto r = explain_no_facts(std::string(mps) + "AssertionError: Torch not compiled with CUDA enabled\n");
    EXPECT_NE(find_rule(r, "torch-not-compiled-with-cuda/macos"), nullptr) << mps << rule_list(r);
    EXPECT_EQ(find_rule(r, "torch-not-compiled-with-cuda"), nullptr) << mps << rule_list(r);
  }
  // NVIDIA's Multi-Process Service is "MPS" too, and no Mac.
  const auto nv = explain_no_facts(
      "cudaErrorMpsConnectionFailed: MPS client failed to connect to the MPS control daemon or the MPS server\n"
      "AssertionError: Torch not compiled with CUDA enabled\n");
  EXPECT_NE(find_rule(nv, "torch-not-compiled-with-cuda"), nullptr) << rule_list(nv);
}

TEST(ExplainReview43D1, HipInvalidDeviceFunctionInRocalutionIsTheGfxTargetNotCuda) {
  const auto r = explain_no_facts(kReview43d1RocalutionLog);
  ASSERT_TRUE(leads_without(r, "hip-no-code-object", {"no-kernel-image"})) << told(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"rocminfo | grep gfx", "HSA_OVERRIDE_GFX_VERSION=10.3.0", "gfx1031",
                                               "HSA_OVERRIDE_GFX_VERSION=11.0.0"}))
      << r.matches.front().fix;
  EXPECT_FALSE(mentions(told(r), "whl/cu128")) << told(r);
  EXPECT_FALSE(mentions(told(r), "jax[cuda12]")) << told(r);
}

TEST(ExplainReview43D1, HipInvalidDeviceFunctionInPytorchIsTheGfxTargetNotCuda) {
  const auto r = explain_no_facts(kReview43d1TorchHipLog);
  ASSERT_TRUE(leads_without(r, "hip-no-code-object", {"no-kernel-image"})) << told(r);
  EXPECT_TRUE(
      says_all(r.matches.front().fix, {"HSA_OVERRIDE_GFX_VERSION=10.3.0", "gfx1032", "torch.cuda.get_arch_list()"}))
      << r.matches.front().fix;
  EXPECT_FALSE(mentions(told(r), "whl/cu1")) << told(r);
}

TEST(ExplainReview43D1, HipRuntimeAndRocblasFormsNameTheGfxTarget) {
  const auto nobin =
      explain_no_facts("\"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\"\n");
  ASSERT_TRUE(leads_with(nobin, "hip-no-code-object")) << told(nobin);
  const auto rocblas = explain_no_facts(
      "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : "
      "gfx1032\n");
  ASSERT_TRUE(leads_with(rocblas, "hip-no-code-object")) << told(rocblas);
  EXPECT_TRUE(mentions(rocblas.matches.front().cause, "(gfx1032)")) << rocblas.matches.front().cause;
}

TEST(ExplainReview43D1, NearMissCudaInvalidDeviceFunctionKeepsTheCudaAnswer) {
  const auto r = explain_no_facts(
      "RuntimeError: CUDA error: invalid device function\n"
      "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
      "incorrect.\n"
      "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n");
  ASSERT_TRUE(leads_with(r, "no-kernel-image")) << told(r);
  EXPECT_EQ(find_rule(r, "hip-no-code-object"), nullptr) << rule_list(r);
  EXPECT_FALSE(mentions(told(r), "HSA_OVERRIDE_GFX_VERSION")) << told(r);
}

TEST(ExplainReview43D1, KfdRefusingAnOldRadeonLeadsNotThePermissions) {
  const auto r = explain_no_facts(kReview43d1KfdPitcairnLog);
  ASSERT_TRUE(leads_with(r, "kfd-gpu-not-supported")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"PITCAIRN", "never supported", "group membership"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"Vulkan", "CPU"})) << lead.fix;
}

TEST(ExplainReview43D1, NearMissKfdGcIpIsANewerGpuThanTheKernel) {
  const auto gc = explain_no_facts("[    4.1] kfd kfd: amdgpu: GC IP 0b0004  not supported in kfd\n");
  ASSERT_TRUE(leads_with(gc, "kfd-gc-ip-not-supported")) << told(gc);
  EXPECT_TRUE(says_all(gc.matches.front().fix, {"newer kernel", "amdgpu-dkms"})) << gc.matches.front().fix;
  EXPECT_EQ(find_rule(gc, "kfd-gpu-not-supported"), nullptr) << rule_list(gc);
  // /dev/kfd refused without the kernel's line is not said to be an unsupported GPU.
  const auto perm = explain_no_facts("Unable to open /dev/kfd read-write: Permission denied\n");
  EXPECT_EQ(find_rule(perm, "kfd-gpu-not-supported"), nullptr) << rule_list(perm);
}

TEST(ExplainReview43D1, A1111CannotUseGpuOnWindowsNamesAmdsDirectmlFork) {
  const auto r = explain_no_facts(kReview43d1A1111WindowsLog);
  ASSERT_TRUE(leads_with(r, "a1111-torch-cannot-use-gpu")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.fix, {"--use-directml", "+cpu", "nvidia-smi", "--skip-torch-cuda-test"})) << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "webui.sh")) << lead.fix;  // the Linux part is left out
}

TEST(ExplainReview43D1, A1111CannotUseGpuOnLinuxOrRocmNamesTheRocmBuild) {
  // On Linux (`--platform linux`; the text alone leaves both platforms' parts, labelled).
  const auto linux_log = explain_on(
      Platform::linux,
      "  File \"/home/me/stable-diffusion-webui/modules/launch_utils.py\", line 386, in prepare_environment\n"
      "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable "
      "this "
      "check\n");
  ASSERT_TRUE(leads_with(linux_log, "a1111-torch-cannot-use-gpu")) << told(linux_log);
  EXPECT_TRUE(mentions(linux_log.matches.front().fix, "whl/rocm")) << linux_log.matches.front().fix;
  EXPECT_FALSE(mentions(linux_log.matches.front().fix, "--use-directml")) << linux_log.matches.front().fix;
  const auto rocm = explain_no_facts(
      "Successfully installed torch-2.3.1+rocm5.7\n"
      "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable "
      "this "
      "check\n");
  ASSERT_TRUE(leads_without(rocm, "a1111-torch-cannot-use-gpu/rocm", {"a1111-torch-cannot-use-gpu"})) << told(rocm);
  EXPECT_TRUE(mentions(rocm.matches.front().fix, "HSA_OVERRIDE_GFX_VERSION")) << rocm.matches.front().fix;
}

TEST(ExplainReview43D1, MpsCpuFallbackWarningIsHarmless) {
  const auto r = explain_no_facts(kReview43d1MpsFallbackLog);
  ASSERT_TRUE(leads_with(r, "mps-cpu-fallback-notice")) << told(r);
  EXPECT_TRUE(r.matches.front().harmless);
  EXPECT_EQ(problem_count(r), 0u) << told(r);
  EXPECT_TRUE(mentions(r.matches.front().cause, "aten::linalg_cholesky_ex.L")) << r.matches.front().cause;
}

TEST(ExplainReview43D1, NearMissMpsOperatorWithoutFallbackAndOtherBackendsFallback) {
  const auto err = explain_no_facts(
      "NotImplementedError: The operator 'aten::_linalg_solve_ex.result' is not currently implemented for the MPS "
      "device. If you want this op to be added in priority during the prototype phase of this feature, please comment "
      "on https://github.com/pytorch/pytorch/issues/77764.\n");
  ASSERT_TRUE(leads_with(err, "mps-op-not-implemented")) << told(err);
  EXPECT_FALSE(err.matches.front().harmless);
  EXPECT_TRUE(mentions(err.matches.front().fix, "PYTORCH_ENABLE_MPS_FALLBACK=1")) << err.matches.front().fix;
  EXPECT_EQ(find_rule(err, "mps-cpu-fallback-notice"), nullptr) << rule_list(err);
  const auto npu = explain_no_facts(
      "Warning: CAUTION: The operator 'aten::bitwise_left_shift.Tensor_out' is not currently supported on the NPU "
      "backend and will fall back to run on the CPU. This may have performance implications.\n");
  EXPECT_EQ(find_rule(npu, "mps-cpu-fallback-notice"), nullptr) << rule_list(npu);
}

TEST(ExplainReview43D1, MpsOutOfMemoryIsTheMpsCapNotCuda) {
  const auto r = explain_no_facts(kReview43d1MpsOomLog);
  ASSERT_TRUE(leads_with(r, "mps-out-of-memory")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"9.07 GB", "8.89 GB", "unified memory"})) << lead.cause;
  EXPECT_TRUE(mentions(lead.fix, "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0")) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "PYTORCH_CUDA_ALLOC_CONF")) << told(r);
  // Near miss: CUDA's out-of-memory is not the MPS cap.
  const auto cuda = explain_no_facts(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 7.79 GiB "
      "of which 3.44 MiB is free.\n");
  EXPECT_EQ(find_rule(cuda, "mps-out-of-memory"), nullptr) << rule_list(cuda);
}

TEST(ExplainReview43D1, NoNvidiaDriverListsAnotherVendorsGpu) {
  const auto r = explain_no_facts(kReview43d1NoNvidiaDriverLog);
  ASSERT_TRUE(leads_with(r, "torch-no-nvidia-driver")) << told(r);
  const auto* other = find_rule(r, "torch-no-nvidia-driver/no-nvidia-gpu");
  ASSERT_NE(other, nullptr) << rule_list(r);
  EXPECT_TRUE(says_all(other->fix, {"whl/rocm", "/dev/kfd", "mps", "xpu"})) << other->fix;
}

TEST(ExplainReview43D1, NoNvidiaDriverOnAShownPlatformLeadsWithItsBuild) {
  const auto rocm = explain_no_facts(
      "ROCM used to build PyTorch: N/A\n"
      "  Name:                    gfx1100\n"
      "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
      "driver from http://www.nvidia.com/Download/index.aspx\n");
  ASSERT_TRUE(leads_without(rocm, "torch-no-nvidia-driver/rocm", {"torch-no-nvidia-driver"})) << told(rocm);
  const auto mac = explain_no_facts(
      "  File \"/Users/me/app/main.py\", line 3, in <module>\n"
      "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
      "driver from http://www.nvidia.com/Download/index.aspx\n");
  ASSERT_TRUE(leads_without(mac, "torch-no-nvidia-driver/macos", {"torch-no-nvidia-driver"})) << told(mac);
  const auto arc = explain_no_facts(
      "Intel(R) Arc(TM) A770 Graphics\n"
      "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
      "driver from http://www.nvidia.com/Download/index.aspx\n");
  ASSERT_TRUE(leads_without(arc, "torch-no-nvidia-driver/xpu", {"torch-no-nvidia-driver"})) << told(arc);
}

}  // namespace
}  // namespace gpudoctor
