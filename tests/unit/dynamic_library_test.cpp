#include "platform/dynamic_library.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

TEST(DynamicLibrary, OpensBySonameAndReportsTheAbsolutePath) {
  auto lib = DynamicLibrary::open("libm.so.6");
  ASSERT_TRUE(lib) << lib.error().message;
  EXPECT_EQ(lib->requested(), "libm.so.6");
  EXPECT_TRUE(fs::path(lib->path()).is_absolute()) << lib->path();
  EXPECT_TRUE(fs::exists(lib->path())) << lib->path();
  // The loader's file, links resolved.
  EXPECT_EQ(lib->path(), fs::canonical(lib->path()).string());
  EXPECT_NE(lib->symbol("cos"), nullptr);
  EXPECT_EQ(lib->symbol("gpudoctor_no_such_symbol"), nullptr);
}

TEST(DynamicLibrary, MissingLibraryIsNotFoundWithTheLoadersWords) {
  auto lib = DynamicLibrary::open("libgpudoctor-no-such-library.so.1");
  ASSERT_FALSE(lib);
  EXPECT_EQ(lib.error().kind, ErrorKind::not_found);
  EXPECT_EQ(lib.error().origin, "libgpudoctor-no-such-library.so.1");
  EXPECT_EQ(lib.error().message,
            "libgpudoctor-no-such-library.so.1: cannot open shared object file: No such file or "
            "directory");
}

TEST(DynamicLibrary, NonLibraryFileIsLoadFailed) {
  fs::path path = fs::temp_directory_path() / ("gpudoctor-dl-" + std::to_string(::getpid()) + ".so");
  std::ofstream(path) << "this is not an ELF file, it is a text file pretending to be one\n";
  auto lib = DynamicLibrary::open(path.string());
  fs::remove(path);
  ASSERT_FALSE(lib);
  EXPECT_EQ(lib.error().kind, ErrorKind::load_failed);
  EXPECT_EQ(lib.error().message, path.string() + ": invalid ELF header");
}

TEST(DynamicLibrary, OpenFirstPrefersTheEarlierNameAndTheMoreTellingError) {
  auto lib = DynamicLibrary::open_first({"libgpudoctor-absent.so.1", "libm.so.6"});
  ASSERT_TRUE(lib);
  EXPECT_EQ(lib->requested(), "libm.so.6");

  fs::path junk = fs::temp_directory_path() / ("gpudoctor-dl2-" + std::to_string(::getpid()) + ".so");
  std::ofstream(junk) << "junk";
  auto none = DynamicLibrary::open_first({"libgpudoctor-absent.so.1", junk.string()});
  fs::remove(junk);
  ASSERT_FALSE(none);
  // "Found but refused" says more than "not there".
  EXPECT_EQ(none.error().kind, ErrorKind::load_failed);
  EXPECT_EQ(none.error().origin, junk.string());
}

TEST(DynamicLibrary, MoveTransfersTheHandle) {
  auto lib = DynamicLibrary::open("libm.so.6");
  ASSERT_TRUE(lib);
  DynamicLibrary a = std::move(lib).value();
  DynamicLibrary b = std::move(a);
  EXPECT_NE(b.symbol("cos"), nullptr);
  EXPECT_EQ(a.symbol("cos"), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty
  a = std::move(b);
  EXPECT_NE(a.symbol("cos"), nullptr);
}

}  // namespace
}  // namespace gpudoctor
