// Libraries that train on PyTorch and refuse a setup in their own words (data/explain/
// training-libraries.toml: transformers' and accelerate's bf16/tf32 checks, DeepSpeed's op
// builder, apex without its extensions), PaddlePaddle's own checks (paddle.toml), ldd's
// "NAME => not found" and a compiled package's import failing on a versioned CUDA library
// (libraries.toml). Each test names what a neighbouring rule would otherwise have said.
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::among_first_three;
using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

TEST(ExplainTrainingLibraries, TrainerBf16OnAPreAmpereGpuIsTheArchitectureAndTheFixIsFp16) {
  ExplainReport r = explain_no_facts(
      "  File \"/databricks/python/lib/python3.9/site-packages/transformers/training_args.py\", line 1098, in "
      "__post_init__\n    raise ValueError(\nValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, "
      "using Ampere GPU with cuda>=11.0\n");
  ASSERT_TRUE(leads_with(r, "hf-trainer-bf16-needs-ampere"));
  EXPECT_EQ(r.matches.front().category, "gpu-arch-unsupported");
  EXPECT_TRUE(contains(r.matches.front().fix, "--fp16")) << r.matches.front().fix;
  // transformers 4.57+ on a machine where PyTorch sees no GPU prints only the first sentence:
  // the GPU's generation is not the question then.
  r = explain_no_facts("ValueError: Your setup doesn't support bf16/gpu.\n");
  ASSERT_TRUE(leads_with(r, "hf-trainer-bf16-no-cuda-device"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_EQ(find_rule(r, "hf-trainer-bf16-needs-ampere"), nullptr);
  // Accelerate's own check and ptxas refusing bf16 for an older target are the same problem.
  EXPECT_EQ(explain_no_facts("ValueError: bf16 mixed precision requires PyTorch >= 1.10 and a supported device.")
                .matches.front()
                .category,
            "gpu-arch-unsupported");
  r = explain_no_facts("ptxas /tmp/tmpabc.ptx, line 97; error   : Feature '.bf16' requires .target sm_80 or higher");
  ASSERT_TRUE(leads_with(r, "ptxas-feature-needs-newer-sm"));
  EXPECT_TRUE(contains(r.matches.front().cause, "sm_80")) << r.matches.front().cause;
}

TEST(ExplainTrainingLibraries, DeepSpeedRefusesAnotherCudaMajorAndAcceptsAnotherMinor) {
  ExplainReport r = explain_no_facts(
      "Exception: >- DeepSpeed Op Builder: Installed CUDA version 12.1 does not match the version torch was compiled "
      "with 11.8, unable to compile cuda/cpp extensions without a matching cuda version.\n");
  ASSERT_TRUE(leads_with(r, "deepspeed-op-builder-cuda-mismatch"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_TRUE(contains(r.matches.front().cause, "12.1")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().cause, "11.8")) << r.matches.front().cause;
  // The same versions within one major: DeepSpeed goes on, and so does the answer (harmless).
  r = explain_no_facts(
      "Installed CUDA version 12.4 does not match the version torch was compiled with 12.1 but since the APIs are "
      "compatible, accepting this combination\n");
  ASSERT_TRUE(leads_with(r, "deepspeed-cuda-minor-mismatch-accepted"));
  EXPECT_TRUE(r.matches.front().harmless);
  EXPECT_EQ(find_rule(r, "deepspeed-op-builder-cuda-mismatch"), nullptr);
  // Ops built at install time for another PyTorch.
  r = explain_no_facts(
      "RuntimeError: PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different version than "
      "what is being used at runtime. Please re-install DeepSpeed or switch torch versions. Install torch version=2.0, "
      "Runtime torch version=2.1\n");
  ASSERT_TRUE(leads_with(r, "deepspeed-prebuilt-ops-mismatch"));
  EXPECT_TRUE(contains(r.matches.front().cause, "2.1")) << r.matches.front().cause;
}

TEST(ExplainTrainingLibraries, ApexWithoutItsExtensionsIsNamedByItsModulesOnly) {
  ExplainReport r = explain_no_facts(
      "        fused_layer_norm_cuda = importlib.import_module(\"fused_layer_norm_cuda\")\n"
      "ModuleNotFoundError: No module named 'fused_layer_norm_cuda'\n");
  ASSERT_TRUE(leads_with(r, "apex-cuda-extensions-missing"));
  EXPECT_TRUE(contains(r.matches.front().fix, "APEX_CUDA_EXT=1")) << r.matches.front().fix;
  // A module of that name's prefix, or any other missing module, is not apex's.
  EXPECT_EQ(
      find_rule(explain_no_facts("ModuleNotFoundError: No module named 'amp_Cx'"), "apex-cuda-extensions-missing"),
      nullptr);
  EXPECT_EQ(find_rule(explain_no_facts("ModuleNotFoundError: No module named 'torch'"), "apex-cuda-extensions-missing"),
            nullptr);
  // apex's own warning names the flags and says it falls back: one answer, the warning's.
  r = explain_no_facts(
      "Warning:  multi_tensor_applier fused unscale kernel is unavailable, possibly because apex was installed "
      "without --cuda_ext --cpp_ext. Using Python fallback.  Original ImportError was: ModuleNotFoundError(\"No "
      "module named 'amp_C'\")\n");
  ASSERT_TRUE(leads_with(r, "apex-python-fallback-warning"));
  EXPECT_EQ(find_rule(r, "apex-cuda-extensions-missing"), nullptr);
}

TEST(ExplainTrainingLibraries, PaddlesOwnVersionChecksAndItsOutOfMemory) {
  ExplainReport r =
      explain_no_facts("The installed Paddle is compiled with CUDNN 8.2, but CUDNN version in your machine is 8.1\n");
  ASSERT_TRUE(leads_with(r, "paddle-cudnn-older-than-build"));
  EXPECT_EQ(r.matches.front().category, "cudnn-version-mismatch");
  EXPECT_TRUE(contains(r.matches.front().cause, "8.2")) << r.matches.front().cause;
  r = explain_no_facts(
      "InvalidArgumentError: The installed Paddle is compiled with CUDA12/cuDNN9,but CUDA/cuDNN version in your "
      "machine is CUDA11/cuDNN8. which will cause serious incompatible bug.\n");
  ASSERT_TRUE(leads_with(r, "paddle-cuda-cudnn-major-older"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  r = explain_no_facts(
      "0223 18:59:36.058634 11348 operator.cc:179] lookup_table raises an exception "
      "paddle::memory::allocation::BadAlloc, \n\nOut of memory error on GPU 0. Cannot allocate 6.933594GB memory on "
      "GPU 0, available memory is only 726.750000MB.\n");
  ASSERT_TRUE(leads_with(r, "paddle-gpu-oom"));
  EXPECT_EQ(r.matches.front().category, "out-of-memory");
  EXPECT_TRUE(contains(r.matches.front().cause, "6.933594GB")) << r.matches.front().cause;
}

TEST(ExplainTrainingLibraries, LddNotFoundLinesAreAnsweredByTheLibrarysKind) {
  const struct {
    const char* line;
    const char* rule;
    const char* category;
  } cases[] = {
      {"\tlibcudart.so.10.0 => not found", "ldd-cuda-lib-not-found", "cuda-lib-missing"},
      {"\tlibcudnn.so.8 => not found", "ldd-cudnn-not-found", "cudnn-missing"},
      {"\tlibcuda.so.1 => not found", "ldd-driver-lib-not-found", "driver-missing"},
      {"\tlibnccl.so.2 => not found", "ldd-nccl-not-found", "multi-gpu/nccl"},
  };
  for (const auto& c : cases) {
    const ExplainReport r = explain_no_facts(std::string("\tlinux-vdso.so.1 (0x00007ffd)\n") + c.line + "\n");
    ASSERT_TRUE(leads_with(r, c.rule)) << c.line;
    EXPECT_EQ(r.matches.front().category, c.category) << c.line;
  }
  // Another library ldd cannot find is none of these.
  const ExplainReport other = explain_no_facts("\tlibpng16.so.16 => not found\n");
  for (const auto& m : other.matches) EXPECT_NE(m.rule.rfind("ldd-", 0), 0u) << m.rule;
}

TEST(ExplainTrainingLibraries, AnImportFailingOnAVersionedCudaLibraryIsABuildForAnotherCudaFirst) {
  // The name comes from the compiled package's own DT_NEEDED entry: built for CUDA 10.2.
  ExplainReport r = explain_no_facts(
      "ImportError: libcudart.so.10.2: cannot open shared object file: No such file or directory\n"
      "----> 1 from mmseg.apis import inference_segmentor, init_segmentor, show_result_pyplot\n");
  ASSERT_TRUE(leads_with(r, "python-import-cuda-lib-version-missing"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  // The other causes stay, from the library rules: no toolkit of that version at all.
  EXPECT_TRUE(among_first_three(r, "toolkit-missing"));
  // TensorFlow's own loader line is its dso_loader's answer, not this one.
  r = explain_no_facts(
      "W tensorflow/stream_executor/platform/default/dso_loader.cc:59] Could not load dynamic library "
      "'libcudart.so.10.1'; dlerror: libcudart.so.10.1: cannot open shared object file: No such file or directory\n");
  EXPECT_EQ(find_rule(r, "python-import-cuda-lib-version-missing"), nullptr);
}

// Lightning's device checks (fabric/utilities/device_parser.py, accelerator_connector.py): no
// GPU visible at all is PyTorch's build first; GPUs visible but not the ones asked for is the
// visible-device set, never the build.
TEST(ExplainTrainingLibraries, LightningNoGpuIsTheBuildAndAWrongIndexIsTheVisibleSet) {
  ExplainReport r = explain_no_facts(
      "  File \"/home/u/envs/ln2/lib/python3.7/site-packages/pytorch_lightning/trainer/distrib_parts.py\", line 533, "
      "in sanitize_gpu_ids\n    raise MisconfigurationException(message)\n"
      "pytorch_lightning.utilities.debugging.MisconfigurationException: \n"
      "            You requested GPUs: [0]\n"
      "            But your machine only has: []\n");
  ASSERT_TRUE(leads_with(r, "lightning-requested-gpus-none-visible"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_TRUE(among_first_three(r, "path-or-env-misconfigured"));
  r = explain_no_facts(
      "lightning_fabric.utilities.exceptions.MisconfigurationException: You requested gpu: [0, 1, 2, 3]\n"
      " But your machine only has: [0]\n");
  ASSERT_TRUE(leads_with(r, "lightning-requested-gpus-not-visible"));
  EXPECT_EQ(r.matches.front().category, "path-or-env-misconfigured");
  EXPECT_EQ(find_rule(r, "lightning-requested-gpus-none-visible"), nullptr);
  for (const char* line : {
           "lightning_fabric.utilities.exceptions.MisconfigurationException: `CUDAAccelerator` can not run on your "
           "system since the accelerator is not available. The following accelerator(s) is available and can be "
           "passed into `accelerator` argument of `Trainer`: ['cpu'].",
           "lightning.fabric.utilities.exceptions.MisconfigurationException: No supported gpu backend found!",
       }) {
    r = explain_no_facts(std::string(line) + "\n");
    ASSERT_TRUE(leads_with(r, "lightning-cuda-accelerator-unavailable")) << line;
    EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  }
  // Apple's MPS accelerator missing is a Mac question, not a CUDA one.
  r = explain_no_facts(
      "MisconfigurationException: `MPSAccelerator` can not run on your system since the accelerator is not "
      "available. The following accelerator(s) is available and can be passed into `accelerator` argument of "
      "`Trainer`: ['cpu', 'cuda'].\n");
  EXPECT_EQ(find_rule(r, "lightning-cuda-accelerator-unavailable"), nullptr);
}

TEST(ExplainTrainingLibraries, UnslothWithoutAGpuIsTheTorchBuildFirst) {
  const ExplainReport r = explain_no_facts(
      "    raise NotImplementedError(\"Unsloth: No NVIDIA GPU found? Unsloth currently only supports GPUs!\")\n"
      "NotImplementedError: Unsloth: No NVIDIA GPU found? Unsloth currently only supports GPUs!\n");
  ASSERT_TRUE(leads_with(r, "unsloth-no-gpu"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
}

// torch/cuda/__init__.py's driver check prints six lines; a paste often keeps only the tail.
TEST(ExplainTrainingLibraries, TheTailOfPyTorchsDriverTooOldMessageIsStillThatMessage) {
  const ExplainReport r = explain_no_facts(
      "    Please update your GPU driver by downloading and installing a new\n"
      "    version from the URL: http://www.nvidia.com/Download/index.aspx\n"
      "    Alternatively, go to: https://pytorch.org to install\n"
      "    a PyTorch version that has been compiled with your version\n"
      "    of the CUDA driver.\n"
      "    ----------------------------------------\n");
  ASSERT_TRUE(leads_with(r, "driver-too-old-torch"));
  EXPECT_EQ(r.matches.front().category, "driver-too-old");
  // "Found no NVIDIA driver" names the same download page and is another answer.
  EXPECT_EQ(find_rule(explain_no_facts("RuntimeError: Found no NVIDIA driver on your system. Please check that you "
                                       "have an NVIDIA GPU and installed a driver from "
                                       "http://www.nvidia.com/Download/index.aspx\n"),
                      "driver-too-old-torch"),
            nullptr);
}

}  // namespace
}  // namespace gpudoctor
