// Unseen logs, session 38 review (A): TensorFlow's and JAX's "cuDNN did not initialise" family, the
// TensorFlow releases that load NVIDIA's pip wheels, ptxas for a GPU its CUDA dropped, and jaxlib
// 0.4.26's compute-capability check. Each test has the reviewer's log (or probe), a variant in the
// source's own format, and a near miss that keeps its old answer.
//
// Where the messages come from (read in the released wheels and the sources):
// - StreamExecutor returns "DNN library is not found." (GetConvolveRunners) and "Fail to find the dnn
//   implementation." (createRnnDescriptor) when AsDnn() is null, i.e. CudnnSupport::Init failed
//   earlier: TensorFlow 2.4.0 to 2.15.0 wheels and jaxlib carry both strings. "Failed to get
//   convolution algorithm. This is probably because cuDNN failed to initialize" is in the TF 2.4.0
//   and 2.5.0 wheels, not in 2.10.1.
// - CudnnSupport::Init logs "Could not create cudnn handle: STATUS" and, for NOT_INITIALIZED only,
//   "Possibly insufficient driver version: <the installed driver>" (a hint, no comparison), or
//   "Loaded runtime CuDNN library: X but source was compiled with: Y" when the versions differ.
// - __FILE__ prefixes in the wheels: tensorflow/stream_executor/ in 2.10.1 (and older),
//   tensorflow/compiler/xla/stream_executor/ in 2.11.0, 2.13.1 and 2.14.0,
//   external/local_xla/xla/stream_executor/ in 2.15.0. The `and-cuda` extra and the
//   $ORIGIN/../nvidia/*/lib RUNPATH appear in 2.14.0 (cu11 wheels), not in 2.13.1.
#include <gtest/gtest.h>

#include <string>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::mentions;
using testing::problem_count;
using testing::rule_list;
using testing::says_all;
using testing::told;

/// JAX's own install advice (or a JAX title) in a TensorFlow answer.
bool review38a_names_jax(const std::string& text) {
  return mentions(text, "jaxlib") || mentions(text, "jax[") || mentions(text, "JAX/XLA");
}

// Log 03 (edwardyehuang/CAR#1): TF 2.8 in a conda env loads cuDNN 8.0.4, built with 8.1.0. The
// path prefix tensorflow/stream_executor/ is TensorFlow 2.10 or older, which does not load pip's
// nvidia-cudnn wheels and has no [and-cuda] extra; the env is conda's.
const char* const kReview38aLog03 =
    "2022-05-05 10:32:59.413482: I tensorflow/core/kernels/data/shuffle_dataset_op.cc:415] Shuffle buffer filled.\n"
    "2022-05-05 10:33:01.127918: E tensorflow/stream_executor/cuda/cuda_dnn.cc:361] Loaded runtime CuDNN library: "
    "8.0.4 but source was compiled with: 8.1.0.  CuDNN library needs to have matching major version and equal or "
    "higher minor version. If using a binary install, upgrade your CuDNN library.  If building from sources, make "
    "sure the library loaded at runtime is compatible with the version specified during compile configuration.\n"
    "2022-05-05 10:33:01.148738: W tensorflow/core/framework/op_kernel.cc:1745] OP_REQUIRES failed at "
    "conv_ops.cc:1120 : UNIMPLEMENTED: DNN library is not found.\n"
    "Traceback (most recent call last):\n"
    "  File \"train.py\", line 66, in <module>\n"
    "    app.run(train)\n"
    "  File \"/home/CN/zizhang.wu/anaconda3/envs/jlcar/lib/python3.8/site-packages/absl/app.py\", line 312, in run\n"
    "  File \"/home/CN/zizhang.wu/anaconda3/envs/jlcar/lib/python3.8/site-packages/tensorflow/python/eager/"
    "execute.py\", line 54, in quick_execute\n"
    "tensorflow.python.framework.errors_impl.UnimplementedError: Graph execution error:\n"
    "\n"
    "Node: 'seg_managed/resnet50/conv1_1_conv/Conv2D'\n"
    "2 root error(s) found.\n"
    "  (0) UNIMPLEMENTED:  DNN library is not found.\n"
    "\t [[{{node seg_managed/resnet50/conv1_1_conv/Conv2D}}]]\n"
    "  (1) UNIMPLEMENTED:  DNN library is not found.\n"
    "\t [[{{node seg_managed/resnet50/conv1_1_conv/Conv2D}}]]\n"
    "0 successful operations.\n";

