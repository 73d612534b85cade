#include "platform/system_view.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

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

}  // namespace
}  // namespace gpudoctor
