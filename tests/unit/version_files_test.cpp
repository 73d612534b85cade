#include "probe/version_files.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/pci_ids.hpp"

namespace gpudoctor {
namespace {

TEST(NvidiaProcVersion, ProprietaryAndOpenModules) {
  auto p = parse_nvidia_proc_version(
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"
      "GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->version.str(), "535.104.05");
  EXPECT_EQ(p->version, *Version::parse("535.104.05"));
  EXPECT_EQ(p->flavor, "proprietary");
  auto o = parse_nvidia_proc_version(
      "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build  "
      "(dvs-builder@U16-I3-B03-4-3)  Thu Feb 22 01:25:25 UTC 2024\n");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->version, *Version::parse("550.54.14"));
  EXPECT_EQ(o->flavor, "open");
  // "x86_64" must not be taken for the version, and junk gives nothing.
  EXPECT_FALSE(parse_nvidia_proc_version("NVRM version: garbage\n"));
  EXPECT_FALSE(parse_nvidia_proc_version(std::string("\0\xff\xfe", 3)));
}

TEST(CudaVersionFiles, JsonTxtAndNvcc) {
  auto j = parse_cuda_version_json(R"J({"cuda": {"name": "CUDA SDK", "version": "12.2.20230823"},
                                       "cuda_cudart": {"name": "CUDA Runtime (cudart)", "version": "12.2.140"}})J");
  ASSERT_TRUE(j);
  EXPECT_EQ(j->str(), "12.2");  // the date stamp is not a patch level
  auto c = parse_cuda_version_json(R"({"cuda_cudart": {"version": "11.8.89"}})");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->str(), "11.8.89");
  EXPECT_FALSE(parse_cuda_version_json("{\"cuda\": 12}"));
  EXPECT_FALSE(parse_cuda_version_json("{truncated"));
  auto t = parse_cuda_version_txt("CUDA Version 10.0.130\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->str(), "10.0.130");
  auto n =
      parse_nvcc_version("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 12.1, V12.1.105\n");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->str(), "12.1");
}

TEST(Headers, CudnnNcclCudaTensorrt) {
  auto cudnn = parse_cudnn_header(
      "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n"
      "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n");
  ASSERT_TRUE(cudnn);
  EXPECT_EQ(cudnn->str(), "8.9.7");
  auto nccl = parse_nccl_header("#define NCCL_MAJOR 2\n#define NCCL_MINOR 28\n#define NCCL_PATCH 9\n");
  ASSERT_TRUE(nccl);
  EXPECT_EQ(nccl->str(), "2.28.9");
  auto cuda = parse_cuda_h("#define CUDA_VERSION 12020\n");
  ASSERT_TRUE(cuda);
  EXPECT_EQ(cuda->str(), "12.2");
  auto trt = parse_tensorrt_header(
      "#define NV_TENSORRT_MAJOR 10 //!< major\n#define NV_TENSORRT_MINOR 3\n#define NV_TENSORRT_PATCH 0\n");
  ASSERT_TRUE(trt);
  EXPECT_EQ(trt->str(), "10.3.0");
  EXPECT_FALSE(parse_cudnn_header("#define CUDNN_MAJOR eight\n#define CUDNN_MINOR 9\n"));
  // Minor and patch present: only the exact-name check on CUDNN_MAJORX can refuse it.
  EXPECT_FALSE(parse_cudnn_header("#define CUDNN_MAJORX 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n"));
}

TEST(Headers, ReadsTheRealToolkitWhenPresent) {
  std::ifstream f("/usr/local/cuda/include/cudnn_version.h");
  if (!f) GTEST_SKIP() << "no CUDA toolkit with cuDNN at /usr/local/cuda on this machine";
  std::stringstream ss;
  ss << f.rdbuf();
  auto v = parse_cudnn_header(ss.str());
  ASSERT_TRUE(v);
  EXPECT_GE(v->major(), 8);
}

TEST(LibraryNames, LinuxAndWindowsForms) {
  auto a = parse_library_name("libcudnn.so.8.9.7");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->stem, "libcudnn");
  EXPECT_EQ(a->version->str(), "8.9.7");
  auto b = parse_library_name("libcudnn_ops_infer.so.8");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->stem, "libcudnn_ops_infer");
  auto dev = parse_library_name("libcudnn.so");
  ASSERT_TRUE(dev);
  EXPECT_FALSE(dev->version);
  auto c = parse_library_name("cudart64_110.dll");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->stem, "cudart");
  EXPECT_EQ(c->version->str(), "11.0");
  auto d = parse_library_name("cudnn64_8.dll");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->stem, "cudnn");
  EXPECT_EQ(d->version->str(), "8");
  auto e = parse_library_name("cudart64_12.dll");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->version->str(), "12");
  EXPECT_FALSE(parse_library_name("README.txt"));
  EXPECT_FALSE(parse_library_name("libfoo.so.x.y"));
  EXPECT_FALSE(parse_library_name(".so"));
}

TEST(PciIds, OnlyNvidiaDevices) {
  auto names = parse_pci_ids_nvidia(
      "# comment\n1002  AMD\n\t2503  not nvidia\n10de  NVIDIA Corporation\n\t2503  GA106 [GeForce RTX 3060]\n"
      "\t\t1043 8818  ASUS subsystem\n\t2330  GH100 [H100 SXM5 80GB]\n10df  Emulex\n\t2504  other\n");
  EXPECT_EQ(names.size(), 2u);
  EXPECT_EQ(names["2503"], "GA106 [GeForce RTX 3060]");
  EXPECT_EQ(names["2330"], "GH100 [H100 SXM5 80GB]");
}

// The loader cache parser is tested on a cache written by the real ldconfig
// (tests/fixtures/ld-so-cache, tests/unit/probe_features_test.cpp), not on this machine's.

// Found in review.
TEST(ReviewRegression, CraftedLdSoCacheCannotExhaustMemory) {
  // 43,000 entries that all point at one 4,000-byte string: before the fix, ~700 MB.
  std::string cache = "glibc-ld.so.cache1.1";
  const std::uint32_t n = 43'000;
  cache.resize(48, '\0');
  std::memcpy(cache.data() + 20, &n, 4);
  const std::uint32_t string_at = 48 + n * 24;
  for (std::uint32_t i = 0; i < n; ++i) {
    char entry[24] = {};
    std::memcpy(entry + 4, &string_at, 4);
    std::memcpy(entry + 8, &string_at, 4);
    cache.append(entry, 24);
  }
  cache += "libcudnn" + std::string(3990, 'x');
  cache += '\0';
  auto start = std::chrono::steady_clock::now();
  auto all = parse_ld_so_cache(cache);
  EXPECT_LE(all.size(), kMaxLdCacheEntries);
  auto filtered = parse_ld_so_cache(cache, {"libnccl"});
  EXPECT_TRUE(filtered.empty());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace gpudoctor