TEST(ExplainReview38A, OldTensorflowInACondaEnvGetsCondasCudnnNotPipWheels) {
  const auto r = explain_no_facts(kReview38aLog03);
  ASSERT_TRUE(leads_with(r, "cudnn-runtime-older-than-build/conda")) << rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(says_all(m.fix, {"conda install -c conda-forge cudnn=8.1", "$CONDA_PREFIX/lib"}));
  const std::string all = told(r);
  EXPECT_FALSE(mentions(all, "nvidia-cudnn-cu12")) << all;
  EXPECT_FALSE(mentions(all, "tensorflow[and-cuda]")) << all;
  EXPECT_FALSE(review38a_names_jax(all)) << all;
  // "DNN library is not found" is what the refused cuDNN leads to: one problem, not two.
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
  EXPECT_EQ(find_rule(r, "dnn-library-not-found"), nullptr) << rule_list(r);

  // The same TF 2.10-or-older line in a virtualenv: the system's cuDNN, not pip's wheel.
  const auto venv = explain_no_facts(
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:361] Loaded runtime CuDNN library: 8.0.4 but source was "
      "compiled with: 8.1.0.  CuDNN library needs to have matching major version and equal or higher minor "
      "version.\n"
      "  File \"/home/u/venv/lib/python3.8/site-packages/tensorflow/python/eager/execute.py\", line 54\n");
  ASSERT_TRUE(leads_with(venv, "cudnn-runtime-older-than-build/system")) << rule_list(venv);
  EXPECT_TRUE(mentions(venv.matches.front().fix, "LD_LIBRARY_PATH")) << venv.matches.front().fix;
  EXPECT_TRUE(mentions(venv.matches.front().cause, "before 2.14")) << venv.matches.front().cause;
  EXPECT_FALSE(mentions(told(venv), "nvidia-cudnn-cu12")) << told(venv);
  EXPECT_FALSE(mentions(told(venv), "tensorflow[and-cuda]")) << told(venv);
  // pip named the release: 2.8.0 is before 2.14 whatever the path says.
  const auto pinned = explain_no_facts(
      "Successfully installed tensorflow-2.8.0\n"
      "Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.  CuDNN library needs to have "
      "matching major version and equal or higher minor version.\n");
  ASSERT_TRUE(leads_with(pinned, "cudnn-runtime-older-than-build/system")) << rule_list(pinned);

  // Near misses: TensorFlow 2.15's path (external/local_xla) and JAX's XLA keep the pip wheel.
  for (const char* line :
       {"E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:447] Loaded runtime CuDNN library: 8.6.0 but "
        "source was compiled with: 8.9.4.  CuDNN library needs to have matching major version and equal or higher "
        "minor version.",
        "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:447] Loaded runtime CuDNN library: 8.6.0 but source "
        "was compiled with: 8.9.4.  CuDNN library needs to have matching major version and equal or higher minor "
        "version."}) {
    const auto r2 = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r2, "cudnn-runtime-older-than-build")) << line << "\n" << rule_list(r2);
    EXPECT_TRUE(mentions(r2.matches.front().fix, "nvidia-cudnn-cu12==8.*")) << r2.matches.front().fix;
    EXPECT_EQ(find_rule(r2, "cudnn-runtime-older-than-build/system"), nullptr) << rule_list(r2);
  }
}

