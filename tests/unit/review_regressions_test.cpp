// Regression tests, one per bug found in review (named after it).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "check/checks.hpp"
#include "core/text.hpp"
#include "kb/knowledge_base.hpp"
#include "platform/process_runner.hpp"
#include "platform/system_view.hpp"
#include "probe/probes.hpp"
#include "probe/version_files.hpp"
#include "render/doctor_report.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::TempTree;

SystemView view_of(const TempTree& t, Platform p = Platform::linux, EnvMap env = {}) {
  return SystemView(SystemView::Options{t.str(), p, std::move(env), false, nullptr});
}

const Finding* find(const std::vector<Finding>& fs, const std::string& id) {
  for (const auto& f : fs) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

TEST(ReviewRegression, CpuOnlyJaxOnAGpuMachineIsAnError) {
  Facts f;
  f.live = true;
  f.gpus.push_back(GpuFacts{.name = "NVIDIA RTX A6000", .source = "proc"});
  PythonEnvFacts env{.path = "/home/u/.venv", .kind = "venv"};
  FrameworkFacts jax{.name = "jax", .package = "jax", .version = *Version::parse("0.6.2")};
  jax.cuda_build = false;
  jax.variant = "cpu";
  env.frameworks.push_back(jax);
  f.python_envs.push_back(env);
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "framework-cpu-only"), nullptr);
  EXPECT_EQ(find(fs, "framework-cpu-only")->severity, Severity::error);
  EXPECT_NE(find(fs, "framework-cpu-only")->fix.find("jax[cuda12]"), std::string::npos);
}

TEST(ReviewRegression, InstallConflictsAreErrorsNotUnreadableMetadata) {
  Facts f;
  PythonEnvFacts env{.path = "/home/u/.venv", .kind = "venv"};
  FrameworkFacts jax{.name = "jax", .package = "jax", .version = *Version::parse("0.6.2")};
  jax.conflicts.push_back("jax-cuda12-plugin 0.5.0 does not match jaxlib 0.6.2; JAX will not use it");
  env.frameworks.push_back(jax);
  f.python_envs.push_back(env);
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "framework-install-conflict"), nullptr);
  EXPECT_EQ(find(fs, "framework-install-conflict")->severity, Severity::error);
  EXPECT_EQ(find(fs, "framework-metadata-unreadable"), nullptr);
}

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

TEST(ReviewRegression, WindowsDllSuffixIsNotAVersion) {
  EXPECT_FALSE(Version::parse("64_101").has_value());
  EXPECT_FALSE(Version::parse("64_8").has_value());
  EXPECT_TRUE(Version::parse("2.16.0rc0").has_value());
}

TEST(ReviewRegression, OtherDrivesReadAsThemselves) {
  TempTree t;
  t.write("drive-d/NVIDIA GPU Computing Toolkit/CUDA/v11.2/version.txt", "CUDA Version 11.2.2\n");
  auto sv = view_of(t, Platform::windows);
  auto c = sv.canonical("d:\\nvidia gpu computing toolkit\\cuda\\v11.2");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(*c, "D:\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2");
  EXPECT_EQ(*sv.canonical("C:\\"), "C:\\");
}

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

TEST(ReviewRegression, EscapeCodesInNamesNeverReachTheTerminal) {
  Facts f;
  std::vector<Finding> fs = {Finding{.id = "python-env",
                                     .severity = Severity::ok,
                                     .area = FindingArea::python,
                                     .title = "x\x1b]0;pwned\a\x1b[2J\nFAKE [✓] All good",
                                     .detail = "a\rb"}};
  std::string text = render_doctor_text(f, fs, TextStyle{.color = false, .verbose = true});
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\a'), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text.find("\nFAKE"), std::string::npos);
  EXPECT_NE(text.find("\\x1b]0;pwned"), std::string::npos);
  EXPECT_EQ(terminal_safe("tab\tok"), "tab\tok");
}

TEST(ReviewRegression, DeviceNodesInATreeAreNeverOpened) {
  if (::geteuid() != 0) GTEST_SKIP() << "creating a device node needs root";
  TempTree t;
  t.mkdir("etc");
  // A character device like /dev/null (1,3): opening it would succeed, so only the type
  // check before open() keeps it out.
  ASSERT_EQ(::mknod((t.path() / "etc/os-release").c_str(), S_IFCHR | 0600, makedev(1, 3)), 0);
  auto sv = view_of(t);
  auto r = sv.read_file("/etc/os-release");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::invalid_data);
}

TEST(ReviewRegression, AChildThatClosesItsOutputAndLingersIsStoppedAtTheDeadline) {
  HostProcessRunner r;
  auto start = std::chrono::steady_clock::now();
  auto out = r.run({"sh", "-c", "exec >&- 2>&-; sleep 30"}, std::chrono::milliseconds(500));
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().kind, ErrorKind::timeout);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(ReviewRegression, IdenticalGpusGiveOneVerdictWithAllTheirEvidence) {
  auto kb = KnowledgeBase::load("");
  ASSERT_TRUE(kb) << kb.error().message;
  Facts f;
  f.live = true;
  f.driver.version = *Version::parse("570.133.07");
  f.driver.nvidia_module_loaded = true;
  for (const char* bus : {"0000:01:00.0", "0000:02:00.0", "0000:03:00.0"}) {
    f.gpus.push_back(
        GpuFacts{.name = "NVIDIA GeForce GTX 1080 Ti", .source = "proc", .pci_bus_id = bus, .kernel_driver = "nvidia"});
  }
  PythonEnvFacts env{.path = "/home/u/.venv", .kind = "venv"};
  FrameworkFacts torch{.name = "torch", .package = "torch", .version = *Version::parse("2.8.0+cu128")};
  torch.cuda_build = true;
  torch.cuda_version = *Version::parse("12.8");
  torch.variant = "cu128";
  env.frameworks.push_back(torch);
  f.python_envs.push_back(env);
  auto fs = run_checks(f, &*kb);
  int count = 0;
  for (const auto& x : fs) count += x.id == "gpu-arch-unsupported-by-framework";
  EXPECT_EQ(count, 1) << "three identical cards, one verdict";
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

TEST(ReviewRegression, PathResolutionWorkIsBoundedPerRun) {
  testing::TempTree t;
  // A 40-hop chain: each lookup through it costs ~40 steps; enough lookups exhaust the budget
  // and then fail fast instead of running on.
  t.write("target", "x");
  t.symlink("/target", "l0");
  for (int i = 1; i < 40; ++i) t.symlink("/l" + std::to_string(i - 1), "l" + std::to_string(i));
  SystemView::Options o{t.str(), Platform::linux, {}, false, nullptr};
  o.max_resolve_steps = 20'000;
  // The component walk counts link hops against the budget; with openat2 the kernel bounds
  // each lookup itself (40 hops), so only the walk is measured here.
  o.kernel_resolution = false;
  SystemView sv(o);
  auto start = std::chrono::steady_clock::now();
  size_t ok = 0;
  size_t refused = 0;
  for (size_t i = 0; i < o.max_resolve_steps / 40 + 1000; ++i) {
    auto r = sv.stat("/l39");
    if (r) {
      ++ok;
    } else {
      ASSERT_EQ(r.error().kind, ErrorKind::too_large);
      ++refused;
    }
  }
  EXPECT_GT(ok, 0u);
  EXPECT_GT(refused, 0u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
}

}  // namespace
}  // namespace gpudoctor
