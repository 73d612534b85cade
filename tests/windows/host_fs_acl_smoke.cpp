// host_fs::writable_by_others on Windows (platform/host_fs_win32.cpp), run under wine by
// scripts/windows-check.sh: a library in a folder of our own is trusted; once the folder's access
// list lets Everyone add files, it is not, and the reason names who may write. Not built by CMake.
#include <windows.h>
// windows.h first
#include <aclapi.h>

#include <cstdio>
#include <string>

#include "platform/host_fs.hpp"

using namespace gpudoctor;

static int failures = 0;
#define CHECK(cond, text)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL line %d: %s (%s)\n", __LINE__, #cond, (text).c_str()); \
      ++failures;                                                              \
    } else {                                                                   \
      std::printf("ok   %s\n", #cond);                                         \
    }                                                                          \
  } while (0)

int main() {
  char temp[MAX_PATH];
  ::GetTempPathA(MAX_PATH, temp);
  const std::string dir = std::string(temp) + "gpudoctor-acl-" + std::to_string(::GetCurrentProcessId());
  const std::string lib = dir + "\\libopenblas.dll";
  ::CreateDirectoryA(dir.c_str(), nullptr);
  HANDLE f = ::CreateFileA(lib.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (f == INVALID_HANDLE_VALUE) {
    std::printf("FAIL cannot create %s\n", lib.c_str());
    return 1;
  }
  ::CloseHandle(f);
  const std::string before = host_fs::writable_by_others(lib);
  std::printf("before: '%s'\n", before.c_str());
  CHECK(before.empty(), before);
  // The same file named through the extended-length prefix is the same file.
  CHECK(host_fs::writable_by_others("\\\\?\\" + lib).empty(), host_fs::writable_by_others("\\\\?\\" + lib));
  // A share's access lists are not trusted, and the reason says so.
  const std::string share = host_fs::writable_by_others("\\\\server\\share\\libopenblas.dll");
  CHECK(!share.empty(), share);

  // Everyone may now add files to the folder (and so put a DLL beside ours).
  EXPLICIT_ACCESS_A grant{};
  grant.grfAccessPermissions = FILE_ADD_FILE;
  grant.grfAccessMode = GRANT_ACCESS;
  grant.grfInheritance = NO_INHERITANCE;
  grant.Trustee.TrusteeForm = TRUSTEE_IS_NAME;
  grant.Trustee.TrusteeType = TRUSTEE_IS_WELL_KNOWN_GROUP;
  grant.Trustee.ptstrName = const_cast<char*>("EVERYONE");
  PACL old_dacl = nullptr;
  PSECURITY_DESCRIPTOR sd = nullptr;
  DWORD rc = ::GetNamedSecurityInfoA(dir.c_str(), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr, nullptr,
                                     &old_dacl, nullptr, &sd);
  PACL new_dacl = nullptr;
  if (rc == ERROR_SUCCESS) rc = ::SetEntriesInAclA(1, &grant, old_dacl, &new_dacl);
  if (rc == ERROR_SUCCESS)
    rc = ::SetNamedSecurityInfoA(const_cast<char*>(dir.c_str()), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr,
                                 nullptr, new_dacl, nullptr);
  CHECK(rc == ERROR_SUCCESS, std::to_string(rc));
  const std::string after = host_fs::writable_by_others(lib);
  CHECK(!after.empty(), after);
  CHECK(after.find("Everyone") != std::string::npos || after.find("S-1-1-0") != std::string::npos, after);
  std::printf("after: '%s'\n", after.c_str());
  CHECK(!host_fs::writable_by_others(dir + "\\missing.dll").empty(), std::string("missing"));
  ::DeleteFileA(lib.c_str());
  ::RemoveDirectoryA(dir.c_str());
  return failures == 0 ? 0 : 1;
}