// Logs 04 and 31 (googlecolab/colabtools#2818, #3012/#3013/#3015) and probe p13: StreamExecutor's
// "DNN library is not found." in TensorFlow is no JAX message and needs no jaxlib advice.
TEST(ExplainReview38A, DnnLibraryNotFoundIsCudnnNotInitialisingInTheFrameworkThatSaysSo) {
  const std::string log04 =
      "Node: 'ssd_mobile_net_v2_fpn_keras_feature_extractor/model/Conv1/Conv2D'\n"
      "DNN library is not found.\n"
      "\t [[{{node ssd_mobile_net_v2_fpn_keras_feature_extractor/model/Conv1/Conv2D}}]] "
      "[Op:__inference__dummy_computation_fn_15089]\n";
  const std::string p13 =
      "2022-05-05 10:33:01.148738: W tensorflow/core/framework/op_kernel.cc:1745] OP_REQUIRES failed at "
      "conv_ops.cc:1120 : UNIMPLEMENTED: DNN library is not found.\n";
  for (const std::string& log : {log04, p13}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "dnn-library-not-found/tensorflow")) << log << rule_list(r);
    const ExplainMatch& m = r.matches.front();
    EXPECT_FALSE(mentions(m.title, "JAX")) << m.title;
    EXPECT_FALSE(review38a_names_jax(told(r))) << told(r);
    EXPECT_TRUE(mentions(m.fix, "TF_FORCE_GPU_ALLOW_GROWTH=true")) << m.fix;
    EXPECT_NE(find_rule(r, "dnn-library-not-found/cudnn-mismatch"), nullptr) << rule_list(r);
  }
  // Log 31 (colabtools#3013): TensorFlow comes preinstalled on Colab; the Colab team's workarounds
  // were the preinstalled TF or pinning libcudnn8. Colab's own files say so (google.colab,
  // colab_kernel_launcher, /content); a kernel or Keras under /usr/local/lib/python3.X/dist-packages
  // does not: every root pip install on Debian/Ubuntu (TensorFlow's Docker images, `sudo pip`) has
  // those paths (session 38 re-read), and such a user must not be told "don't pip-install on Colab".
  const std::string error31 =
      "Node: 'cnn4_2/Conv1D00-f128-ks20/Conv1D'\n"
      "DNN library is not found.\n"
      "\t [[{{node cnn4_2/Conv1D00-f128-ks20/Conv1D}}]] [Op:__inference_train_function_2933]\n";
  for (const std::string& frame :
       {std::string("  File \"/usr/local/lib/python3.10/dist-packages/google/colab/_shell.py\", line 1, in run\n"),
        std::string("  File \"/content/drive/MyDrive/train.py\", line 12, in <module>\n")}) {
    const auto colab = explain_no_facts(frame + error31);
    ASSERT_TRUE(leads_with(colab, "dnn-library-not-found/colab")) << frame << rule_list(colab);
    EXPECT_EQ(colab.matches.front().category, "cudnn-version-mismatch");
    EXPECT_TRUE(says_all(colab.matches.front().fix, {"libcudnn8", "preinstalled"}));
    EXPECT_FALSE(mentions(told(colab), "tensorflow[and-cuda]")) << told(colab);
  }
  for (const std::string& frame :
       {std::string("    File \"/usr/local/lib/python3.7/dist-packages/ipykernel_launcher.py\", line 16, in "
                    "<module>\n      app.launch_new_instance()\n"),
        std::string("    File \"/usr/local/lib/python3.7/dist-packages/keras/layers/convolutional/base_conv.py\", "
                    "line 232, in convolution_op\n")}) {
    const auto image = explain_no_facts(frame + error31);
    EXPECT_EQ(find_rule(image, "dnn-library-not-found/colab"), nullptr) << frame << rule_list(image);
    EXPECT_FALSE(mentions(told(image), "on Colab")) << told(image);
  }
  // A user's own venv (site-packages) is no Colab.
  const auto venv = explain_no_facts(
      "  File \"/home/u/venv/lib/python3.10/site-packages/keras/engine/training.py\", line 1, in fit\n" + error31);
  ASSERT_TRUE(leads_with(venv, "dnn-library-not-found/tensorflow")) << rule_list(venv);

  // XLA's autotuner with nothing else to tell the framework: both frameworks' memory advice.
  const auto neutral = explain_no_facts(
      "Failed to determine best cudnn convolution algorithm for:\n"
      "Original error: UNIMPLEMENTED: DNN library is not found.\n");
  ASSERT_TRUE(leads_with(neutral, "dnn-library-not-found")) << rule_list(neutral);
  EXPECT_TRUE(mentions(neutral.matches.front().fix, "XLA_PYTHON_CLIENT_PREALLOCATE=false")) << told(neutral);
  EXPECT_TRUE(mentions(neutral.matches.front().fix, "TF_FORCE_GPU_ALLOW_GROWTH=true")) << told(neutral);
  EXPECT_EQ(find_rule(neutral, "dnn-library-not-found/tensorflow"), nullptr) << rule_list(neutral);
  EXPECT_EQ(find_rule(neutral, "dnn-library-not-found/jax"), nullptr) << rule_list(neutral);

  // JAX's own lines keep JAX's answer: XLA's autotuner and jaxlib's exception.
  for (const char* log :
       {"jaxlib.xla_extension.XlaRuntimeError: UNIMPLEMENTED: DNN library is not found.\n",
        "RuntimeError: Unimplemented: DNN library is not found.: while running replica 0 and partition 0 of a "
        "replicated computation (other replicas may have failed as well).\n"}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "dnn-library-not-found/jax")) << log << rule_list(r);
    EXPECT_TRUE(mentions(r.matches.front().fix, "jax[cuda12]")) << r.matches.front().fix;
    EXPECT_FALSE(mentions(told(r), "set_memory_growth")) << told(r);
  }
}

