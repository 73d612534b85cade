#include <gtest/gtest.h>

#include <random>
#include <string>

#include "probe/python/conda_meta.hpp"
#include "probe/python/dist_info.hpp"
#include "probe/python/python_literal.hpp"
#include "probe/python/pyvenv_cfg.hpp"
#include "probe/python/tf_build_info.hpp"
#include "probe/python/torch_version.hpp"

namespace gpudoctor {
namespace {

// The exact text of TensorFlow 2.20.0's wheel (manylinux x86_64), after the licence header.
constexpr const char* kTf220BuildInfo = R"(
"""Auto-generated module providing information about the build."""
import collections

build_info = collections.OrderedDict([('cpu_compiler', 'clang 18'), ('cuda_compute_capabilities', ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']), ('cuda_version', '12.5.1'), ('cudnn_version', '9'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', False)])
)";

TEST(TfBuildInfo, ReadsTheOrderedDictForm) {
  TfBuildInfo info = parse_tf_build_info(kTf220BuildInfo);
  EXPECT_EQ(info.form, "ordered-dict");
  EXPECT_EQ(info.is_cuda_build, true);
  EXPECT_EQ(info.is_rocm_build, false);
  EXPECT_EQ(info.is_tensorrt_build, false);
  EXPECT_EQ(info.cuda_version, "12.5.1");
  EXPECT_EQ(info.cudnn_version, "9");
  EXPECT_EQ(info.compute_capabilities, (std::vector<std::string>{"sm_60", "sm_70", "sm_80", "sm_89", "compute_90"}));
  EXPECT_TRUE(info.problems.empty()) << info.problems.front();
}

TEST(TfBuildInfo, ReadsTheWindowsCpuForm) {
  TfBuildInfo info = parse_tf_build_info(
      "build_info = collections.OrderedDict([('is_cuda_build', False), ('is_rocm_build', False), "
      "('is_tensorrt_build', False), ('msvcp_dll_names', 'msvcp140.dll,msvcp140_1.dll')])\n");
  EXPECT_EQ(info.is_cuda_build, false);
  EXPECT_TRUE(info.cuda_version.empty());
  EXPECT_TRUE(info.problems.empty());
}

TEST(TfBuildInfo, DecodesWindowsDllSuffixVersions) {
  EXPECT_EQ(decode_windows_dll_version("64_112"), "11.2");
  EXPECT_EQ(decode_windows_dll_version("64_101"), "10.1");
  EXPECT_EQ(decode_windows_dll_version("64_90"), "9.0");
  EXPECT_EQ(decode_windows_dll_version("64_12"), "12");
  EXPECT_EQ(decode_windows_dll_version("64_8"), "8");
  EXPECT_EQ(decode_windows_dll_version("12.2"), "12.2");
  EXPECT_EQ(decode_windows_dll_version("64_"), "64_");
  EXPECT_EQ(decode_windows_dll_version("64_1x2"), "64_1x2");
  TfBuildInfo info = parse_tf_build_info(
      "build_info = collections.OrderedDict([('cuda_version', '64_112'), ('cudart_dll_name', "
      "'cudart64_112.dll'), ('cudnn_version', '64_8'), ('is_cuda_build', True)])\n");
  EXPECT_TRUE(info.dll_suffix_form);
  EXPECT_EQ(info.cuda_version, "11.2");
  EXPECT_EQ(info.cudnn_version, "8");
  EXPECT_EQ(info.cudart_dll_name, "cudart64_112.dll");
}

TEST(TfBuildInfo, ReadsTheOldModuleAttributeForm) {
  TfBuildInfo info = parse_tf_build_info(
      "# comment\nis_rocm_build = False\nis_cuda_build = True\ncuda_version_number = '10.0'\n"
      "cudnn_version_number = '7'\n");
  EXPECT_EQ(info.form, "module-attributes");
  EXPECT_EQ(info.is_cuda_build, true);
  EXPECT_EQ(info.cuda_version, "10.0");
  EXPECT_EQ(info.cudnn_version, "7");
}

TEST(TfBuildInfo, ReadsADictDisplayAndMultiLineLists) {
  TfBuildInfo info = parse_tf_build_info(
      "build_info = {'cuda_version': '11.2', 'cudnn_version': '8',\n"
      "  'is_cuda_build': True, 'cuda_compute_capabilities': ['sm_35',\n 'sm_80']}\n");
  EXPECT_EQ(info.form, "dict");
  EXPECT_EQ(info.cuda_version, "11.2");
  EXPECT_EQ(info.compute_capabilities.size(), 2u);
}

TEST(TfBuildInfo, TruncatedFileIsAProblemNotACrash) {
  std::string text = kTf220BuildInfo;
  for (size_t cut = 0; cut < text.size(); cut += 7) {
    TfBuildInfo info = parse_tf_build_info(std::string_view(text).substr(0, cut));
    if (cut < text.find("('is_rocm")) {
      EXPECT_FALSE(info.problems.empty()) << "cut at " << cut;
    }
  }
  TfBuildInfo cut = parse_tf_build_info(text.substr(0, text.find("('cudnn")));
  EXPECT_FALSE(cut.is_cuda_build.has_value());
  EXPECT_FALSE(cut.problems.empty());
}

TEST(TfBuildInfo, BinaryJunkIsRejected) {
  std::string junk(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0",
      10);
  junk += std::string(100, '\xff');
  TfBuildInfo info = parse_tf_build_info(junk);
  EXPECT_FALSE(info.is_cuda_build.has_value());
  ASSERT_FALSE(info.problems.empty());
  EXPECT_NE(info.problems.front().find("binary"), std::string::npos);
}

TEST(TfBuildInfo, NonBooleanIsCudaBuildIsReported) {
  TfBuildInfo info = parse_tf_build_info("build_info = collections.OrderedDict([('is_cuda_build', 'maybe')])\n");
  EXPECT_FALSE(info.is_cuda_build.has_value());
  EXPECT_FALSE(info.problems.empty());
}

TEST(TorchVersion, ReadsCudaBuild) {
  TorchVersionInfo t = parse_torch_version(
      "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', "
      "'hip']\n__version__ = '2.3.1+cu121'\ndebug = False\ncuda: Optional[str] = '12.1'\n"
      "git_version = '63d5e9221bedd1546b7d364b5ce4171547db12a9'\nhip: Optional[str] = None\n");
  EXPECT_EQ(t.version, "2.3.1+cu121");
  EXPECT_TRUE(t.has_cuda_field);
  EXPECT_EQ(t.cuda, "12.1");
  EXPECT_FALSE(t.hip.has_value());
  EXPECT_TRUE(t.problems.empty());
}

TEST(TorchVersion, ReadsCpuRocmAndOldForms) {
  TorchVersionInfo cpu = parse_torch_version("__version__ = '2.3.1+cpu'\ncuda: Optional[str] = None\n");
  EXPECT_TRUE(cpu.has_cuda_field);
  EXPECT_FALSE(cpu.cuda.has_value());
  TorchVersionInfo rocm = parse_torch_version(
      "__version__ = '2.3.1+rocm6.0'\ncuda: Optional[str] = None\nhip: Optional[str] = '6.0.32830-d62f6a171'\n");
  EXPECT_EQ(rocm.hip, "6.0.32830-d62f6a171");
  TorchVersionInfo old = parse_torch_version("__version__ = '1.10.0+cu113'\ndebug = False\ncuda = '11.3'\n");
  EXPECT_EQ(old.cuda, "11.3");
}

TEST(TorchVersion, GarbageGivesProblems) {
  TorchVersionInfo t = parse_torch_version("this is not python at all \n = = '\n__version__ = '2.3");
  EXPECT_TRUE(t.version.empty());
  EXPECT_FALSE(t.has_cuda_field);
  EXPECT_FALSE(t.problems.empty());
}

TEST(DistInfo, ParsesDirectoryNames) {
  auto d = parse_dist_dir_name("nvidia_cudnn_cu12-9.1.0.70.dist-info");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->name, "nvidia-cudnn-cu12");
  EXPECT_EQ(d->version, "9.1.0.70");
  auto t = parse_dist_dir_name("torch-2.3.1+cu121.dist-info");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->version, "2.3.1+cu121");
  auto egg = parse_dist_dir_name("tensorflow_gpu-1.15.0-py3.7.egg-info");
  ASSERT_TRUE(egg);
  EXPECT_EQ(egg->name, "tensorflow-gpu");
  EXPECT_EQ(egg->version, "1.15.0");
  EXPECT_FALSE(parse_dist_dir_name("torch"));
  EXPECT_FALSE(parse_dist_dir_name(".dist-info"));
  EXPECT_FALSE(parse_dist_dir_name("bad name!-1.0.dist-info"));
  EXPECT_EQ(normalize_dist_name("Jax_CUDA12.Plugin"), "jax-cuda12-plugin");
}

