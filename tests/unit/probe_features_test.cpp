// One small tree per documented probe feature (README "The doctor reports"), each asserting
// the facts the feature alone produces: delete the feature's call and its test fails. The
// trees are built here, in a scratch folder, the way the real installs lay the files out.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "probe/inventory.hpp"
#include "probe/library_dirs.hpp"
#include "probe/probes.hpp"
#include "probe/version_files.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::TempTree;

using testing::view_of;

Facts inventory(const TempTree& t, EnvMap env = {}) {
  return collect_facts(view_of(t, Platform::linux, std::move(env)), InventoryOptions{.query_driver_libraries = false});
}

const ToolkitFacts* toolkit_at(const Facts& f, std::string_view path) {
  for (const auto& tk : f.toolkits) {
    if (tk.path == path) return &tk;
  }
  return nullptr;
}

const LibraryFacts* library(const Facts& f, std::string_view name, std::string_view dir) {
  for (const auto& l : f.libraries) {
    if (l.name == name && l.path == dir) return &l;
  }
  return nullptr;
}

std::string toolkits(const Facts& f) {
  std::string s;
  for (const auto& tk : f.toolkits) s += tk.path + " (" + tk.kind + ", " + tk.version_source + ") ";
  return s.empty() ? "(none)" : s;
}

std::string libraries(const Facts& f) {
  std::string s;
  for (const auto& l : f.libraries) s += l.name + "@" + l.path + " ";
  return s.empty() ? "(none)" : s;
}

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const char* kVersionJson124 = R"({"cuda" : {"name" : "CUDA SDK", "version" : "12.4.1"}})";

// ---- toolkits ----

TEST(ProbeFeatures, ToolkitUnderOpt) {
  TempTree t;
  t.write("opt/cuda-12.4/version.json", kVersionJson124);
  Facts f = inventory(t);
  const ToolkitFacts* tk = toolkit_at(f, "/opt/cuda-12.4");
  ASSERT_NE(tk, nullptr) << toolkits(f);
  ASSERT_TRUE(tk->version);
  EXPECT_EQ(tk->version->truncated(2).str(), "12.4");
  EXPECT_TRUE(has(tk->found_via, "/opt/cuda-12.4"));
}

TEST(ProbeFeatures, DebianToolkitUnderUsrLibCuda) {
  TempTree t;
  t.write("usr/lib/cuda/version.txt", "CUDA Version 11.8.89\n");
  Facts f = inventory(t);
  const ToolkitFacts* tk = toolkit_at(f, "/usr/lib/cuda");
  ASSERT_NE(tk, nullptr) << toolkits(f);
  ASSERT_TRUE(tk->version);
  EXPECT_EQ(tk->version->str(), "11.8.89");
  EXPECT_EQ(tk->version_source, "version.txt");
}

// The layout of Debian bookworm's nvidia-cuda-toolkit 11.8.89~11.8.0-5~deb12u1 as dpkg -x
// unpacks it: /usr/lib/cuda holds links to the headers and an empty bin/, the compiler lives in
// /usr/lib/nvidia-cuda-toolkit/bin and /usr/bin/nvcc is a wrapper script. One toolkit, with
// nvcc: it was reported as two, the second "version unknown ... incomplete or damaged".
TEST(ProbeFeatures, DebianPackagedToolkitIsOneToolkitWithNvcc) {
  TempTree t;
  t.write("usr/include/cuda.h", "#ifndef __cuda_cuda_h__\n#define CUDA_VERSION 11080\n#endif\n");
  t.symlink("../../../include/cuda.h", "usr/lib/cuda/include/cuda.h");
  t.mkdir("usr/lib/cuda/bin");
  t.mkdir("usr/lib/cuda/lib64");
  t.write("usr/lib/nvidia-cuda-toolkit/bin/nvcc",
          "\x7f"
          "ELF");
  t.write("usr/lib/nvidia-cuda-toolkit/bin/nvcc.profile", "TOP = $(_HERE_)/..\n");
  t.write("usr/bin/nvcc", "#!/bin/sh\n\nexec /usr/lib/nvidia-cuda-toolkit/bin/nvcc \"$@\"\n");
  for (const EnvMap& env : {EnvMap{}, EnvMap{{"PATH", "/usr/local/bin:/usr/bin:/bin"}}}) {
    Facts f = inventory(t, env);
    ASSERT_EQ(f.toolkits.size(), 1u) << toolkits(f);
    const ToolkitFacts* tk = toolkit_at(f, "/usr/lib/cuda");
    ASSERT_NE(tk, nullptr) << toolkits(f);
    EXPECT_TRUE(tk->has_nvcc);
    ASSERT_TRUE(tk->version);
    EXPECT_EQ(tk->version->str(), "11.8");
    if (!env.empty()) EXPECT_TRUE(has(tk->found_via, "PATH nvcc"));
  }
}