// Log 30 (tensorflow/tensorflow#57198): the LSTM's cuDNN kernel fails the same way as a
// convolution; it is no "convolution algorithm" failure.
TEST(ExplainReview38A, CudnnRnnFailToFindTheDnnImplementationIsTheSameFamily) {
  const auto r = explain_no_facts(
      "UnknownError: Graph execution error:\n"
      "\n"
      "Fail to find the dnn implementation.\n"
      "\t [[{{node CudnnRNN}}]]\n"
      "\t [[model/bidirectional/forward_lstm/PartitionedCall]] [Op:__inference_train_function_17056]\n");
  ASSERT_TRUE(leads_with(r, "dnn-library-not-found/tensorflow")) << rule_list(r);
  EXPECT_FALSE(mentions(r.matches.front().title, "convolution")) << r.matches.front().title;
  EXPECT_EQ(find_rule(r, "tf-failed-convolution-algorithm"), nullptr) << rule_list(r);
  // With the pip line that replaced Colab's TensorFlow, the mismatch leads.
  const auto reinstalled = explain_no_facts(
      "!pip install tensorflow==2.9.1\n"
      "Successfully installed tensorflow-2.9.1\n"
      "Fail to find the dnn implementation.\n"
      "\t [[{{node CudnnRNN}}]]\n");
  ASSERT_TRUE(leads_with(reinstalled, "dnn-library-not-found/reinstalled")) << rule_list(reinstalled);
  EXPECT_EQ(reinstalled.matches.front().category, "cudnn-version-mismatch");
}

// Log 05 (googlecolab/colabtools#2578) and the corpus: "Failed to get convolution algorithm" (TF
// 2.4/2.5 wheels; conv_ops.cc) leads with memory unless the log shows why cuDNN would not fit.
TEST(ExplainReview38A, FailedToGetConvolutionAlgorithmLeadsWithMismatchOnlyWithEvidence) {
  const std::string line =
      "UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so "
      "try looking to see if a warning log message was printed above.\n";
  const auto bare = explain_no_facts(line);
  ASSERT_TRUE(leads_with(bare, "tf-failed-convolution-algorithm")) << rule_list(bare);
  EXPECT_EQ(bare.matches.front().category, "memory-growth/allocator");

  // `!pip install tensorflow-gpu` in the notebook: the installed release does not fit the cuDNN there.
  const auto pip = explain_no_facts("!pip install tensorflow-gpu\n" + line);
  ASSERT_TRUE(leads_with(pip, "tf-failed-convolution-algorithm/reinstalled")) << rule_list(pip);
  EXPECT_EQ(pip.matches.front().category, "cudnn-version-mismatch");
  EXPECT_TRUE(mentions(pip.matches.front().cause, "pip")) << pip.matches.front().cause;

  // The version line above it: one answer, the version line's (the convolution error is its result).
  const auto versions = explain_no_facts(
      "2021-12-14 13:30:57.846447: E tensorflow/stream_executor/cuda/cuda_dnn.cc:359] Loaded runtime CuDNN library: "
      "8.0.5 but source was compiled with: 8.1.0.  CuDNN library needs to have matching major version and equal or "
      "higher minor version.\n"
      "2021-12-14 13:30:57.847597: W tensorflow/core/framework/op_kernel.cc:1745] OP_REQUIRES failed at "
      "conv_ops.cc:1120 : UNKNOWN: Failed to get convolution algorithm. This is probably because cuDNN failed to "
      "initialize, so try looking to see if a warning log message was printed above.\n");
  ASSERT_FALSE(versions.matches.empty());
  EXPECT_EQ(versions.matches.front().category, "cudnn-version-mismatch") << rule_list(versions);
  EXPECT_EQ(problem_count(versions), 1u) << rule_list(versions);
  EXPECT_EQ(find_rule(versions, "tf-failed-convolution-algorithm"), nullptr) << rule_list(versions);
}

