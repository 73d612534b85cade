/// The doctor's verdicts that read the releases' own facts (issue 9): torchvision / torchaudio
/// built for another torch, TensorFlow's companions (Keras and tf-keras with TF_USE_LEGACY_KERAS,
/// tensorflow-text, tensorflow-addons, tensorflow-probability) against the TensorFlow beside them, plain `pip install
/// torch` on a card its PyPI wheel has no kernels for, and the JAX release's own cuDNN floor.
#include <gtest/gtest.h>

#include <string>

#include "check/compat_checks.hpp"
#include "check/tensorflow_companion_checks.hpp"
#include "check_test_support.hpp"
#include "core/text.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_kb;
using testing::find;
using testing::has;
using testing::ids;
using testing::v;

FrameworkFacts companion(const char* name, const char* version, const char* pinned_torch) {
  FrameworkFacts fw;
  fw.name = name;
  fw.package = name;
  fw.version = v(version);
  fw.variant = fw.version.local();
  if (pinned_torch != nullptr) fw.requires_torch = v(pinned_torch);
  fw.location = "/home/u/.venvs/x/lib/site-packages";
  return fw;
}

std::vector<Finding> torch_env(const char* torch, const char* variant, std::vector<FrameworkFacts> others) {
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
  PythonEnvFacts e = testing::env_with("3.12.3", testing::cuda_framework("torch", torch, variant));
  for (FrameworkFacts& o : others) e.frameworks.push_back(std::move(o));
  f.python_envs.push_back(e);
  return compatibility_findings(f, builtin_kb());
}