TEST(ProbeFeatures, ToolkitVersionedFromCudaHAlone) {
  TempTree t;
  // No version.json, no version.txt, no runtime library: only the header says 12.3.
  t.write("usr/local/cuda-x/include/cuda.h", "#ifndef __cuda_cuda_h__\n#define CUDA_VERSION 12030\n#endif\n");
  Facts f = inventory(t, {{"CUDA_HOME", "/usr/local/cuda-x"}});
  const ToolkitFacts* tk = toolkit_at(f, "/usr/local/cuda-x");
  ASSERT_NE(tk, nullptr) << toolkits(f);
  ASSERT_TRUE(tk->version);
  EXPECT_EQ(tk->version->str(), "12.3");
  EXPECT_EQ(tk->version_source, "include/cuda.h");
}

TEST(ProbeFeatures, NvccWrapperScriptOnPathLeadsToItsToolkit) {
  TempTree t;
  t.write("srv/toolchains/nv-12.4/version.json", kVersionJson124);
  t.write("srv/toolchains/nv-12.4/bin/nvcc",
          "\x7f"
          "ELF");
  // Debian's /usr/bin/nvcc style: a shell script that execs the real compiler.
  t.write("usr/local/bin/nvcc", "#!/bin/sh\nexec /srv/toolchains/nv-12.4/bin/nvcc \"$@\"\n");
  Facts f = inventory(t, {{"PATH", "/usr/local/bin:/usr/bin"}});
  const ToolkitFacts* tk = toolkit_at(f, "/srv/toolchains/nv-12.4");
  ASSERT_NE(tk, nullptr) << toolkits(f);
  EXPECT_TRUE(has(tk->found_via, "PATH nvcc"));
  EXPECT_TRUE(tk->has_nvcc);
}

TEST(ProbeFeatures, CondaCudatoolkitIsAToolkit) {
  TempTree t;
  const std::string env = "/home/u/miniconda3/envs/tf";
  t.write(env.substr(1) + "/conda-meta/python-3.9.18-h955ad1f_0.json", "{}");
  t.write(env.substr(1) + "/conda-meta/cudatoolkit-11.2.2-hbe64b41_10.json", "{}");
  t.write(env.substr(1) + "/bin/python3.9", "");
  t.mkdir(env.substr(1) + "/lib/python3.9/site-packages");
  Facts f = inventory(t, {{"HOME", "/home/u"}, {"CONDA_PREFIX", env}});
  const ToolkitFacts* tk = nullptr;
  for (const auto& k : f.toolkits) {
    if (k.kind == "conda") tk = &k;
  }
  ASSERT_NE(tk, nullptr) << toolkits(f);
  EXPECT_EQ(tk->path, env);
  ASSERT_TRUE(tk->version);
  EXPECT_EQ(tk->version->str(), "11.2.2");
  EXPECT_EQ(tk->version_source, "conda-meta/cudatoolkit-11.2.2-hbe64b41_10.json");
}

// ---- libraries ----