TEST(DistInfo, ParsesMetadataHeadersOnly) {
  DistMetadata md =
      parse_dist_metadata("Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.15.0\nSummary: x\n\nVersion: 9.9.9\n");
  EXPECT_EQ(md.name, "tensorflow");
  EXPECT_EQ(md.version, "2.15.0");
  EXPECT_TRUE(md.problems.empty());
  DistMetadata junk = parse_dist_metadata(std::string("\0\x01\x02PK\x03\x04", 8));
  EXPECT_FALSE(junk.problems.empty());
  DistMetadata empty = parse_dist_metadata("");
  EXPECT_EQ(empty.problems.size(), 2u);
}

TEST(DistInfo, NvidiaWheelNames) {
  auto c = parse_nvidia_wheel_name("nvidia-cudnn-cu12");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->library, "cudnn");
  EXPECT_EQ(c->cuda_major, 12);
  auto rt = parse_nvidia_wheel_name("nvidia-cuda-runtime-cu11");
  ASSERT_TRUE(rt);
  EXPECT_EQ(rt->library, "cudart");
  EXPECT_EQ(rt->cuda_major, 11);
  auto cublas13 = parse_nvidia_wheel_name("nvidia-cublas");
  ASSERT_TRUE(cublas13);
  EXPECT_EQ(cublas13->library, "cublas");
  EXPECT_FALSE(cublas13->cuda_major.has_value());
  EXPECT_EQ(parse_nvidia_wheel_name("nvidia-cuda-nvrtc-cu12")->library, "nvrtc");
  EXPECT_FALSE(parse_nvidia_wheel_name("nvidia-"));
  EXPECT_FALSE(parse_nvidia_wheel_name("numpy"));
}

