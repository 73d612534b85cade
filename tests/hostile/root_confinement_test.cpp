// D1: --root confinement holds while the tree changes under the doctor. A child, dropped to an
// unprivileged user, swaps a directory and a symlink that points outside the root as fast as
// it can; every read through SystemView must see the file inside the root or fail, never the
// file outside. Both resolution paths are run: the kernel's (openat2) and the component walk.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "hostile_support.hpp"
#include "platform/system_view.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;

/// Starts a child that exchanges a and b until killed; -1 when it cannot run unprivileged.
pid_t start_swapper(const fs::path& a, const fs::path& b) {
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  if (::getuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(10);
  for (;;) {
#ifdef SYS_renameat2
    ::syscall(SYS_renameat2, AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), 2 /* RENAME_EXCHANGE */);
#else
    ::_exit(11);
#endif
  }
}

void race(bool kernel_resolution) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty());
  scratch.write("outside/torch/version.py", "__version__ = 'LEAKED'\n");
  scratch.write("root/site/torch/version.py", "__version__ = '2.3.1'\n");
  fs::create_directory_symlink(scratch.path() / "outside/torch", scratch.path() / "root/site/torch.link");
  // The swapper runs as nobody: it may change the tree, nothing else.
  for (const auto& p : {scratch.path(), scratch.path() / "root", scratch.path() / "root/site"}) {
    ASSERT_EQ(::chown(p.c_str(), 65534, 65534), 0);
  }
  pid_t swapper = start_swapper(scratch.path() / "root/site/torch", scratch.path() / "root/site/torch.link");
  ASSERT_GT(swapper, 0);
  SystemView::Options o;
  o.root = (scratch.path() / "root").string();
  o.kernel_resolution = kernel_resolution;
  SystemView view(o);
  size_t inside = 0;
  size_t leaked = 0;
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < end) {
    for (const char* p : {"/site/torch/version.py", "/site/torch.link/version.py"}) {
      auto text = view.read_file(p);
      if (!text) continue;
      if (text->find("LEAKED") != std::string::npos) ++leaked;
      if (text->find("2.3.1") != std::string::npos) ++inside;
    }
  }
  ::kill(swapper, SIGKILL);
  int status = 0;
  ::waitpid(swapper, &status, 0);
  EXPECT_EQ(leaked, 0u) << "a read followed the link out of the root";
  EXPECT_GT(inside, 0u) << "the race left nothing readable: the test proved nothing";
}

TEST(RootConfinement, D1_SwapRaceNeverLeavesTheRootKernelResolution) {
  if (::getuid() != 0) GTEST_SKIP() << "needs root to hand the tree to uid 65534";
  race(true);
}

TEST(RootConfinement, D1_SwapRaceNeverLeavesTheRootComponentWalk) {
  if (::getuid() != 0) GTEST_SKIP() << "needs root to hand the tree to uid 65534";
  race(false);
}

TEST(RootConfinement, D1_BothResolutionsAgreeOnLinks) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty());
  scratch.write("root/usr/local/cuda-12.4/version.txt", "CUDA Version 12.4.1\n");
  scratch.write("escape/secret", "LEAKED");
  fs::create_directory_symlink("/usr/local/cuda-12.4", scratch.path() / "root/usr/local/cuda");
  fs::create_directory_symlink("../../../../escape", scratch.path() / "root/usr/local/up");
  fs::create_symlink("/proc/self/root/etc/passwd", scratch.path() / "root/magic");
  for (bool kernel : {true, false}) {
    SystemView::Options o;
    o.root = (scratch.path() / "root").string();
    o.kernel_resolution = kernel;
    SystemView view(o);
    EXPECT_EQ(view.read_file("/usr/local/cuda/version.txt").value_or(""), "CUDA Version 12.4.1\n") << kernel;
    EXPECT_FALSE(view.read_file("/usr/local/up/secret")) << kernel;
    EXPECT_FALSE(view.read_file("/magic")) << kernel;
    EXPECT_TRUE(view.is_dir("/usr/local/cuda")) << kernel;
  }
}

}  // namespace
}  // namespace gpudoctor
