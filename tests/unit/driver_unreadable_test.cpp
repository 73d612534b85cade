/// D16 (hostile input): what could not be read is said as such, never as "missing" or silence.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include "check/checks.hpp"
#include "check_test_support.hpp"
#include "probe/library_dirs.hpp"
#include "probe/probes.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::has;

Facts driver_loaded_but_libcuda_unknown() {
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3060", "550.54.14");
  f.driver.version_source = "/proc/driver/nvidia/version";
  f.driver.nvidia_module_loaded = true;
  f.driver.files.push_back(DriverFile{"libcuda.so.1", "", std::nullopt, {"/usr/lib/x86_64-linux-gnu"}});
  f.driver.files.push_back(DriverFile{"libnvidia-ml.so.1", "", std::nullopt, {"/usr/lib/x86_64-linux-gnu"}});
  return f;
}

// A directory the doctor could not read (permission denied) made "libcuda.so.1 is missing", a
// wrong ✗ that sends people reinstalling a working driver. It is "could not be looked for".
TEST(DriverUnreadable, UnreadableLibraryDirectoryIsNotMissing) {
  const std::vector<Finding> fs = run_checks(driver_loaded_but_libcuda_unknown(), &testing::builtin_kb());
  EXPECT_FALSE(has(fs, "libcuda-missing"));
  EXPECT_FALSE(has(fs, "nvml-missing"));
  auto unchecked =
      std::count_if(fs.begin(), fs.end(), [](const Finding& f) { return f.id == "driver-library-unchecked"; });
  EXPECT_EQ(unchecked, 2);
  auto f = testing::find_copy(fs, "driver-library-unchecked");
  ASSERT_TRUE(f.has_value());
  EXPECT_NE(f->title.find("/usr/lib/x86_64-linux-gnu"), std::string::npos) << f->title;
  EXPECT_EQ(f->severity, Severity::warning);
}

// Without an unreadable place, a library not found is still missing (the error stays).
TEST(DriverUnreadable, ReadableButAbsentIsStillMissing) {
  Facts f = driver_loaded_but_libcuda_unknown();
  for (DriverFile& d : f.driver.files) d.unreadable.clear();
  const std::vector<Finding> fs = run_checks(f, &testing::builtin_kb());
  EXPECT_TRUE(has(fs, "libcuda-missing"));
  EXPECT_FALSE(has(fs, "driver-library-unchecked"));
}

// A FIFO where the kernel writes /proc/driver/nvidia/version was skipped in silence.
TEST(DriverUnreadable, FifoKernelVersionFileIsAProblem) {
  testing::TempTree t;
  t.mkdir("proc/driver/nvidia");
  ASSERT_EQ(::mkfifo((t.path() / "proc/driver/nvidia/version").c_str(), 0600), 0);
  SystemView system = testing::view_of(t);
  Facts facts;
  probe_driver_files(system, read_loader_paths(system), facts);
  bool said = std::any_of(facts.problems.begin(), facts.problems.end(), [](const auto& p) {
    return p.path == "/proc/driver/nvidia/version" && p.message.find("not readable") != std::string::npos;
  });
  EXPECT_TRUE(said);
  EXPECT_FALSE(facts.driver.version.has_value());
}

// The probe side of the first test: a library directory the doctor may not search gives
// DriverFile.unreadable, not an empty "missing". Permission bits do not stop root, so the probe
// runs in a child that has dropped to "nobody".
TEST(DriverUnreadable, ProbeRecordsTheDirectoryItCouldNotSearch) {
  testing::TempTree t;
  t.mkdir("usr/lib/x86_64-linux-gnu");
  ::chmod(t.path().c_str(), 0755);
  ASSERT_EQ(::chmod((t.path() / "usr/lib/x86_64-linux-gnu").c_str(), 0), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(10);
    SystemView system = testing::view_of(t);
    Facts facts;
    probe_driver_files(system, read_loader_paths(system), facts);
    bool unreadable = false;
    bool missing_claimed = false;
    for (const DriverFile& f : facts.driver.files) {
      if (f.name != "libcuda.so.1") continue;
      unreadable =
          std::find(f.unreadable.begin(), f.unreadable.end(), "/usr/lib/x86_64-linux-gnu") != f.unreadable.end();
      missing_claimed = f.path.empty() && f.unreadable.empty();
    }
    ::_exit(unreadable && !missing_claimed ? 0 : 1);
  }
  ASSERT_GT(pid, 0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 10) GTEST_SKIP() << "running as root and cannot drop to uid 65534";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "libcuda.so.1 must carry the unsearchable /usr/lib/x86_64-linux-gnu";
}

}  // namespace
}  // namespace gpudoctor