// torchvision 0.20.1 pins torch==2.5.1 in its METADATA; with torch 2.6 it fails at its first
// operator ("operator torchvision::nms does not exist"). The fix installs the trio of the
// installed torch from one index.
TEST(CompanionChecks, TorchvisionBuiltForAnotherTorchIsAnError) {
  auto fs = torch_env("2.6.0+cu124", "cu124", {companion("torchvision", "0.20.1+cu124", "2.5.1")});
  const Finding* m = find(fs, "torch-companion-mismatch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_TRUE(contains(m->title, "built for torch 2.5.1")) << m->title;
  EXPECT_TRUE(contains(m->detail, "torchvision::nms")) << m->detail;
  EXPECT_TRUE(contains(m->fix, "\"torch==2.6.0\"")) << m->fix;
  EXPECT_TRUE(contains(m->fix, "torchvision==0.21")) << m->fix;
  EXPECT_TRUE(contains(m->fix, "--index-url https://download.pytorch.org/whl/cu124")) << m->fix;

  // The matched pair says nothing.
  auto ok = torch_env("2.5.1+cu124", "cu124", {companion("torchvision", "0.20.1+cu124", "2.5.1")});
  EXPECT_EQ(find(ok, "torch-companion-mismatch"), nullptr) << ids(ok);
  EXPECT_EQ(find(ok, "torch-companion-variant-mismatch"), nullptr) << ids(ok);
}

// torchaudio >= 2.11 pins only torch>=: the series the knowledge base pairs (harvested from
// torchvision's pins) decides; torchaudio of another series than torch's is flagged.
TEST(CompanionChecks, UnpinnedTorchaudioIsJudgedByTheKnowledgeBasePair) {
  const TorchRelease* rel = builtin_kb().torch_release(v("2.5"));
  ASSERT_NE(rel, nullptr);
  ASSERT_EQ(rel->torchaudio, "2.5");
  auto bad = torch_env("2.5.1+cu124", "cu124", {companion("torchaudio", "2.4.1+cu124", nullptr)});
  ASSERT_NE(find(bad, "torch-companion-mismatch"), nullptr) << ids(bad);
  auto good = torch_env("2.5.1+cu124", "cu124", {companion("torchaudio", "2.5.1+cu124", nullptr)});
  EXPECT_EQ(find(good, "torch-companion-mismatch"), nullptr) << ids(good);
}

// The same torch, but torchvision from another index: a different CUDA major is an error
// (torchvision refuses it), a CPU torchvision too, another minor a warning.
TEST(CompanionChecks, TorchvisionOfAnotherCudaBuildIsNamed) {
  auto major = torch_env("2.5.1+cu124", "cu124", {companion("torchvision", "0.20.1+cu118", "2.5.1")});
  const Finding* m = find(major, "torch-companion-variant-mismatch");
  ASSERT_NE(m, nullptr) << ids(major);
  EXPECT_EQ(m->severity, Severity::error);
  auto cpu = torch_env("2.5.1+cu124", "cu124", {companion("torchvision", "0.20.1+cpu", "2.5.1")});
  ASSERT_NE(find(cpu, "torch-companion-variant-mismatch"), nullptr) << ids(cpu);
  EXPECT_EQ(find(cpu, "torch-companion-variant-mismatch")->severity, Severity::error);
  auto minor = torch_env("2.5.1+cu124", "cu124", {companion("torchvision", "0.20.1+cu121", "2.5.1")});
  ASSERT_NE(find(minor, "torch-companion-variant-mismatch"), nullptr) << ids(minor);
  EXPECT_EQ(find(minor, "torch-companion-variant-mismatch")->severity, Severity::warning);
  // PyPI's torchvision carries no local tag: nothing to compare.
  auto pypi = torch_env("2.5.1+cu124", "cu124", {companion("torchvision", "0.20.1", "2.5.1")});
  EXPECT_EQ(find(pypi, "torch-companion-variant-mismatch"), nullptr) << ids(pypi);
}

// torch 2.10 from PyPI is the cu128 build (torch/version.py of the PyPI wheel); its dist-info
// has no local tag. On a GTX 1080 the doctor says that this is what plain `pip install torch`
// gave, and that the cu126 wheels have kernels for it.
// Review finding (wrong ✓): `pip install torch==2.7.1 --index-url .../cu118`, then a plain
// `pip install torchvision`: PyPI's torchvision 0.22.1 (no local tag, pins torch==2.7.1) is a
// CUDA 12 build, and torchvision refuses a torch of another CUDA major at import.
TEST(CompanionChecks, PypiTorchvisionBesideACudaIndexTorchIsTheDefaultVariant) {
  auto fs = torch_env("2.7.1+cu118", "cu118", {companion("torchvision", "0.22.1", "2.7.1")});
  const Finding* m = find(fs, "torch-companion-variant-mismatch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_TRUE(contains(m->fix, "--index-url https://download.pytorch.org/whl/cu118")) << m->fix;
  // PyPI's torch with PyPI's torchvision: the same default variant, nothing to say.
  const TorchRelease* rel = builtin_kb().torch_release(v("2.7.1"));
  ASSERT_NE(rel, nullptr);
  auto ok = torch_env("2.7.1", rel->pypi_linux.c_str(), {companion("torchvision", "0.22.1", "2.7.1")});
  EXPECT_EQ(find(ok, "torch-companion-variant-mismatch"), nullptr) << ids(ok);
}

// Review finding (wrong ✗): a source-built pair with no pin (NVIDIA's containers: torch 2.6.0a0,
// torchvision 0.20.0a0) is not judged by the table of released pairs.
TEST(CompanionChecks, PreReleaseSourceBuildsAreNotJudgedByTheReleaseTable) {
  auto fs = torch_env("2.6.0a0+ecf3bae40a.nv25.01", "cu128", {companion("torchvision", "0.20.0a0", nullptr)});
  EXPECT_EQ(find(fs, "torch-companion-mismatch"), nullptr) << ids(fs);
  EXPECT_EQ(find(fs, "torch-companion-variant-mismatch"), nullptr) << ids(fs);
  // A released torch with an unpinned torchaudio of another series still is.
  auto released = torch_env("2.6.0+cu124", "cu124", {companion("torchaudio", "2.4.1+cu124", nullptr)});
  EXPECT_NE(find(released, "torch-companion-mismatch"), nullptr) << ids(released);
}

TEST(CompanionChecks, PlainPipInstallOnPascalIsSaid) {
  const TorchRelease* rel = builtin_kb().torch_release(v("2.10"));
  ASSERT_NE(rel, nullptr);
  ASSERT_EQ(rel->pypi_linux, "cu128");
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce GTX 1080", "570.133.07");
  FrameworkFacts torch = testing::cuda_framework("torch", "2.10.0", "cu128");
  torch.cuda_version = v("12.8");
  f.python_envs.push_back(testing::env_with("3.12.3", torch));
  auto fs = compatibility_findings(f, builtin_kb());
  const Finding* m = find(fs, "gpu-arch-unsupported-by-framework");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_TRUE(contains(m->detail, "plain `pip install torch`")) << m->detail;
  EXPECT_TRUE(contains(m->fix, "cu126")) << m->fix;

  // From PyTorch's own index (local tag +cu128) it is not PyPI's default: no such sentence.
  Facts g = testing::machine(Platform::linux, "NVIDIA GeForce GTX 1080", "570.133.07");
  FrameworkFacts indexed = testing::cuda_framework("torch", "2.10.0+cu128", "cu128");
  indexed.cuda_version = v("12.8");
  g.python_envs.push_back(testing::env_with("3.12.3", indexed));
  auto gs = compatibility_findings(g, builtin_kb());
  const Finding* n = find(gs, "gpu-arch-unsupported-by-framework");
  ASSERT_NE(n, nullptr) << ids(gs);
  EXPECT_FALSE(contains(n->detail, "plain `pip install torch`")) << n->detail;
}

// jax 0.12 with jax[cuda13] and cuDNN 9.10: its plugin requires >= 9.12.0.46 (the guide's 9.8
// let it pass); jax 0.6.2 (cuda12) keeps its own floor, >= 9.8.
TEST(CompanionChecks, JaxCudnnFloorFollowsTheInstalledRelease) {
  auto run = [](const char* jax, const char* extra, const char* wheel, const char* cudnn) {
    Facts f = testing::machine(Platform::linux, "NVIDIA RTX A6000", "590.48.01");
    PythonEnvFacts e = testing::env_with("3.12.4", testing::cuda_framework("jax", jax, extra));
    e.nvidia_wheels.push_back(NvidiaWheel{wheel, v(cudnn), "cudnn", extra[5] == '3' ? 13 : 12});
    f.python_envs.push_back(e);
    return compatibility_findings(f, builtin_kb());
  };
  auto bad = run("0.12.0", "cuda13", "nvidia-cudnn-cu13", "9.10.2.21");
  const Finding* m = find(bad, "jax-cudnn-mismatch");
  ASSERT_NE(m, nullptr) << ids(bad);
  EXPECT_TRUE(contains(m->title, "9.12.0.46")) << m->title;
  EXPECT_TRUE(contains(m->source, "[artefact]")) << m->source;
  auto old = run("0.6.2", "cuda12", "nvidia-cudnn-cu12", "9.8.0.87");
  EXPECT_EQ(find(old, "jax-cudnn-mismatch"), nullptr) << ids(old);
}

// Review finding (wrong ✓): jax 0.4.30-0.5.2 had no cuDNN floor in the knowledge base, because
// the harvest did not read the older METADATA's `extra == 'with_cuda'` (underscore), so their
// cuDNN was not checked at all. Their plugins require cuDNN 9 (>= 9.0 for 0.4.30, >= 9.1 after).
TEST(CompanionChecks, OldJaxReleasesAreCheckedAgainstTheirPluginsCudnnFloor) {
  auto run = [](const char* jax, const char* cudnn) {
    Facts f = testing::machine(Platform::linux, "NVIDIA RTX A6000", "590.48.01");
    PythonEnvFacts e = testing::env_with("3.12.4", testing::cuda_framework("jax", jax, "cuda12"));
    e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu12", v(cudnn), "cudnn", 12});
    f.python_envs.push_back(e);
    return compatibility_findings(f, builtin_kb());
  };
  for (const char* jax : {"0.4.30", "0.4.35", "0.5.2"}) {
    auto fs = run(jax, "8.9.7.29");
    const Finding* m = find(fs, "jax-cudnn-mismatch");
    ASSERT_NE(m, nullptr) << jax << ": " << ids(fs);
    EXPECT_TRUE(contains(m->source, "[artefact]")) << m->source;
    // JAX opens libcudnn.so.9 by name: the cuDNN 8 wheel is never loaded.
    EXPECT_TRUE(contains(m->detail, "not loaded: JAX opens libcudnn.so.9")) << m->detail;
  }
  auto at_floor = run("0.4.30", "9.0.0.312");
  EXPECT_EQ(find(at_floor, "jax-cudnn-mismatch"), nullptr) << ids(at_floor);
  auto below = run("0.4.35", "9.0.0.312");
  EXPECT_NE(find(below, "jax-cudnn-mismatch"), nullptr) << "0.4.31 on needs >= 9.1";
}

// torchaudio 2.8.0 with no torch at all (found by the real-install sweep: listed without a word,
// though its import fails).
TEST(CompanionChecks, ACompanionWithoutTorchIsAWarning) {
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
  PythonEnvFacts e = testing::env_with("3.12.3", companion("torchaudio", "2.8.0+cu128", "2.8.0"));
  f.python_envs.push_back(e);
  auto fs = compatibility_findings(f, builtin_kb());
  const Finding* m = find(fs, "torch-companion-without-torch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::warning);
  EXPECT_TRUE(contains(m->title, "torchaudio 2.8.0+cu128 is installed without torch")) << m->title;
  EXPECT_TRUE(contains(m->fix, "pip install \"torch==2.8.0\" --index-url https://download.pytorch.org/whl/cu128"))
      << m->fix;
  // With its torch beside it, nothing of the kind.
  auto ok = torch_env("2.8.0+cu128", "cu128", {companion("torchaudio", "2.8.0+cu128", "2.8.0")});
  EXPECT_EQ(find(ok, "torch-companion-without-torch"), nullptr) << ids(ok);
}

// torchvision 0.29 builds its operators on PyTorch's stable ABI (torchvision/_C_stable.so; 0.28
// has _C.so): 0.29.0 pins torch==2.14.0, yet loads its operators with torch 2.15.0 and runs nms
// (tried on the PyPI wheels). A newer torch is then information; an older one still fails.
TEST(CompanionChecks, AStableAbiCompanionLoadsWithANewerTorch) {
  FrameworkFacts stable = companion("torchvision", "0.29.0", "2.14.0");
  stable.stable_abi = true;
  auto newer = torch_env("2.15.0", "", {stable});
  EXPECT_EQ(find(newer, "torch-companion-mismatch"), nullptr) << ids(newer);
  const Finding* info = find(newer, "torch-companion-stable-abi");
  ASSERT_NE(info, nullptr) << ids(newer);
  EXPECT_EQ(info->severity, Severity::info);
  EXPECT_TRUE(contains(info->detail, "stable ABI")) << info->detail;
  // Not backwards: torch 2.13 is older than what it was built against.
  auto older = torch_env("2.13.0", "", {stable});
  ASSERT_NE(find(older, "torch-companion-mismatch"), nullptr) << ids(older);
  // Without the stable ABI (0.28's _C.so), a newer torch is the error it always was.
  auto classic = torch_env("2.15.0", "", {companion("torchvision", "0.28.0", "2.13.0")});
  ASSERT_NE(find(classic, "torch-companion-mismatch"), nullptr) << ids(classic);
}

// ---- TensorFlow's companions ----

std::vector<Finding> tf_env(const char* tf, FrameworkFacts keras) {
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
  FrameworkFacts t = testing::cuda_framework("tensorflow", tf, "cuda12");
  PythonEnvFacts e = testing::env_with("3.11.9", t);
  keras.location = e.path + "/lib/site-packages";
  e.frameworks.push_back(std::move(keras));
  f.python_envs.push_back(e);
  return tensorflow_companion_findings(f, builtin_kb());
}

FrameworkFacts keras(const char* package, const char* version) {
  FrameworkFacts fw;
  fw.name = "keras";
  fw.package = package;
  fw.version = v(version);
  return fw;
}

// tensorflow-2.14.1 METADATA: keras<2.15,>=2.14.0, and its tf.keras is keras.api._v2.keras,
// which no Keras 3 has: Keras 3 beside it breaks tf.keras. 2.15 (keras<2.16,>=2.15.0) maps
// tf.keras to the installed Keras (KerasLazyLoader), so Keras 3 works there: a warning (the
// helper's audit found the error false: tf.keras trained a model with Keras 3 on 2.15.1).
TEST(CompanionChecks, Keras3WithTensorflow214IsAnErrorAnd215AWarning) {
  auto fs = tf_env("2.14.1", keras("keras", "3.3.3"));
  const Finding* m = find(fs, "keras-mismatch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_TRUE(contains(m->fix, "keras>=2.14.0,<2.15")) << m->fix;
  EXPECT_TRUE(contains(m->source, "[artefact] tensorflow-2.14")) << m->source;
  auto on215 = tf_env("2.15.1", keras("keras", "3.3.3"));
  const Finding* w = find(on215, "keras-mismatch");
  ASSERT_NE(w, nullptr) << ids(on215);
  EXPECT_EQ(w->severity, Severity::warning);
  EXPECT_TRUE(contains(w->detail, "keras._tf_keras.keras")) << w->detail;
  EXPECT_TRUE(contains(w->fix, "tf-keras~=2.15.0")) << w->fix;
  EXPECT_TRUE(contains(w->fix, "TF_USE_LEGACY_KERAS=1")) << w->fix;
  EXPECT_TRUE(contains(w->source, "[artefact] tensorflow-2.15.1")) << w->source;
  EXPECT_FALSE(has(tf_env("2.15.1", keras("keras", "2.15.0")), "keras-mismatch"));
  // TF 2.16+ requires Keras 3 (tensorflow-2.16.2 METADATA: keras>=3.0.0); Keras 2 code uses tf-keras.
  auto old = tf_env("2.17.0", keras("keras", "2.15.0"));
  const Finding* n = find(old, "keras-mismatch");
  ASSERT_NE(n, nullptr) << ids(old);
  EXPECT_TRUE(contains(n->fix, "tf-keras~=2.17.0")) << n->fix;
  EXPECT_FALSE(has(tf_env("2.17.0", keras("keras", "3.5.0")), "keras-mismatch"));
}

// tf_keras-2.16.0 METADATA: tensorflow<2.17,>=2.16. Another series is named.
TEST(CompanionChecks, TfKerasOfAnotherSeriesIsAnError) {
  auto fs = tf_env("2.17.1", keras("tf-keras", "2.16.0"));
  const Finding* m = find(fs, "keras-mismatch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_TRUE(contains(m->title, "TensorFlow 2.16")) << m->title;
  EXPECT_TRUE(contains(m->fix, "pip install \"tf-keras~=2.17.0\"")) << m->fix;
  EXPECT_FALSE(has(tf_env("2.17.1", keras("tf-keras", "2.17.0")), "keras-mismatch"));
}

// tensorflow-text-2.15.0 METADATA: tensorflow<2.16,>=2.15.0 (every release pins its own minor).
TEST(CompanionChecks, TensorflowTextOfAnotherMinorIsAnError) {
  FrameworkFacts text;
  text.name = "tensorflow-text";
  text.package = "tensorflow-text";
  text.version = v("2.15.0");
  auto bad = tf_env("2.16.1", text);
  const Finding* m = find(bad, "tensorflow-text-mismatch");
  ASSERT_NE(m, nullptr) << ids(bad);
  EXPECT_TRUE(contains(m->fix, "tensorflow-text~=2.16.0")) << m->fix;
  text.version = v("2.16.1");
  EXPECT_FALSE(has(tf_env("2.16.1", text), "tensorflow-text-mismatch"));
}

// tensorflow_addons-0.23.0 version.py: INCLUSIVE_MIN_TF_VERSION 2.13.0, EXCLUSIVE_MAX_TF_VERSION
// 2.16.0; its tfa_eol_msg.py: "a planned end of life in May 2024". 0.23 is the last release.
TEST(CompanionChecks, TensorflowAddonsOutsideItsRangeAndEndOfLife) {
  FrameworkFacts tfa;
  tfa.name = "tensorflow-addons";
  tfa.package = "tensorflow-addons";
  tfa.version = v("0.23.0");
  // TF 2.16 (Keras 3): no release supports it; the fix says so instead of naming a release.
  auto bad = tf_env("2.16.1", tfa);
  const Finding* m = find(bad, "tensorflow-addons-mismatch");
  ASSERT_NE(m, nullptr) << ids(bad);
  EXPECT_EQ(m->severity, Severity::warning);
  EXPECT_TRUE(contains(m->title, ">=2.13.0,<2.16.0")) << m->title;
  EXPECT_TRUE(contains(m->detail, "end of life May 2024")) << m->detail;
  EXPECT_TRUE(contains(m->fix, "No tensorflow-addons release supports TensorFlow 2.16")) << m->fix;
  EXPECT_TRUE(contains(m->source, "[artefact] tensorflow_addons-0.23.0")) << m->source;
  // An older TFA beside a TF that a later TFA supports: another release fits.
  tfa.version = v("0.19.0");
  auto older = tf_env("2.15.1", tfa);
  const Finding* old = find(older, "tensorflow-addons-mismatch");
  ASSERT_NE(old, nullptr);
  EXPECT_FALSE(contains(old->fix, "No tensorflow-addons release")) << old->fix;
  // Inside its range: no mismatch, but the end of life is said (info).
  tfa.version = v("0.23.0");
  auto ok = tf_env("2.15.1", tfa);
  EXPECT_FALSE(has(ok, "tensorflow-addons-mismatch")) << ids(ok);
  const Finding* eol = find(ok, "tensorflow-addons-end-of-life");
  ASSERT_NE(eol, nullptr) << ids(ok);
  EXPECT_EQ(eol->severity, Severity::info);
  // A release the table does not know (0.16): nothing is claimed.
  tfa.version = v("0.16.1");
  auto unknown = tf_env("2.8.0", tfa);
  EXPECT_FALSE(has(unknown, "tensorflow-addons-mismatch") || has(unknown, "tensorflow-addons-end-of-life"));
}

// tensorflow_addons/utils/types.py (0.21-0.23) imports keras.src.engine, which no Keras 3 has:
// `import tensorflow_addons` fails beside Keras 3 on any TensorFlow (reproduced on 2.15.1 with
// TF_USE_LEGACY_KERAS=1 and tf-keras too). Inside its TF range it was only an end-of-life note.
TEST(CompanionChecks, TensorflowAddonsBesideKeras3IsAnError) {
  auto run = [](const char* tf, const char* keras_version) {
    Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
    PythonEnvFacts e = testing::env_with("3.11.9", testing::cuda_framework("tensorflow", tf, "cuda12"));
    FrameworkFacts tfa;
    tfa.name = "tensorflow-addons";
    tfa.package = "tensorflow-addons";
    tfa.version = v("0.23.0");
    e.frameworks.push_back(tfa);
    e.frameworks.push_back(keras("keras", keras_version));
    f.python_envs.push_back(e);
    return tensorflow_companion_findings(f, builtin_kb());
  };
  auto on215 = run("2.15.1", "3.3.3");
  const Finding* m = find(on215, "tensorflow-addons-keras3");
  ASSERT_NE(m, nullptr) << ids(on215);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_TRUE(contains(m->detail, "keras.src.engine")) << m->detail;
  EXPECT_TRUE(contains(m->fix, "keras~=2.15.0")) << m->fix;
  EXPECT_FALSE(has(on215, "tensorflow-addons-end-of-life")) << ids(on215);
  auto on216 = run("2.16.1", "3.3.3");
  const Finding* n = find(on216, "tensorflow-addons-keras3");
  ASSERT_NE(n, nullptr) << ids(on216);
  EXPECT_TRUE(contains(n->fix, "Replace tensorflow-addons")) << n->fix;
  auto keras2 = run("2.15.1", "2.15.0");
  EXPECT_FALSE(has(keras2, "tensorflow-addons-keras3")) << ids(keras2);
  EXPECT_TRUE(has(keras2, "tensorflow-addons-end-of-life")) << ids(keras2);
}

// ---- tensorflow-probability ----

FrameworkFacts tfp(const char* version, const char* floor, bool tf_keras) {
  FrameworkFacts fw;
  fw.name = "tensorflow-probability";
  fw.package = "tensorflow-probability";
  fw.version = v(version);
  if (floor != nullptr) fw.requires_tensorflow = v(floor);
  fw.imports_tf_keras = tf_keras;
  fw.evidence = "/home/u/.venvs/x/lib/site-packages/tensorflow_probability/python/__init__.py";
  return fw;
}

struct TfpEnv {
  const char* tf;
  std::vector<FrameworkFacts> others;
  std::vector<EnvVarFacts> vars;
  const char* tf_package = "tensorflow";
};

std::vector<Finding> tfp_env(const TfpEnv& c) {
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
  FrameworkFacts tf = testing::cuda_framework("tensorflow", c.tf, "cuda12");
  tf.package = c.tf_package;
  PythonEnvFacts e = testing::env_with("3.11.9", tf);
  for (const FrameworkFacts& o : c.others) e.frameworks.push_back(o);
  f.python_envs.push_back(e);
  f.env = c.vars;
  return tensorflow_companion_findings(f, builtin_kb());
}

// tensorflow_probability-0.25.0 python/__init__.py: required_tensorflow_version = '2.18'; its
// METADATA's `tf` extra says only tensorflow>=2.16, so pip installs it beside 2.17. Reproduced:
// "ImportError: This version of TensorFlow Probability requires TensorFlow version >= 2.18;
// Detected an installation of version 2.17.1." (TF 2.17.1, tfp 0.25.0, tf-keras 2.17.0).
TEST(TensorflowProbability, BelowTheFloorItsImportChecksIsAnError) {
  auto fs = tfp_env({"2.17.1", {tfp("0.25.0", "2.18", true), keras("tf-keras", "2.17.0")}, {}});
  const Finding* m = find(fs, "tensorflow-probability-mismatch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_TRUE(contains(m->title, "needs TensorFlow >= 2.18")) << m->title;
  EXPECT_TRUE(contains(m->detail, "requires TensorFlow version >= 2.18; Detected an installation of version 2.17.1"))
      << m->detail;
  // The release for 2.17 is 0.24 (floor 2.16, tf_keras): the table names it.
  EXPECT_TRUE(contains(m->fix, "tensorflow-probability~=0.24.0")) << m->fix;
  EXPECT_TRUE(contains(m->fix, "tf-keras~=2.17.0")) << m->fix;
  EXPECT_TRUE(contains(m->source, "tensorflow_probability/python/__init__.py")) << m->source;
  EXPECT_FALSE(has(tfp_env({"2.18.1", {tfp("0.25.0", "2.18", true), keras("tf-keras", "2.18.0")}, {}}),
                   "tensorflow-probability-mismatch"));
  // TF 2.15 and tfp 0.24 (floor 2.16): 0.23 is the release for 2.15, without tf-keras.
  auto e = tfp_env({"2.15.1", {tfp("0.24.0", "2.16", true), keras("keras", "2.15.0")}, {}});
  const Finding* n = find(e, "tensorflow-probability-mismatch");
  ASSERT_NE(n, nullptr) << ids(e);
  EXPECT_TRUE(contains(n->fix, "tensorflow-probability~=0.23.0\" (the newest release that accepts TensorFlow 2.15)"))
      << n->fix;
  EXPECT_FALSE(contains(n->fix, "tf-keras")) << n->fix;
}

// distutils' LooseVersion compares the numbers: 2.16.0rc0 and a nightly's 2.18.0.dev20241001 are
// not below '2.16' / '2.18' (PEP 440 would put a pre-release below its release).
TEST(TensorflowProbability, PreReleasesAreComparedAsItsImportDoes) {
  EXPECT_FALSE(has(tfp_env({"2.16.0rc0", {tfp("0.24.0", "2.16", true), keras("tf-keras", "2.16.0")}, {}}),
                   "tensorflow-probability-mismatch"));
  EXPECT_FALSE(has(tfp_env({"2.18.0.dev20241001", {tfp("0.25.0", "2.18", true), keras("tf-keras", "2.18.0")}, {}}),
                   "tensorflow-probability-mismatch"));
  EXPECT_TRUE(has(tfp_env({"2.17.9", {tfp("0.25.0", "2.18", true), keras("tf-keras", "2.17.0")}, {}}),
                  "tensorflow-probability-mismatch"));
}

// The installed file is the source; when it could not be read, the knowledge base's row for the
// series stands in (tensorflow.toml [[probability]], from the same file in the wheel).
TEST(TensorflowProbability, TheTableStandsInForAnUnreadableInit) {
  FrameworkFacts unread = tfp("0.25.0", nullptr, false);
  unread.evidence.clear();
  auto fs = tfp_env({"2.17.1", {unread, keras("tf-keras", "2.17.0")}, {}});
  const Finding* m = find(fs, "tensorflow-probability-mismatch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_TRUE(contains(m->source, "[artefact] tensorflow_probability-0.25.0")) << m->source;
  // A series the table does not know, and no file: nothing is claimed.
  FrameworkFacts unknown = tfp("0.11.1", nullptr, false);
  EXPECT_TRUE(tfp_env({"2.3.0", {unknown}, {}}).empty()) << ids(tfp_env({"2.3.0", {unknown}, {}}));
}

// tfp 0.24.0 without tf-keras on TF 2.16.2 (reproduced): "Failed to import TF-Keras" and
// "ModuleNotFoundError: No module named 'tf_keras'", with or without TF_USE_LEGACY_KERAS.
TEST(TensorflowProbability, FromTwentyFourItNeedsTfKeras) {
  auto fs = tfp_env({"2.16.2", {tfp("0.24.0", "2.16", true), keras("keras", "3.15.1")}, {}});
  const Finding* m = find(fs, "tensorflow-probability-tf-keras-missing");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_TRUE(contains(m->detail, "No module named 'tf_keras'")) << m->detail;
  EXPECT_EQ(m->fix, "pip install \"tf-keras~=2.16.0\" (the Keras 2 of this TensorFlow).") << m->fix;
  // tf-keras requires the `tensorflow` distribution: beside tensorflow-cpu, pip must not add it.
  auto cpu = tfp_env({"2.16.2", {tfp("0.24.0", "2.16", true), keras("keras", "3.15.1")}, {}, "tensorflow-cpu"});
  const Finding* c = find(cpu, "tensorflow-probability-tf-keras-missing");
  ASSERT_NE(c, nullptr) << ids(cpu);
  EXPECT_TRUE(contains(c->fix, "pip install --no-deps \"tf-keras~=2.16.0\"")) << c->fix;
  auto ok =
      tfp_env({"2.16.2", {tfp("0.24.0", "2.16", true), keras("keras", "3.15.1"), keras("tf-keras", "2.16.0")}, {}});
  EXPECT_TRUE(ok.empty()) << ids(ok);
}

// tfp 0.23.0 on TF 2.16.2 with Keras 3.15.1 (reproduced): "AttributeError: module
// 'keras._tf_keras.keras' has no attribute '__internal__'" (layers/distribution_layer.py). With
// tf-keras 2.16.0 and TF_USE_LEGACY_KERAS=1 it works; "TRUE" and "yes" are ignored and it fails.
// On TF 2.15.1 with Keras 2.15 it works; `pip install "keras>=3"` there breaks it the same way.
TEST(TensorflowProbability, BeforeTwentyFourKeras3AsTfKerasBreaksIt) {
  const FrameworkFacts old = tfp("0.23.0", "2.15", false);
  auto fs = tfp_env({"2.16.2", {old, keras("keras", "3.15.1")}, {}});
  const Finding* m = find(fs, "tensorflow-probability-keras3");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_TRUE(contains(m->detail, "has no attribute '__internal__'")) << m->detail;
  EXPECT_TRUE(contains(m->fix, "tensorflow-probability~=0.24.0")) << m->fix;
  EXPECT_TRUE(contains(m->fix, "TF_USE_LEGACY_KERAS=1")) << m->fix;
  auto legacy =
      tfp_env({"2.16.2", {old, keras("keras", "3.15.1"), keras("tf-keras", "2.16.0")}, {{"TF_USE_LEGACY_KERAS", "1"}}});
  EXPECT_TRUE(legacy.empty()) << ids(legacy);
  auto upper = tfp_env(
      {"2.16.2", {old, keras("keras", "3.15.1"), keras("tf-keras", "2.16.0")}, {{"TF_USE_LEGACY_KERAS", "TRUE"}}});
  EXPECT_TRUE(has(upper, "tensorflow-probability-keras3")) << ids(upper);
  // TF 2.15 routes tf.keras by the installed Keras.
  EXPECT_TRUE(tfp_env({"2.15.1", {old, keras("keras", "2.15.0")}, {}}).empty());
  auto on215 = tfp_env({"2.15.1", {old, keras("keras", "3.15.1")}, {}});
  const Finding* n = find(on215, "tensorflow-probability-keras3");
  ASSERT_NE(n, nullptr) << ids(on215);
  EXPECT_TRUE(contains(n->fix, "keras~=2.15.0")) << n->fix;
  // TF 2.14 has no KerasLazyLoader: tf.keras is its own Keras 2 requirement's.
  EXPECT_FALSE(has(tfp_env({"2.14.1", {tfp("0.22.1", "2.14", false), keras("keras", "3.15.1")}, {}}),
                   "tensorflow-probability-keras3"));
}

// No TensorFlow: tfp is used through its JAX substrate, which checks nothing of TensorFlow.
TEST(TensorflowProbability, WithoutTensorflowNothingIsSaid) {
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
  PythonEnvFacts e = testing::env_with("3.11.9", testing::cuda_framework("jax", "0.4.35", "cuda12"));
  e.frameworks.push_back(tfp("0.25.0", "2.18", true));
  f.python_envs.push_back(e);
  auto fs = tensorflow_companion_findings(f, builtin_kb());
  EXPECT_TRUE(fs.empty()) << ids(fs);
}

// ---- TF_USE_LEGACY_KERAS ----

// TF 2.16.2, no tf_keras, TF_USE_LEGACY_KERAS=1 (reproduced): the warning "Your environment has
// TF_USE_LEGACY_KERAS set to True, but you do not have the tf_keras package installed", then
// "ImportError: Keras cannot be imported", though Keras 3 is installed.
TEST(TfLegacyKeras, SetWithoutTfKerasIsAnError) {
  auto fs = tfp_env({"2.16.2", {keras("keras", "3.15.1")}, {{"TF_USE_LEGACY_KERAS", "1"}}});
  const Finding* m = find(fs, "tf-keras-missing");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_TRUE(contains(m->detail, "Keras cannot be imported")) << m->detail;
  EXPECT_TRUE(contains(m->fix, "tf-keras~=2.16.0")) << m->fix;
  EXPECT_TRUE(contains(m->evidence.front(), "TF_USE_LEGACY_KERAS=1")) << m->evidence.front();
  auto ok =
      tfp_env({"2.16.2", {keras("keras", "3.15.1"), keras("tf-keras", "2.16.0")}, {{"TF_USE_LEGACY_KERAS", "True"}}});
  EXPECT_TRUE(ok.empty()) << ids(ok);
  // tf-keras-nightly gives the same tf_keras module, beside tf-nightly.
  auto nightly = tfp_env({"2.19.0.dev20241201",
                          {keras("keras", "3.15.1"), keras("tf-keras-nightly", "2.19.0.dev20241201")},
                          {{"TF_USE_LEGACY_KERAS", "1"}},
                          "tf-nightly"});
  EXPECT_TRUE(nightly.empty()) << ids(nightly);
  // TF 2.14 does not read the variable.
  EXPECT_TRUE(tfp_env({"2.14.1", {keras("keras", "2.14.0")}, {{"TF_USE_LEGACY_KERAS", "1"}}}).empty());
}

// TensorFlow reads "true", "True" and "1" only: "TRUE" and "yes" leave tf.keras on Keras 3.
TEST(TfLegacyKeras, OtherSpellingsOfOnAreIgnoredByTensorflow) {
  for (const char* value : {"TRUE", "yes", "on", " 1"}) {
    auto fs =
        tfp_env({"2.16.2", {keras("keras", "3.15.1"), keras("tf-keras", "2.16.0")}, {{"TF_USE_LEGACY_KERAS", value}}});
    const Finding* m = find(fs, "tf-legacy-keras-ignored");
    ASSERT_NE(m, nullptr) << value << ": " << ids(fs);
    EXPECT_EQ(m->severity, Severity::warning);
    EXPECT_TRUE(contains(m->detail, "installed Keras 3.15.1")) << m->detail;
    EXPECT_EQ(m->fix, "export TF_USE_LEGACY_KERAS=1") << m->fix;
  }
  // TF 2.15 with its own Keras 2: tf.keras is Keras 2 whatever the variable says.
  EXPECT_TRUE(
      tfp_env({"2.15.1", {keras("keras", "2.15.0"), keras("tf-keras", "2.15.1")}, {{"TF_USE_LEGACY_KERAS", "TRUE"}}})
          .empty());
  for (const char* value : {"0", "false", ""}) {
    auto fs = tfp_env({"2.16.2", {keras("keras", "3.15.1")}, {{"TF_USE_LEGACY_KERAS", value}}});
    EXPECT_TRUE(fs.empty()) << value << ": " << ids(fs);
  }
}

// Every Keras fix that adds tf-keras beside tensorflow-cpu says --no-deps: tf-keras requires the
// `tensorflow` distribution, and pip would install it over the same tensorflow/ files.
TEST(CompanionChecks, KerasFixesBesideTensorflowCpuDoNotPullTensorflow) {
  const auto cpu = [](const char* tf, FrameworkFacts k) { return tfp_env({tf, {std::move(k)}, {}, "tensorflow-cpu"}); };
  auto other_series = cpu("2.17.1", keras("tf-keras", "2.16.0"));
  const Finding* a = find(other_series, "keras-mismatch");
  ASSERT_NE(a, nullptr) << ids(other_series);
  EXPECT_TRUE(contains(a->fix, "pip install --no-deps \"tf-keras~=2.17.0\"")) << a->fix;
  auto keras2 = cpu("2.17.1", keras("keras", "2.15.0"));
  const Finding* b = find(keras2, "keras-mismatch");
  ASSERT_NE(b, nullptr) << ids(keras2);
  EXPECT_TRUE(contains(b->fix, "pip install --no-deps \"tf-keras~=2.17.0\"")) << b->fix;
  auto keras3 = cpu("2.15.1", keras("keras", "3.3.3"));
  const Finding* c = find(keras3, "keras-mismatch");
  ASSERT_NE(c, nullptr) << ids(keras3);
  EXPECT_TRUE(contains(c->fix, "pip install --no-deps \"tf-keras~=2.15.0\"")) << c->fix;
}

}  // namespace
}  // namespace gpudoctor
