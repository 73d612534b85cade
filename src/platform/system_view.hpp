#pragma once
/// SystemView: the one door through which every probe sees a machine: a filesystem root,
/// an environment, a platform, and (on the live machine only) a process runner. Probes never
/// touch "/" or getenv directly, so the same probe runs on this machine, on a mounted disk,
/// on an unpacked container image, and on a test fixture.
///
/// Paths given to SystemView are in the *target's* namespace: "/usr/local/cuda/version.json"
/// on Linux, "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2" on Windows. They
/// are resolved under the root component by component; symlinks (absolute ones too) are
/// followed inside the root and can never lead out of it, even while the tree changes: the
/// kernel resolves inside the root (openat2 RESOLVE_IN_ROOT) or, where it cannot, each
/// component is opened relative to its parent's descriptor without following links
/// (openat O_NOFOLLOW), so no path is checked first and opened later (docs/security.md).
///
/// Every bound a lookup reaches (a file larger than asked for, a directory with more entries
/// than listed, the resolution budget) is recorded in bounds_hit(): the doctor reports it, so
/// nothing is cut silently.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "model/platform.hpp"
#include "platform/host_fs.hpp"
#include "platform/process_runner.hpp"

namespace gpudoctor {

using EnvMap = std::map<std::string, std::string>;
class Registry;

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
    /// Let the kernel resolve inside the root where it can (openat2); false forces the
    /// component-by-component walk (tests exercise both).
    bool kernel_resolution = true;
    /// A Windows target's registry: the live one, or a `reg export` file (--registry); null
    /// when none is known. Not owned.
    const Registry* registry = nullptr;
  };

  explicit SystemView(Options options);

  /// The live machine as seen by this process: root "/", the process environment, the
  /// detected platform.
  static SystemView host(const ProcessRunner* runner);

  [[nodiscard]] Platform platform() const { return options_.platform; }
  [[nodiscard]] bool is_windows() const { return options_.platform == Platform::windows; }
  [[nodiscard]] bool is_live() const { return options_.live; }
  [[nodiscard]] const std::string& root() const { return options_.root; }
  /// The target's registry (platform/registry.hpp); null when none is known.
  [[nodiscard]] const Registry* registry() const { return options_.registry; }

  /// Reads at most max_bytes; a larger file is recorded in bounds_hit() (the parsers see what
  /// fits, the report says what was not read). Only regular files are read: a FIFO or device
  /// never blocks a probe.
  [[nodiscard]] Result<std::string> read_file(std::string_view path, size_t max_bytes = kDefaultReadLimit) const;
  /// The first max_bytes of a file whose head is all a parser needs (a version define at the
  /// top of a header, an ELF header): the rest is not wanted, so nothing is recorded.
  [[nodiscard]] Result<std::string> read_head(std::string_view path, size_t max_bytes) const;
  /// At most max_bytes from byte `offset` on (an ELF section named by its header); shorter at the
  /// end of the file, empty past it. Like read_head, nothing is recorded.
  [[nodiscard]] Result<std::string> read_range(std::string_view path, std::uint64_t offset, size_t max_bytes) const;
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

  /// A bound reached while reading the target: what was not read, in words. Probes with
  /// their own bounds (entries of PATH looked at, toolkits kept) record them here too.
  struct BoundHit {
    std::string path;
    std::string what;
  };
  void note_bound(std::string path, std::string what) const;
  [[nodiscard]] const std::vector<BoundHit>& bounds_hit() const { return bounds_hit_; }
  /// How many bounds were hit in all (bounds_hit() keeps the first kMaxBoundsKept).
  [[nodiscard]] std::size_t bounds_hit_count() const { return bounds_hit_count_; }
  static constexpr std::size_t kMaxBoundsKept = 20;

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
    host_fs::HandleRef parent;  ///< directory holding the entry; null for the root itself
    std::string name;           ///< the entry's name in parent
    host_fs::HandleRef dir;     ///< the directory itself, when the path names one
    host_fs::Kind kind = host_fs::Kind::other;
    std::vector<std::string> components;  ///< target components after link resolution
  };
  [[nodiscard]] Result<Resolved> resolve(std::string_view path) const;
  /// openat2 inside the root; unsupported when the kernel cannot (then resolve() walks).
  [[nodiscard]] Result<host_fs::HandleRef> open_by_kernel(std::string_view path, host_fs::OpenAs as) const;
  [[nodiscard]] bool use_kernel_resolution() const;
  /// The case-insensitive lookup of a Windows tree: one index per directory, built once.
  [[nodiscard]] std::optional<std::string> find_ignoring_case(const host_fs::Handle& dir, const std::string& dir_key,
                                                              const std::string& name) const;
  [[nodiscard]] Result<std::string> read_impl(std::string_view path, size_t max_bytes, bool record_cut,
                                              std::uint64_t offset = 0) const;
  [[nodiscard]] std::vector<std::string> target_components(std::string_view path) const;

  Options options_;
  /// Path components examined so far. A tree built to make resolution expensive (thousands of
  /// 40-hop link chains) hits Options::max_resolve_steps and every later lookup fails with
  /// too_large, so one run stays bounded in time whatever the tree.
  mutable std::size_t resolve_steps_ = 0;
  host_fs::HandleRef root_handle_;  ///< null when the root could not be opened
  std::optional<Error> root_error_;
  /// Windows: the drive the root stands for (C: in a tree; the system drive on the live host).
  char system_drive_ = 'C';
  bool live_drives_ = false;  ///< the live Windows host, rooted at its system drive
  /// The live Windows host: another drive's root ("D:\\"), for a path whose first component is
  /// "D:". In a tree another drive is a folder, "drive-d".
  [[nodiscard]] Result<host_fs::HandleRef> live_drive_root(char letter) const;
  mutable bool kernel_resolution_unavailable_ = false;
  mutable std::map<std::string, std::map<std::string, std::string>> case_index_;
  mutable std::vector<BoundHit> bounds_hit_;
  mutable std::size_t bounds_hit_count_ = 0;
};

/// The platform a tree belongs to, read through a provisional Linux view of it: a Windows tree
/// has Windows\System32 (any case); a WSL2 kernel names Microsoft or WSL in its release string.
Platform detect_platform(const SystemView& linux_view);

/// Parses KEY=VALUE lines (an --env-file). '#' comments, blank lines, optional "export ",
/// and quoted values are accepted; malformed lines (a NUL byte in one included) are reported,
/// never fatal. Problems are bounded: the first kMaxProblems, then a count of the rest. UTF-8
/// (a byte-order mark skipped) or UTF-16LE (what Windows PowerShell 5.1's `>` writes).
struct EnvFile {
  EnvMap env;
  std::vector<std::string> problems;
  static constexpr size_t kMaxProblems = 20;
};
EnvFile parse_env_file(std::string_view text);

}  // namespace gpudoctor