TEST(ProbeFeatures, TensorRtWithItsHeader) {
  TempTree t;
  t.write("opt/TensorRT-10.3.0.26/lib/libnvinfer.so.10.3.0", "");
  t.symlink("libnvinfer.so.10.3.0", "opt/TensorRT-10.3.0.26/lib/libnvinfer.so.10");
  t.write("opt/TensorRT-10.3.0.26/include/NvInferVersion.h",
          "#define NV_TENSORRT_MAJOR 10\n#define NV_TENSORRT_MINOR 3\n#define NV_TENSORRT_PATCH 0\n");
  Facts f = inventory(t, {{"LD_LIBRARY_PATH", "/opt/TensorRT-10.3.0.26/lib"}});
  const LibraryFacts* trt = library(f, "tensorrt", "/opt/TensorRT-10.3.0.26/lib");
  ASSERT_NE(trt, nullptr) << libraries(f);
  ASSERT_TRUE(trt->version);
  EXPECT_EQ(trt->version->truncated(3).str(), "10.3.0");
  EXPECT_EQ(trt->origin, "ld-library-path");
}

TEST(ProbeFeatures, CudnnHeaderOfAnotherMajorDoesNotVersionTheLibrary) {
  TempTree t;
  // A cuDNN 8 library beside a cuDNN 9 header (a half-upgraded tarball): the header must not
  // speak for the library.
  t.write("opt/cudnn/lib/libcudnn.so.8", "");
  t.write("opt/cudnn/include/cudnn_version.h",
          "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  t.write("opt/nccl/lib/libnccl.so.2", "");
  t.write("opt/nccl/include/nccl.h", "#define NCCL_MAJOR 3\n#define NCCL_MINOR 0\n#define NCCL_PATCH 1\n");
  Facts f = inventory(t, {{"LD_LIBRARY_PATH", "/opt/cudnn/lib:/opt/nccl/lib"}});
  const LibraryFacts* cudnn = library(f, "cudnn", "/opt/cudnn/lib");
  ASSERT_NE(cudnn, nullptr) << libraries(f);
  ASSERT_TRUE(cudnn->version);
  EXPECT_EQ(cudnn->version->major(), 8);
  EXPECT_EQ(cudnn->version->str(), "8") << cudnn->version_source;
  const LibraryFacts* nccl = library(f, "nccl", "/opt/nccl/lib");
  ASSERT_NE(nccl, nullptr) << libraries(f);
  ASSERT_TRUE(nccl->version);
  EXPECT_EQ(nccl->version->str(), "2");
}

TEST(ProbeFeatures, CudnnHeaderOfTheSameMajorVersionsTheLibrary) {
  TempTree t;
  t.write("opt/cudnn/lib/libcudnn.so.9", "");
  t.write("opt/cudnn/include/cudnn_version.h",
          "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  Facts f = inventory(t, {{"LD_LIBRARY_PATH", "/opt/cudnn/lib"}});
  const LibraryFacts* cudnn = library(f, "cudnn", "/opt/cudnn/lib");
  ASSERT_NE(cudnn, nullptr) << libraries(f);
  ASSERT_TRUE(cudnn->version);
  EXPECT_EQ(cudnn->version->str(), "9.1.0");
}

// ---- the loader cache, from a real ldconfig (tests/fixtures/ld-so-cache/make-cache.sh) ----

const fs::path kLdCache = fs::path(GPUDOCTOR_FIXTURES_DIR) / "ld-so-cache" / "ld.so.cache";

TEST(LdSoCacheFixture, ParserReadsLdconfigsOwnFile) {
  const std::string data = slurp(kLdCache);
  ASSERT_FALSE(data.empty()) << kLdCache;
  auto all = parse_ld_so_cache(data);
  auto at = [&](const std::string& name) {
    auto it = all.find(name);
    return it == all.end() ? std::string("(absent)") : it->second;
  };
  EXPECT_EQ(all.size(), 4u);
  EXPECT_EQ(at("libcudnn.so.9"), "/opt/cudnn-9.1/lib/libcudnn.so.9");
  EXPECT_EQ(at("libcudnn_ops.so.9"), "/opt/cudnn-9.1/lib/libcudnn_ops.so.9");
  EXPECT_EQ(at("libcudart.so.12"), "/opt/nv/toolkit-12.4/lib64/libcudart.so.12");
  EXPECT_EQ(at("libfoo.so.1"), "/opt/other/lib/libfoo.so.1");
  // Truncations of a valid cache never crash and never invent entries.
  for (size_t cut : {size_t{0}, size_t{10}, size_t{60}, data.size() / 2}) {
    EXPECT_LE(parse_ld_so_cache(std::string_view(data).substr(0, cut)).size(), all.size());
  }
}

TEST(LdSoCacheFixture, NameFilterIsAPrefix) {
  auto cud = parse_ld_so_cache(slurp(kLdCache), {"libcud"});
  EXPECT_EQ(cud.size(), 3u);  // libcudnn, libcudnn_ops, libcudart: not libfoo
  EXPECT_EQ(cud.count("libfoo.so.1"), 0u);
  EXPECT_EQ(cud.count("libcudnn_ops.so.9"), 1u);
  // Whole names are prefixes of themselves.
  EXPECT_EQ(parse_ld_so_cache(slurp(kLdCache), {"libfoo.so.1"}).size(), 1u);
}

/// A tree whose CUDA libraries are reachable only through /etc/ld.so.cache: no ld.so.conf, no
/// LD_LIBRARY_PATH, nothing in the default directories.
void write_cache_only_tree(const TempTree& t) {
  t.write("etc/ld.so.cache", slurp(kLdCache));
  t.write("opt/cudnn-9.1/lib/libcudnn.so.9.1.0", "");
  t.symlink("libcudnn.so.9.1.0", "opt/cudnn-9.1/lib/libcudnn.so.9");
  t.write("opt/nv/toolkit-12.4/lib64/libcudart.so.12.4.127", "");
  t.symlink("libcudart.so.12.4.127", "opt/nv/toolkit-12.4/lib64/libcudart.so.12");
  t.write("opt/nv/toolkit-12.4/version.json", kVersionJson124);
}

TEST(LdSoCacheFixture, LoaderCacheEntriesKeepOnlyTheCudaStack) {
  TempTree t;
  write_cache_only_tree(t);
  auto entries = loader_cache_entries(view_of(t));
  std::vector<std::string> names;
  for (const auto& [name, path] : entries) names.push_back(name);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"libcudart.so.12", "libcudnn.so.9", "libcudnn_ops.so.9"}));
}