// Log 29 (DeepLabCut#1299): CUDNN_STATUS_NOT_INITIALIZED without a version line was TensorFlow's
// preallocation; allow_growth fixed it. A status that names a version mismatch keeps that reading.
TEST(ExplainReview38A, CudnnHandleNotInitializedIsMemoryFirstWithoutAVersionLine) {
  const auto r = explain_no_facts(
      "Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n"
      "CUDA 10.0.130\n"
      "GeForce RTX 2080 major: 7 minor: 5 memoryClockRate(GHz): 1.71\n");
  ASSERT_TRUE(leads_with(r, "dnn-initialization-failed")) << rule_list(r);
  EXPECT_EQ(r.matches.front().category, "memory-growth/allocator");
  EXPECT_TRUE(mentions(r.matches.front().fix, "TF_FORCE_GPU_ALLOW_GROWTH=true")) << r.matches.front().fix;
  EXPECT_NE(find_rule(r, "dnn-initialization-failed/cudnn-mismatch"), nullptr) << rule_list(r);

  const auto status = explain_no_facts("RuntimeError: cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH\n");
  ASSERT_FALSE(status.matches.empty());
  EXPECT_EQ(status.matches.front().category, "cudnn-version-mismatch") << rule_list(status);
}

// Probe p12 and the corpus: "Possibly insufficient driver version: N" is CudnnSupport::Init's
// (cuda_dnn.cc), logged after cudnnCreate returned NOT_INITIALIZED with the installed driver's
// version; it is no PTX-JIT message. Whether N is too old depends on the build's CUDA.
TEST(ExplainReview38A, PossiblyInsufficientDriverIsTheCudnnHandlesDriverNotPtx) {
  const auto p12 = explain_no_facts(
      "2024-02-12 20:36:44.949913: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:474] Could not create "
      "cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n"
      "2024-02-12 20:36:44.950107: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:488] Possibly insufficient "
      "driver version: 470.182.3\n");
  ASSERT_TRUE(leads_with(p12, "cudnn-handle-driver-older-than-cuda12")) << rule_list(p12);
  EXPECT_EQ(p12.matches.front().category, "driver-too-old");
  EXPECT_TRUE(mentions(p12.matches.front().cause, "525.60.13")) << p12.matches.front().cause;
  EXPECT_FALSE(mentions(told(p12), "PTX")) << told(p12);
  EXPECT_EQ(find_rule(p12, "xla-stale-driver"), nullptr) << rule_list(p12);

  // TensorFlow 1.11 with driver 390: enough for its pip wheels' CUDA 9.0 (384.81), not for
  // anaconda's CUDA 9.2 build (396.26); TensorFlow prints the line after every handle failure, so
  // the memory reading leads and the driver follows (session 38 re-read).
  const auto old = explain_no_facts(
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:353] Could not create cudnn handle: "
      "CUDNN_STATUS_NOT_INITIALIZED\n"
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:361] Possibly insufficient driver version: 390.87.0\n");
  ASSERT_TRUE(leads_with(old, "dnn-initialization-failed")) << rule_list(old);
  EXPECT_NE(find_rule(old, "cudnn-handle-driver-too-old"), nullptr) << rule_list(old);
  // Older than CUDA 9.0 needs: the driver leads.
  const auto ancient = explain_no_facts(
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:353] Could not create cudnn handle: "
      "CUDNN_STATUS_NOT_INITIALIZED\n"
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:361] Possibly insufficient driver version: 375.26.0\n");
  ASSERT_TRUE(leads_with(ancient, "cudnn-handle-driver-below-cuda9")) << rule_list(ancient);

  // A TensorFlow 2.10-or-older build is CUDA 11 at most, which driver 470 runs: memory leads.
  const auto cuda11 = explain_no_facts(
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:377] Could not create cudnn handle: "
      "CUDNN_STATUS_NOT_INITIALIZED\n"
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:381] Possibly insufficient driver version: 470.182.3\n");
  ASSERT_TRUE(leads_with(cuda11, "dnn-initialization-failed")) << rule_list(cuda11);
  const ExplainMatch* note = find_rule(cuda11, "cudnn-handle-driver-older-than-cuda12/cuda11-build");
  ASSERT_NE(note, nullptr) << rule_list(cuda11);
  EXPECT_TRUE(note->harmless);

  // A driver that runs every CUDA 12 build: the line is not read as a driver problem.
  const auto new_driver = explain_no_facts("E cuda_dnn.cc:488] Possibly insufficient driver version: 535.104.5\n");
  for (const auto& m : new_driver.matches) EXPECT_NE(m.category, "driver-too-old") << m.rule;
}

