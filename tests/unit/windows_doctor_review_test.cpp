// The doctor's Windows answers, from the outside review of session 36 (/tmp/rev36w: real win_amd64
// wheels from PyPI run through gpudoctor.exe under wine): a fix that cannot work on native Windows,
// a Linux library name in a Windows detail. Each test was seen failing before the fix.
#include <gtest/gtest.h>

#include "check/checks.hpp"
#include "check_test_support.hpp"
#include "kb_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::find;
using testing::machine;
using testing::v;

bool windows_says(const std::string& text, std::string_view words) {
  return text.find(words) != std::string::npos;
}

std::string windows_ids(const std::vector<Finding>& fs) {
  std::string out;
  for (const Finding& f : fs) out += f.id + " ";
  return out;
}

PythonEnvFacts windows_env(FrameworkFacts fw) {
  PythonEnvFacts e;
  e.path = "C:\\Users\\alice\\AppData\\Local\\Programs\\Python\\Python311";
  e.kind = "system";
  e.python_version = v("3.11.9");
  e.python_version_source = "python311.dll";
  fw.location = e.path + "\\Lib\\site-packages";
  e.frameworks.push_back(std::move(fw));
  return e;
}

/// TensorFlow 2.10.1's Windows build (its build_info.py: CUDA 11.2), with the cuDNN it names.
FrameworkFacts tensorflow_210(const char* cudnn) {
  FrameworkFacts tf;
  tf.name = "tensorflow";
  tf.package = "tensorflow";
  tf.version = v("2.10.1");
  tf.cuda_build = true;
  tf.cuda_version = v("11.2");
  tf.cudnn_version = v(cudnn);
  return tf;
}

// D2: `pip install jax` on Windows gives the CPU jaxlib (jax-cuda12-plugin has no win_amd64 wheel:
// `pip install --dry-run --platform win_amd64 jax-cuda12-plugin` finds none). The fix was
// `pip install -U "jax[cuda12]"`, which cannot succeed there.
TEST(WindowsDoctorReview, CpuJaxOnNativeWindowsIsToldWsl2NotTheCudaPlugin) {
  Facts f = machine(Platform::windows, "NVIDIA GeForce RTX 4070", "560.94");
  FrameworkFacts jax;
  jax.name = "jax";
  jax.package = "jax";
  jax.version = v("0.10.2");
  jax.cuda_build = false;
  jax.variant = "cpu";
  f.python_envs.push_back(windows_env(jax));
  const auto fs = run_checks(f, &testing::builtin_kb());
  const Finding* w = find(fs, "jax-native-windows-no-gpu");
  ASSERT_NE(w, nullptr) << windows_ids(fs);
  EXPECT_TRUE(windows_says(w->fix, "WSL2")) << w->fix;
  EXPECT_EQ(find(fs, "framework-cpu-only"), nullptr) << windows_ids(fs);
}

// D6: TensorFlow 2.10 on Windows opens cudnn64_8.dll (its build_info.py: cudnn_dll_name), not
// libcudnn.so.8.
TEST(WindowsDoctorReview, TheCudnnTensorflowOpensOnWindowsIsItsDll) {
  Facts f = machine(Platform::windows, "NVIDIA GeForce RTX 3060", "516.94");
  f.python_envs.push_back(windows_env(tensorflow_210("8")));
  LibraryFacts cudnn;
  cudnn.name = "cudnn";
  cudnn.version = v("9.28.0");
  cudnn.path = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\bin";
  cudnn.origin = "toolkit";
  f.libraries.push_back(cudnn);
  const auto fs = run_checks(f, &testing::builtin_kb());
  const Finding* m = find(fs, "tf-cudnn-mismatch");
  ASSERT_NE(m, nullptr) << windows_ids(fs);
  EXPECT_FALSE(windows_says(m->detail, "libcudnn.so")) << m->detail;
  EXPECT_TRUE(windows_says(m->detail, "cudnn64_8.dll")) << m->detail;
}