TEST(LdSoCacheFixture, LibrariesAndToolkitsFoundOnlyThroughTheCache) {
  TempTree t;
  write_cache_only_tree(t);
  Facts f = inventory(t);
  const LibraryFacts* cudnn = library(f, "cudnn", "/opt/cudnn-9.1/lib");
  ASSERT_NE(cudnn, nullptr) << libraries(f);
  ASSERT_TRUE(cudnn->version);
  EXPECT_EQ(cudnn->version->str(), "9.1.0");
  EXPECT_EQ(cudnn->origin, "system");
  EXPECT_TRUE(cudnn->loader_order.has_value()) << "a cached directory is on the loader's path";
  const ToolkitFacts* tk = toolkit_at(f, "/opt/nv/toolkit-12.4");
  ASSERT_NE(tk, nullptr) << toolkits(f);
  EXPECT_TRUE(has(tk->found_via, "ld.so.cache"));
}

// ---- containers ----

std::string container_of(const TempTree& t, EnvMap env = {}) {
  Facts f;
  probe_os(view_of(t, Platform::linux, std::move(env)), f);
  return f.os.container;
}

TEST(ProbeFeatures, ContainerMarkers) {
  struct Case {
    const char* file;  ///< relative to the root; nullptr: none
    const char* text;
    EnvMap env;
    const char* container;
  };
  const std::vector<Case> cases = {
      {".dockerenv", "", {}, "docker"},
      {"run/.containerenv", "engine=\"podman-4.3.1\"\n", {}, "podman"},
      {"proc/1/cgroup", "12:cpuset:/kubepods/besteffort/pod1234/abcd\n", {}, "kubernetes"},
      {"proc/1/cgroup", "11:devices:/docker/0123456789abcdef\n", {}, "docker"},
      {nullptr, "", {{"KUBERNETES_SERVICE_HOST", "10.0.0.1"}}, "kubernetes"},
      {"proc/1/cgroup", "0::/\n", {}, ""},  // cgroup v2 on a bare host says nothing
  };
  for (const Case& c : cases) {
    TempTree t;
    if (c.file != nullptr) t.write(c.file, c.text);
    EXPECT_EQ(container_of(t, c.env), c.container) << (c.file ? c.file : "environment");
  }
}