// Log 10 (conda-forge/tensorflow-feedstock#296): conda-forge TensorFlow 2.11 could not run ptxas.
// tensorflow/compiler/xla/stream_executor/ is TF 2.11 to 2.14; only 2.14 and later search pip's
// nvidia-cuda-nvcc wheel (its libraries' ../nvidia/cuda_nvcc), and conda-forge ships no ptxas.
TEST(ExplainReview38A, PtxasMissingGetsCondaOrToolkitAdviceWhereThePipWheelIsNotSearched) {
  const std::string ptxas =
      "2023-01-12 18:09:16.509637: W tensorflow/compiler/xla/stream_executor/gpu/asm_compiler.cc:85] Couldn't get "
      "ptxas version string: INTERNAL: Couldn't invoke ptxas --version\n";
  const auto log10 = explain_no_facts(ptxas);
  ASSERT_TRUE(leads_with(log10, "ptxas-missing")) << rule_list(log10);
  EXPECT_TRUE(says_all(log10.matches.front().fix, {"TensorFlow 2.14 and later", "--xla_gpu_cuda_data_dir"}));

  const auto conda = explain_no_facts("(tf) me@box:~$ conda activate tf\n" + ptxas);
  ASSERT_TRUE(leads_with(conda, "ptxas-missing/conda")) << rule_list(conda);
  EXPECT_TRUE(mentions(conda.matches.front().fix, "conda install -c conda-forge cuda-nvcc"))
      << conda.matches.front().fix;
  EXPECT_TRUE(mentions(conda.matches.front().fix, "XLA_FLAGS=--xla_gpu_cuda_data_dir=$CONDA_PREFIX"))
      << conda.matches.front().fix;
  EXPECT_FALSE(mentions(told(conda), "pip install")) << told(conda);

  // TensorFlow 2.10 or older (its own stream_executor path): a toolkit's ptxas, no pip wheel.
  const auto old = explain_no_facts(
      "W tensorflow/stream_executor/gpu/asm_compiler.cc:80] Couldn't get ptxas version string: Internal: Couldn't "
      "invoke ptxas --version\n");
  ASSERT_TRUE(leads_with(old, "ptxas-missing/system")) << rule_list(old);
  EXPECT_FALSE(mentions(told(old), "pip install")) << told(old);

  // JAX (its XLA under external/xla) keeps the pip wheels.
  const auto jax = explain_no_facts(
      "W external/xla/xla/stream_executor/gpu/asm_compiler.cc:111] Couldn't get ptxas version : Couldn't invoke "
      "ptxas --version\n"
      "  File \"/venv/lib/python3.11/site-packages/jax/_src/xla_bridge.py\", line 1\n");
  ASSERT_TRUE(leads_with(jax, "ptxas-missing")) << rule_list(jax);
  EXPECT_TRUE(mentions(jax.matches.front().fix, "jax[cuda12]")) << jax.matches.front().fix;
}

