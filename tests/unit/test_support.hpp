#pragma once
/// Helpers for tests that need a scratch directory tree, and the SystemView that reads it.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>

#include "platform/system_view.hpp"

namespace gpudoctor::testing {

/// A temporary directory removed at the end of the test.
class TempTree {
 public:
  TempTree() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("gpudoctor-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempTree() {
    std::error_code ec;
    // Restore permissions a test may have removed, so cleanup works.
    for (auto it = std::filesystem::recursive_directory_iterator(
             path_, std::filesystem::directory_options::skip_permission_denied, ec);
         it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all, std::filesystem::perm_options::add,
                                   ec);
    }
    std::filesystem::remove_all(path_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::string str() const { return path_.string(); }

  /// Writes a file (creating parent directories) relative to the tree.
  void write(const std::string& rel, const std::string& content) const {
    auto p = path_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
  }
  void mkdir(const std::string& rel) const { std::filesystem::create_directories(path_ / rel); }
  void symlink(const std::string& target, const std::string& rel) const {
    auto p = path_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::filesystem::create_symlink(target, p);
  }

 private:
  std::filesystem::path path_;
};

/// The tree seen as the root of a machine of this platform with this environment (no live
/// probing, the defaults for everything else).
inline SystemView view_of(const TempTree& t, Platform p = Platform::linux, EnvMap env = {}) {
  return SystemView(SystemView::Options{t.str(), p, std::move(env), false, nullptr});
}

}  // namespace gpudoctor::testing
