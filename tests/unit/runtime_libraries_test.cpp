// Where verify looks for the runtime libraries (gpu/runtime_libraries.hpp): the loader's own
// search for "system", existing files first for a folder source, and the lib folders of a
// Python environment's nvidia-* wheels.
#include "gpu/runtime_libraries.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace gpudoctor::gpu {
namespace {

namespace fs = std::filesystem;

const RuntimeLibrarySpec& spec(const std::string& name) {
  for (const auto& s : runtime_library_specs()) {
    if (s.name == name) return s;
  }
  throw std::runtime_error("no spec " + name);
}

class RuntimeLibraryPlaces : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("gpudoctor-rtlib-" + std::to_string(::getpid()));
    fs::create_directories(root_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  fs::path root_;
};

TEST_F(RuntimeLibraryPlaces, SystemAsksTheLoaderBySonameNewestFirst) {
  auto names = library_candidates(LibrarySource{.label = "system", .dirs = {}}, spec("cudnn"));
  EXPECT_EQ(names, (std::vector<std::string>{"libcudnn.so.9", "libcudnn.so.8"}));
}

TEST_F(RuntimeLibraryPlaces, WheelLibFoldersAndTheFilesThatExistInThem) {
  fs::path site = root_ / "lib/python3.12/site-packages";
  for (const char* pkg : {"cudnn", "cublas", "nccl"}) fs::create_directories(site / "nvidia" / pkg / "lib");
  fs::create_directories(site / "nvidia" / "no_lib_here");
  std::ofstream(site / "nvidia/cudnn/lib/libcudnn.so.9") << "x";
  auto dirs = wheel_library_dirs({site.string()});
  ASSERT_EQ(dirs.size(), 3U);
  EXPECT_EQ(dirs[0], (site / "nvidia/cublas/lib").string());
  LibrarySource source{.label = root_.string(), .dirs = dirs};
  EXPECT_EQ(library_candidates(source, spec("cudnn")),
            (std::vector<std::string>{(site / "nvidia/cudnn/lib/libcudnn.so.9").string()}));
  // Nothing there: every place it looked, so the report can say so.
  auto nccl = library_candidates(source, spec("nccl"));
  EXPECT_EQ(nccl.size(), 3U);
  EXPECT_EQ(nccl[2], (site / "nvidia/nccl/lib/libnccl.so.2").string());
}

}  // namespace
}  // namespace gpudoctor::gpu