// Probe p21: ptxas says "not defined" for an architecture newer than itself and for one its CUDA
// dropped alike (CUDA 13.0's ptxas for sm_50 and sm_70, 12.x's for sm_35, 11.7/11.8's for sm_30:
// run here on the nvidia-cuda-nvcc wheels). For a dropped one a newer CUDA never helps.
TEST(ExplainReview38A, PtxasThatDroppedTheGpusArchitectureNeedsAnOlderToolkit) {
  const struct {
    const char* sm;
    const char* last;
  } cases[] = {{"sm_30", "10.2"}, {"sm_35", "11.8"}, {"sm_37", "11.8"}, {"sm_50", "12.9"}, {"sm_70", "12.9"}};
  for (const auto& c : cases) {
    const auto r =
        explain_no_facts(std::string("ptxas fatal   : Value '") + c.sm + "' is not defined for option 'gpu-name'\n");
    ASSERT_TRUE(leads_with(r, "ptxas-gpu-arch-dropped")) << c.sm << " " << rule_list(r);
    const ExplainMatch& m = r.matches.front();
    EXPECT_TRUE(mentions(m.fix, c.last)) << c.sm << ": " << m.fix;
    EXPECT_FALSE(mentions(told(r), "new enough")) << told(r);
    EXPECT_EQ(find_rule(r, "ptxas-too-old-for-gpu"), nullptr) << rule_list(r);
  }
  // With the knowledge base: its table (compat/cuda_arch.toml) says which CUDA compiled it last.
  const ExplainMachine with_kb{Platform::linux, nullptr, &testing::builtin_kb()};
  const struct {
    const char* sm;
    const char* says;
  } table[] = {{"sm_30", "up to 10.2; CUDA 11.0 and later do not"},
               {"sm_35", "up to 11.8; CUDA 12.0 and later do not"},
               {"sm_70", "up to 12.9; CUDA 13.0 and later do not"}};
  for (const auto& c : table) {
    const auto kb = explain_text(
        testing::builtin_matcher(),
        std::string("ptxas fatal   : Value '") + c.sm + "' is not defined for option 'gpu-name'\n", with_kb);
    ASSERT_TRUE(leads_with(kb, "ptxas-gpu-arch-dropped")) << rule_list(kb);
    EXPECT_TRUE(mentions(kb.matches.front().fix, c.says)) << c.sm << ": " << kb.matches.front().fix;
  }
  // Near misses: a GPU newer than the ptxas keeps "a newer ptxas".
  for (const char* sm : {"sm_89", "sm_90a", "sm_120"}) {
    const auto r =
        explain_no_facts(std::string("ptxas fatal   : Value '") + sm + "' is not defined for option 'gpu-name'\n");
    ASSERT_TRUE(leads_with(r, "ptxas-too-old-for-gpu")) << sm << " " << rule_list(r);
  }
}

// Log 01 (jax-ml/jax#20722): jaxlib 0.4.26's compute-capability check (versions_helpers.cc:90, added
// by 9fff9aeb) ran before cuInit when JAX did not count the devices itself (jax_cuda_visible_devices,
// jax.distributed under Slurm); c97d9557 (PR #20588) calls cuInit first and is in jaxlib 0.4.27.
TEST(ExplainReview38A, JaxlibComputeCapabilityCheckBeforeCuInitIsTheJaxlib0426Bug) {
  const auto r = explain_no_facts(
      ">>> jax.config.update(\"jax_cuda_visible_devices\", \"0\")\n"
      ">>> jax.devices()\n"
      "CUDA backend failed to initialize: jaxlib/cuda/versions_helpers.cc:90: operation gpuDeviceGetAttribute( "
      "&major, GPU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) failed: CUDA_ERROR_NOT_INITIALIZED (Set "
      "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n"
      "[CpuDevice(id=0)]\n"
      "jaxlib                       0.4.26+cuda12.cudnn89\n");
  ASSERT_TRUE(leads_with(r, "jax-compute-capability-before-cuinit")) << rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_NE(m.category, "driver-missing");
  EXPECT_TRUE(mentions(m.fix, "0.4.27")) << m.fix;
  for (const auto& other : r.matches) EXPECT_NE(other.category, "driver-missing") << other.rule;
  EXPECT_EQ(find_rule(r, "jax-cuda-backend-failed"), nullptr) << rule_list(r);

  // Reasons another rule reads say what failed: no "driver missing" beside them (probes p28, p37).
  for (const char* line :
       {"CUDA backend failed to initialize: Unable to load cuDNN. Is it installed? (Set TF_CPP_MIN_LOG_LEVEL=0 and "
        "rerun for more info.)\n",
        "CUDA backend failed to initialize: Unable to use CUDA because of the following issues with CUDA "
        "components:\nOutdated cuSPARSE installation found.\n"}) {
    const auto other = explain_no_facts(line);
    ASSERT_FALSE(other.matches.empty()) << line;
    EXPECT_EQ(find_rule(other, "jax-cuda-backend-failed"), nullptr) << line << rule_list(other);
  }
  // Near miss: a reason no rule reads keeps the general answer.
  const auto generic = explain_no_facts(
      "CUDA backend failed to initialize: INTERNAL: no supported devices found for platform CUDA (Set "
      "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n");
  EXPECT_NE(find_rule(generic, "jax-cuda-backend-failed"), nullptr) << rule_list(generic);
  EXPECT_EQ(find_rule(generic, "jax-compute-capability-before-cuinit"), nullptr) << rule_list(generic);
}

}  // namespace
}  // namespace gpudoctor
