// host_fs::writable_by_others: the check before a library found by searching (numpy's bundled
// OpenBLAS) is loaded and run. Whoever may write to the file, or to any folder above it, could put
// their own library there. Every tree below is made by the test in its own scratch folder.
#include <grp.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "core/text.hpp"
#include "platform/host_fs.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

struct Scratch {
  fs::path dir;
  Scratch() {
    dir = fs::temp_directory_path() / ("gpudoctor-ownership-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms(0755));
  }
  ~Scratch() { fs::remove_all(dir); }
  fs::path file(const fs::path& rel, unsigned mode = 0644) const {
    fs::path p = dir / rel;
    fs::create_directories(p.parent_path());
    for (fs::path q = p.parent_path(); q != dir; q = q.parent_path()) fs::permissions(q, fs::perms(0755));
    std::FILE* out = std::fopen(p.c_str(), "w");
    EXPECT_NE(out, nullptr) << p;
    if (out != nullptr) std::fclose(out);
    fs::permissions(p, fs::perms(mode));
    return p;
  }
};

TEST(HostFsOwnership, OwnFilesInOwnFoldersAreTrusted) {
  Scratch s;
  // /tmp above is world-writable but sticky: no one else may rename what is ours in it.
  const fs::path lib = s.file("venv/site-packages/numpy.libs/libscipy_openblas64_-x.so");
  EXPECT_EQ(host_fs::writable_by_others(lib.string()), "");
}

TEST(HostFsOwnership, AFolderAnyoneMayWriteAboveTheLibraryIsRefused) {
  Scratch s;
  const fs::path lib = s.file("shared/venv/site-packages/numpy.libs/libopenblas.so");
  fs::permissions(s.dir / "shared", fs::perms(0777));
  const std::string why = host_fs::writable_by_others(lib.string());
  EXPECT_TRUE(contains(why, (s.dir / "shared").string() + " is writable by every user")) << why;
  // With the sticky bit (as /tmp) others cannot rename our folder in it.
  fs::permissions(s.dir / "shared", fs::perms(01777));
  EXPECT_EQ(host_fs::writable_by_others(lib.string()), "");
  // The file itself writable by everyone.
  fs::permissions(lib, fs::perms(0666));
  EXPECT_TRUE(contains(host_fs::writable_by_others(lib.string()), "libopenblas.so is writable by every user"));
}

TEST(HostFsOwnership, ALinkIsJudgedByWhereItLeads) {
  Scratch s;
  const fs::path target = s.file("open/libopenblas.so.0");
  fs::permissions(s.dir / "open", fs::perms(0777));
  fs::create_directories(s.dir / "numpy.libs");
  fs::create_symlink(target, s.dir / "numpy.libs" / "libopenblas.so");
  const std::string why = host_fs::writable_by_others((s.dir / "numpy.libs" / "libopenblas.so").string());
  EXPECT_TRUE(contains(why, (s.dir / "open").string() + " is writable by every user")) << why;
  EXPECT_TRUE(contains(host_fs::writable_by_others((s.dir / "none.so").string()), "No such file"));
  // Not a regular file (a FIFO, a folder): nothing to load.
  EXPECT_TRUE(contains(host_fs::writable_by_others(s.dir.string()), "is not a regular file"));
}

// The link's own folder counts too: whoever may write there can point the link elsewhere.
TEST(HostFsOwnership, ALinkInAFolderAnyoneMayWriteIsRefused) {
  Scratch s;
  const fs::path target = s.file("safe/libopenblas.so.0");
  fs::create_directories(s.dir / "numpy.libs");
  fs::create_symlink(target, s.dir / "numpy.libs" / "libopenblas.so");
  EXPECT_EQ(host_fs::writable_by_others((s.dir / "numpy.libs" / "libopenblas.so").string()), "");
  fs::permissions(s.dir / "numpy.libs", fs::perms(0777));
  const std::string why = host_fs::writable_by_others((s.dir / "numpy.libs" / "libopenblas.so").string());
  EXPECT_TRUE(contains(why, (s.dir / "numpy.libs").string() + " is writable by every user")) << why;
}

// With a POSIX access ACL the mode's group bits are the ACL's mask: a named user may write,
// whatever group owns the file. (setfacl -m u:4321:rw, written as the kernel's xattr.)
TEST(HostFsOwnership, AnAccessControlListThatMayGrantWriteIsRefused) {
  Scratch s;
  const fs::path lib = s.file("venv/numpy.libs/libopenblas.so", 0664);
  struct Entry {
    std::uint16_t tag, perm;
    std::uint32_t id;
  };
  struct {
    std::uint32_t version = 2;
    Entry e[5] = {{0x01, 6, 0xffffffffu},
                  {0x02, 6, 4321},
                  {0x04, 4, 0xffffffffu},
                  {0x10, 6, 0xffffffffu},
                  {0x20, 4, 0xffffffffu}};
  } acl;
  static_assert(sizeof acl == 4 + 5 * 8);
  if (::setxattr(lib.c_str(), "system.posix_acl_access", &acl, sizeof acl, 0) != 0)
    GTEST_SKIP() << "this file system keeps no POSIX ACLs here: " << std::strerror(errno);
  const std::string why = host_fs::writable_by_others(lib.string());
  EXPECT_TRUE(contains(why, "libopenblas.so has an access control list that may let others write")) << why;
}

// Debian's and Fedora's user private groups: umask 002 makes every file the user creates
// group-writable, for a group that is the user alone. Another group's write is refused.
TEST(HostFsOwnership, GroupWriteIsTrustedOnlyForTheUsersOwnGroup) {
  Scratch s;
  const fs::path lib = s.file("venv/numpy.libs/libopenblas.so", 0664);
  for (const fs::path& d : {s.dir / "venv", s.dir / "venv" / "numpy.libs"}) fs::permissions(d, fs::perms(0775));
  struct passwd* me = ::getpwuid(::geteuid());
  ASSERT_NE(me, nullptr);
  struct group* mine = ::getgrgid(me->pw_gid);
  const bool private_group =
      mine != nullptr && std::string(mine->gr_name) == me->pw_name &&
      (mine->gr_mem[0] == nullptr || (std::string(mine->gr_mem[0]) == me->pw_name && mine->gr_mem[1] == nullptr));
  if (private_group) {
    EXPECT_EQ(host_fs::writable_by_others(lib.string()), "");
  } else {
    EXPECT_TRUE(contains(host_fs::writable_by_others(lib.string()), "is writable by group id"));
  }
  // A group shared with others ("users", or any group not named after this user).
  if (::geteuid() != 0) GTEST_SKIP() << "changing a file's group to one this user is not in needs root";
  struct group* shared = ::getgrnam("users");
  ASSERT_NE(shared, nullptr) << "no group 'users'";
  ASSERT_EQ(::chown((s.dir / "venv").c_str(), static_cast<uid_t>(-1), shared->gr_gid), 0);
  const std::string why = host_fs::writable_by_others(lib.string());
  EXPECT_TRUE(contains(why, (s.dir / "venv").string() + " is writable by group id " + std::to_string(shared->gr_gid)))
      << why;
}

TEST(HostFsOwnership, AnotherUsersFileIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "giving a file to another user needs root";
  Scratch s;
  const fs::path lib = s.file("venv/numpy.libs/libopenblas.so");
  ASSERT_EQ(::chown(lib.c_str(), 4321, static_cast<gid_t>(-1)), 0);
  EXPECT_TRUE(contains(host_fs::writable_by_others(lib.string()), "belongs to user id 4321"));
  // Root loading a library another user owns would run that user's code as root.
  ASSERT_EQ(::chown(lib.c_str(), 0, static_cast<gid_t>(-1)), 0);
  ASSERT_EQ(::chown((s.dir / "venv").c_str(), 4321, static_cast<gid_t>(-1)), 0);
  EXPECT_TRUE(
      contains(host_fs::writable_by_others(lib.string()), (s.dir / "venv").string() + " belongs to user id 4321"));
}

}  // namespace
}  // namespace gpudoctor
