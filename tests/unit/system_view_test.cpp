#include "platform/system_view.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::TempTree;

using testing::view_of;

TEST(SystemView, ReadsFilesUnderTheRoot) {
  TempTree t;
  t.write("etc/os-release", "ID=debian\n");
  auto sv = view_of(t);
  auto text = sv.read_file("/etc/os-release");
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(*text, "ID=debian\n");
  auto missing = sv.read_file("/etc/nothing");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::not_found);
}

TEST(SystemView, AbsoluteSymlinksStayInsideTheRoot) {
  TempTree t;
  t.write("usr/local/cuda-12.2/version.json", "{}");
  t.symlink("/usr/local/cuda-12.2", "usr/local/cuda");
  // A link that points at the host's /etc must resolve to <root>/etc, which does not exist.
  t.symlink("/etc/passwd", "escape");
  t.symlink("../../../../../../../../etc/passwd", "escape-relative");
  auto sv = view_of(t);
  EXPECT_TRUE(sv.is_file("/usr/local/cuda/version.json"));
  auto canon = sv.canonical("/usr/local/cuda");
  ASSERT_TRUE(canon);
  EXPECT_EQ(*canon, "/usr/local/cuda-12.2");
  EXPECT_FALSE(sv.read_file("/escape").has_value());
  EXPECT_FALSE(sv.read_file("/escape-relative").has_value());
  EXPECT_FALSE(sv.read_file("/../../../etc/passwd").has_value());
}

TEST(SystemView, SymlinkLoopsAreAnErrorNotAHang) {
  TempTree t;
  t.symlink("/b", "a");
  t.symlink("/a", "b");
  auto sv = view_of(t);
  auto r = sv.read_file("/a");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::invalid_data);
  auto listing = sv.list_dir("/");
  ASSERT_TRUE(listing);
  EXPECT_EQ(listing->size(), 2u);
}

TEST(SystemView, ReadLimitCutsHugeFilesAndRefusesFifos) {
  TempTree t;
  t.write("big", std::string(3 << 20, 'x'));
  ASSERT_EQ(::mkfifo((t.path() / "fifo").c_str(), 0600), 0);
  auto sv = view_of(t);
  auto big = sv.read_file("/big", 1024);
  ASSERT_TRUE(big);
  EXPECT_EQ(big->size(), 1024u);
  auto fifo = sv.read_file("/fifo");  // must not block
  ASSERT_FALSE(fifo);
  EXPECT_EQ(fifo.error().kind, ErrorKind::invalid_data);
}

TEST(SystemView, UnreadableDirectoryIsPermissionDenied) {
  TempTree t;
  t.mkdir("secret/inner");
  std::filesystem::permissions(t.path() / "secret", std::filesystem::perms::none);
  auto sv = view_of(t);
  auto denied = [&] {
    auto r = sv.list_dir("/secret");
    return !r && r.error().kind == ErrorKind::permission_denied;
  };
  if (::geteuid() != 0) {
    EXPECT_TRUE(denied());
    return;
  }
  // Permission bits do not stop root (CI runs as root): ask in a child dropped to "nobody".
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(10);
    ::_exit(denied() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_NE(WEXITSTATUS(status), 10) << "running as root and cannot drop to uid 65534";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "an unreadable directory must be permission_denied";
}

TEST(SystemView, WindowsPathsMapDriveCToTheRootCaseInsensitively) {
  TempTree t;
  t.write("Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.2/version.json", "{}");
  t.write("drive-d/tools/x.txt", "d");
  auto sv = view_of(t, Platform::windows, {{"Path", "C:\\Windows;D:\\tools"}});
  EXPECT_TRUE(sv.is_file("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2\\version.json"));
  EXPECT_TRUE(sv.is_file("c:\\program files\\nvidia gpu computing toolkit\\cuda\\V12.2\\VERSION.JSON"));
  EXPECT_TRUE(sv.is_file("D:\\tools\\x.txt"));
  EXPECT_EQ(sv.env("PATH").value_or(""), "C:\\Windows;D:\\tools");
  EXPECT_EQ(sv.env_list("PATH").size(), 2u);
}

TEST(EnvFile, ParsesAssignmentsAndReportsJunk) {
  auto e = parse_env_file("# comment\nexport A=1\nB=\"two words\"\nCUDA_VISIBLE_DEVICES=\nnot a line\n\x01\x02\n");
  EXPECT_EQ(e.env.at("A"), "1");
  EXPECT_EQ(e.env.at("B"), "two words");
  EXPECT_EQ(e.env.at("CUDA_VISIBLE_DEVICES"), "");
  EXPECT_EQ(e.problems.size(), 2u);
}

// Found in review.
TEST(ReviewRegression, OtherDrivesReadAsThemselves) {
  TempTree t;
  t.write("drive-d/NVIDIA GPU Computing Toolkit/CUDA/v11.2/version.txt", "CUDA Version 11.2.2\n");
  auto sv = view_of(t, Platform::windows);
  auto c = sv.canonical("d:\\nvidia gpu computing toolkit\\cuda\\v11.2");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(*c, "D:\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2");
  EXPECT_EQ(*sv.canonical("C:\\"), "C:\\");
}

// Found in review.
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

// Found in review.
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

// <sys/sysmacros.h>'s major()/minor() are macros: in a unity batch they would rewrite the next
// file's Version::major() calls.
#undef major
#undef minor
