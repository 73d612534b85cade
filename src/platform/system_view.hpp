#pragma once
/// SystemView: the one door through which every probe sees a machine: a filesystem root,
/// an environment, a platform, and (on the live machine only) a process runner. Probes never
/// touch "/" or getenv directly, so the same probe runs on this machine, on a mounted disk,
/// on an unpacked container image, and on a test fixture.
///
/// Paths given to SystemView are in the *target's* namespace: "/usr/local/cuda/version.json"
/// on Linux, "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2" on Windows. They
/// are resolved under the root component by component; symlinks (absolute ones too) are
/// followed inside the root and can never lead out of it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "platform/platform.hpp"
#include "platform/process_runner.hpp"

namespace gpudoctor {

using EnvMap = std::map<std::string, std::string>;

struct DirEntry {
  std::string name;
  bool is_dir = false;  ///< after following symlinks (inside the root)
  bool is_symlink = false;
};

struct FileStat {
  bool is_dir = false;
  bool is_regular = false;
  std::uint64_t size_bytes = 0;
};

class SystemView {
 public:
  static constexpr size_t kDefaultReadLimit = 1 << 20;  ///< 1 MiB: no version file is larger
  static constexpr size_t kMaxDirEntries = 20'000;      ///< a listing stops there

  struct Options {
    std::string root = "/";  ///< host directory that stands for the target's "/" (or C:)
    Platform platform = Platform::linux;
    EnvMap env;  ///< the target's environment
    /// The live machine: processes may be run and libraries loaded. Never true under --root.
    bool live = false;
    const ProcessRunner* runner = nullptr;  ///< used only when live
    /// Budget of path components resolved in one run (a real doctor run uses a few thousand).
    std::size_t max_resolve_steps = 2'000'000;
  };

  explicit SystemView(Options options);

  /// The live machine as seen by this process: root "/", the process environment, the
  /// detected platform.
  static SystemView host(const ProcessRunner* runner);

  [[nodiscard]] Platform platform() const { return options_.platform; }
  [[nodiscard]] bool is_windows() const { return options_.platform == Platform::windows; }
  [[nodiscard]] bool is_live() const { return options_.live; }
  [[nodiscard]] const std::string& root() const { return options_.root; }

  /// Reads at most max_bytes (the rest is silently cut; parsers see what fits). Only regular
  /// files are read: a FIFO or device never blocks a probe.
  [[nodiscard]] Result<std::string> read_file(std::string_view path, size_t max_bytes = kDefaultReadLimit) const;
  [[nodiscard]] Result<std::vector<DirEntry>> list_dir(std::string_view path) const;
  [[nodiscard]] Result<FileStat> stat(std::string_view path) const;
  [[nodiscard]] bool exists(std::string_view path) const { return stat(path).has_value(); }
  [[nodiscard]] bool is_dir(std::string_view path) const;
  [[nodiscard]] bool is_file(std::string_view path) const;
  /// The target path a symlink chain ends at, in the target's namespace ("/usr/local/cuda" ->
  /// "/usr/local/cuda-13.0"). Equals the input when nothing is a link.
  [[nodiscard]] Result<std::string> canonical(std::string_view path) const;

  [[nodiscard]] std::optional<std::string> env(std::string_view name) const;
  [[nodiscard]] const EnvMap& environment() const { return options_.env; }
  /// PATH-like variable split with the platform's separator (':' or ';').
  [[nodiscard]] std::vector<std::string> env_list(std::string_view name) const;
  /// The user's home directory in the target namespace (HOME, USERPROFILE), if known.
  [[nodiscard]] std::optional<std::string> home() const;

  /// True once the resolution budget ran out: later lookups failed, the facts are partial.
  [[nodiscard]] bool resolution_budget_exhausted() const { return resolve_steps_ > options_.max_resolve_steps; }

  /// Null unless live.
  [[nodiscard]] const ProcessRunner* runner() const { return options_.live ? options_.runner : nullptr; }

  /// Joins target-namespace path pieces with the platform's separator.
  [[nodiscard]] std::string join(std::string_view a, std::string_view b) const;
  /// The directory part of a target path ("/usr/local/cuda/bin" -> "/usr/local/cuda",
  /// "/x" -> "/", "C:\\x" -> "C:\\"); empty for a bare name. Trailing separators are ignored.
  [[nodiscard]] std::string parent(std::string_view path) const;
  /// The last component of a target path ("/usr/local/cuda-12.2/" -> "cuda-12.2").
  [[nodiscard]] std::string base_name(std::string_view path) const;

 private:
  struct Resolved {
    std::string host;                     ///< host path
    std::vector<std::string> components;  ///< target components after link resolution
  };
  [[nodiscard]] Result<Resolved> resolve(std::string_view path) const;
  [[nodiscard]] std::vector<std::string> target_components(std::string_view path) const;

  Options options_;
  /// Path components examined so far. A tree built to make resolution expensive (thousands of
  /// 40-hop link chains) hits Options::max_resolve_steps and every later lookup fails with
  /// too_large, so one run stays bounded in time whatever the tree.
  mutable std::size_t resolve_steps_ = 0;
};

/// The platform a tree belongs to, read through a provisional Linux view of it: a Windows tree
/// has Windows\System32 (any case); a WSL2 kernel names Microsoft or WSL in its release string.
Platform detect_platform(const SystemView& linux_view);

/// Parses KEY=VALUE lines (an --env-file). '#' comments, blank lines, optional "export ",
/// and quoted values are accepted; malformed lines are reported, never fatal.
struct EnvFile {
  EnvMap env;
  std::vector<std::string> problems;
};
EnvFile parse_env_file(std::string_view text);

}  // namespace gpudoctor