// D7: on native Windows no TensorFlow release has kernels an RTX 3060 lacks in 2.10 (the last with
// GPU support there); "use a release whose build has kernels" pointed at none.
TEST(WindowsDoctorReview, TensorflowWithoutKernelsOnNativeWindowsIsToldWsl2) {
  Facts f = machine(Platform::windows, "NVIDIA GeForce RTX 3060", "456.71");
  f.python_envs.push_back(windows_env(tensorflow_210("8.1")));
  const auto fs = run_checks(f, &testing::builtin_kb());
  bool seen = false;
  for (const Finding& x : fs) {
    if (x.id != "gpu-arch-ptx-only" && x.id != "gpu-arch-ptx-driver-too-old") continue;
    seen = true;
    EXPECT_TRUE(windows_says(x.fix, "WSL2")) << x.fix;
    EXPECT_FALSE(windows_says(x.fix, ", or Use")) << x.fix;
  }
  EXPECT_TRUE(seen) << windows_ids(fs);
}

// D5: torch (CPU) in Python 3.11 while a later Python 3.12 comes first on PATH: a bare `pip` fix
// reinstalls into 3.12 and changes nothing in 3.11.
TEST(WindowsDoctorReview, WithSeveralPythonsTheFixSaysWhichPythonsPip) {
  Facts f = machine(Platform::windows, "NVIDIA GeForce RTX 4070", "560.94");
  f.python_envs.push_back(windows_env(testing::cuda_framework("torch", "2.15.0+cpu", "cpu")));
  f.python_envs.back().frameworks.back().cuda_build = false;
  PythonEnvFacts other;
  other.path = "C:\\Users\\alice\\AppData\\Local\\Programs\\Python\\Python312";
  other.kind = "system";
  other.python_version = v("3.12.7");
  f.python_envs.push_back(other);
  const auto fs = run_checks(f, &testing::builtin_kb());
  const Finding* c = find(fs, "framework-cpu-only");
  ASSERT_NE(c, nullptr) << windows_ids(fs);
  EXPECT_TRUE(windows_says(c->fix, "py -3.11 -m pip")) << c->fix;

  // One Python: `pip` is its own, nothing to add.
  f.python_envs.pop_back();
  const auto one = run_checks(f, &testing::builtin_kb());
  const Finding* c1 = find(one, "framework-cpu-only");
  ASSERT_NE(c1, nullptr) << windows_ids(one);
  EXPECT_FALSE(windows_says(c1->fix, "py -3.11")) << c1->fix;
}

// The same for the fixes of windows-dll-not-found: a torch reinstall and ONNX Runtime's pip
// fixes, run with a bare `pip`, go to whichever Python is first on PATH.
TEST(WindowsDoctorReview, TheDllFixesSayWhichPythonsPipToo) {
  Facts f = machine(Platform::windows, "NVIDIA GeForce RTX 4070", "560.94");
  FrameworkFacts torch = testing::cuda_framework("torch", "2.5.1+cu124", "cu124");
  torch.cuda_version = v("12.4");
  f.python_envs.push_back(windows_env(torch));
  FrameworkFacts ort;
  ort.name = "onnxruntime";
  ort.package = "onnxruntime-gpu";
  ort.version = v("1.22.0");
  ort.cuda_build = true;
  ort.cuda_version = v("12.2");
  ort.cudnn_version = v("9");
  PythonEnvFacts venv;
  venv.path = "C:\\Users\\alice\\ort";
  venv.kind = "venv";
  venv.python_version = v("3.12.7");
  ort.location = venv.path + "\\Lib\\site-packages";
  venv.frameworks.push_back(ort);
  f.python_envs.push_back(venv);
  f.windows.emplace();
  for (const PythonEnvFacts& e : f.python_envs) {
    DllLoad l;
    l.framework = e.frameworks.front().name;
    l.env = e.path;
    l.dll = l.framework == "torch" ? "cublas64_12.dll" : "cudnn64_9.dll";
    l.loader = l.framework == "torch" ? "torch-dll-loader" : "onnxruntime-provider-bridge";
    f.windows->dll_loads.push_back(l);
  }
  const auto fs = run_checks(f, &testing::builtin_kb());
  int told = 0;
  for (const Finding& x : fs) {
    if (x.id != "windows-dll-not-found") continue;
    ++told;
    if (windows_says(x.title, "PyTorch")) {
      EXPECT_TRUE(windows_says(x.fix, "py -3.11 -m pip")) << x.fix;
    } else {
      EXPECT_TRUE(windows_says(x.fix, "C:\\Users\\alice\\ort\\Scripts\\python.exe -m pip")) << x.fix;
    }
  }
  EXPECT_EQ(told, 2) << windows_ids(fs);
}

}  // namespace
}  // namespace gpudoctor