TEST(PyvenvCfg, ReadsVenvVirtualenvAndUv) {
  PyvenvCfg venv = parse_pyvenv_cfg(
      "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.10.12\n"
      "executable = /usr/bin/python3.10\ncommand = /usr/bin/python3 -m venv /home/a/.venv\n");
  EXPECT_EQ(venv.python_version, "3.10.12");
  EXPECT_EQ(venv.home, "/usr/bin");
  EXPECT_EQ(venv.creator, "venv");
  PyvenvCfg ve = parse_pyvenv_cfg(
      "home = /x/bin\nimplementation = CPython\n"
      "version_info = 3.7.17.final.0\nvirtualenv = 20.26.3\n");
  EXPECT_EQ(ve.python_version, "3.7.17");
  EXPECT_EQ(ve.creator, "virtualenv");
  PyvenvCfg uv = parse_pyvenv_cfg(
      "home = /x/bin\nimplementation = CPython\nuv = 0.4.0\n"
      "version_info = 3.12.5\ninclude-system-site-packages = true\n");
  EXPECT_EQ(uv.creator, "uv");
  EXPECT_TRUE(uv.include_system_site_packages);
  PyvenvCfg junk = parse_pyvenv_cfg("garbage\n");
  EXPECT_FALSE(junk.problems.empty());
}

TEST(CondaMeta, ParsesFileNames) {
  auto py = parse_conda_meta_filename("python-3.11.9-h955ad1f_0.json");
  ASSERT_TRUE(py);
  EXPECT_EQ(py->name, "python");
  EXPECT_EQ(py->version, "3.11.9");
  auto dashed = parse_conda_meta_filename("pytorch-cuda-12.1-ha16c6d3_5.json");
  ASSERT_TRUE(dashed);
  EXPECT_EQ(dashed->name, "pytorch-cuda");
  EXPECT_EQ(dashed->version, "12.1");
  EXPECT_FALSE(parse_conda_meta_filename("history"));
  EXPECT_FALSE(parse_conda_meta_filename("x-y.json"));
  EXPECT_FALSE(parse_conda_meta_filename("-a-b.json"));
}

TEST(PythonLiteral, NestingIsBounded) {
  std::string deep(10000, '[');
  size_t used = 0;
  auto v = pyfile::parse_literal(deep, used);
  EXPECT_EQ(v.kind, pyfile::PyValue::Kind::unknown);
  EXPECT_EQ(used, 0u);
}

// Every parser survives random bytes and random cuts of valid input.
TEST(PythonParsers, SurviveRandomInput) {
  std::mt19937 rng(12345);
  const std::string seeds[] = {kTf220BuildInfo, "__version__ = '2.3.1'\ncuda = '12.1'\n", "Name: x\nVersion: 1\n",
                               "home = /usr/bin\nversion = 3.1\n"};
  for (int i = 0; i < 2000; ++i) {
    std::string s = seeds[i % 4];
    int edits = static_cast<int>(rng() % 8);
    for (int e = 0; e < edits && !s.empty(); ++e) s[rng() % s.size()] = static_cast<char>(rng() % 256);
    s.resize(rng() % (s.size() + 1));
    // Whatever the input: what comes out is bounded, and nothing is invented from nothing.
    TfBuildInfo tf = parse_tf_build_info(s);
    EXPECT_LE(tf.cuda_version.size(), s.size());
    EXPECT_LE(tf.compute_capabilities.size(), s.size());
    for (const auto& p : tf.problems) EXPECT_LE(p.size(), 400u) << p;
    if (s.empty()) EXPECT_TRUE(tf.form.empty());
    TorchVersionInfo torch = parse_torch_version(s);
    EXPECT_LE(torch.version.size(), s.size());
    if (torch.cuda) EXPECT_LE(torch.cuda->size(), s.size());
    DistMetadata md = parse_dist_metadata(s);
    EXPECT_LE(md.name.size() + md.version.size(), s.size());
    (void)parse_pyvenv_cfg(s);
    if (auto d = parse_dist_dir_name(s)) EXPECT_LE(d->name.size() + d->version.size(), s.size());
    (void)parse_conda_meta_filename(s);
    (void)parse_nvidia_wheel_name(s);
  }
}

}  // namespace
}  // namespace gpudoctor