TEST(ProbeFeatures, Wsl2KernelMakesWsl2WhateverThePlatformSaid) {
  // `--platform linux` on a tree whose kernel is WSL2's: the kernel string wins.
  TempTree t;
  t.write("proc/sys/kernel/osrelease", "5.15.167.4-microsoft-standard-WSL2\n");
  Facts f;
  probe_os(view_of(t, Platform::linux), f);
  EXPECT_TRUE(f.os.wsl2);
  EXPECT_EQ(f.platform, Platform::wsl2);
  TempTree plain;
  plain.write("proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
  Facts g;
  probe_os(view_of(plain, Platform::linux), g);
  EXPECT_FALSE(g.os.wsl2);
  EXPECT_EQ(g.platform, Platform::linux);
}

// Found 2026-12-02: `arch` was set only on Windows, so an aarch64 Linux machine was never told
// apart and no `platform_machine` marker could be evaluated.
TEST(ProbeFeatures, LinuxArchitectureFromTheDynamicLoadersAbiPath) {
  auto arch_of = [](const TempTree& t) {
    Facts f;
    probe_os(view_of(t, Platform::linux), f);
    return f.os.arch;
  };
  TempTree x86;
  x86.write("usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "");
  x86.symlink("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "lib64/ld-linux-x86-64.so.2");
  EXPECT_EQ(arch_of(x86), "x86_64");
  TempTree arm;
  arm.write("lib/ld-linux-aarch64.so.1", "");
  arm.mkdir("usr/lib/x86_64-linux-gnu");  // a foreign multiarch directory does not outvote the loader
  EXPECT_EQ(arch_of(arm), "aarch64");
  TempTree multiarch_only;
  multiarch_only.mkdir("usr/lib/aarch64-linux-gnu");
  EXPECT_EQ(arch_of(multiarch_only), "aarch64");
  TempTree both;
  both.write("lib64/ld-linux-x86-64.so.2", "");
  both.write("lib/ld-linux-aarch64.so.1", "");
  EXPECT_EQ(arch_of(both), "") << "two loaders: which one runs is not told";
  TempTree bare;
  EXPECT_EQ(arch_of(bare), "");
}

// Found in review.
TEST(ReviewRegression, SystemHeaderDoesNotOverrideATarballsVersion) {
  TempTree t;
  t.write("opt/cudnn/lib/libcudnn.so.8.2.4", "");
  t.symlink("libcudnn.so.8.2.4", "opt/cudnn/lib/libcudnn.so.8");
  t.write("usr/include/cudnn_version.h", "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n");
  auto sv = view_of(t, Platform::linux, {{"LD_LIBRARY_PATH", "/opt/cudnn/lib"}});
  Facts f;
  probe_libraries(sv, read_loader_paths(sv), f);
  ASSERT_EQ(f.libraries.size(), 1u);
  EXPECT_EQ(f.libraries[0].version->str(), "8.2.4");
  EXPECT_EQ(f.libraries[0].origin, "ld-library-path");
  ASSERT_TRUE(f.libraries[0].loader_order.has_value());
}

}  // namespace
}  // namespace gpudoctor
