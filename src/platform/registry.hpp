#pragma once
/// The Windows registry, read-only, as the probes see it: the live registry of this host
/// (registry_win32.cpp: RegOpenKeyExW / RegEnumKeyExW / RegEnumValueW, in the 64-bit or the
/// 32-bit view) or a `reg export` file read on any host (registry.cpp), so a Windows
/// machine can be diagnosed from Linux (`--root C: --platform windows --registry FILE.reg`) and
/// the tests run anywhere. The file is untrusted input: bounded in size and count, every line
/// not understood reported.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor {

/// Which view of HKLM\SOFTWARE: 64-bit programs see the native keys, 32-bit programs the ones
/// Windows redirects to HKLM\SOFTWARE\WOW6432Node (a 32-bit Python registers itself there).
enum class RegistryBits { native64, wow32 };

struct RegistryValue {
  std::string name;  ///< "" for the key's default value (`@` in a .reg file)
  std::string type;  ///< "REG_SZ", "REG_EXPAND_SZ", "REG_MULTI_SZ", "REG_DWORD", "REG_QWORD", "REG_BINARY", ...
  /// String types: the text in UTF-8 (REG_MULTI_SZ: the strings joined by '\n'); numbers:
  /// decimal; binary: lower-case hex bytes.
  std::string text;
  std::optional<std::uint64_t> number;  ///< REG_DWORD / REG_QWORD
};

class Registry {
 public:
  virtual ~Registry() = default;
  /// key: "HKEY_LOCAL_MACHINE\\SOFTWARE\\..." or with a short root ("HKLM\\SOFTWARE\\...");
  /// case-insensitive, as Windows compares key names. not_found when the key is absent.
  [[nodiscard]] virtual Result<std::vector<std::string>> subkeys(std::string_view key, RegistryBits bits) const = 0;
  [[nodiscard]] virtual Result<std::vector<RegistryValue>> values(std::string_view key, RegistryBits bits) const = 0;
  /// Where the answers come from, for evidence: "the registry", "registry export x.reg".
  [[nodiscard]] virtual std::string source() const = 0;

  /// One value by name (case-insensitive; "" is the default value); nullopt when the key or
  /// the value is absent.
  [[nodiscard]] std::optional<RegistryValue> value(std::string_view key, std::string_view name,
                                                   RegistryBits bits = RegistryBits::native64) const;
  /// A string value's text (REG_SZ / REG_EXPAND_SZ), nullopt otherwise.
  [[nodiscard]] std::optional<std::string> text(std::string_view key, std::string_view name,
                                                RegistryBits bits = RegistryBits::native64) const;
  /// What could not be read (an export's lines not understood, its bounds): the probes report
  /// these as problems, so a damaged file is never read as a healthy machine.
  [[nodiscard]] const std::vector<std::string>& problems() const { return problems_; }
  /// Keeps the first kMaxProblems; a closing count (summary) is always kept.
  void add_problem(std::string text, bool summary = false) {
    if (summary || problems_.size() < kMaxProblems) problems_.push_back(std::move(text));
  }
  static constexpr std::size_t kMaxProblems = 20;

 private:
  std::vector<std::string> problems_;
};

/// The live registry of this host; null where the host has none (not Windows).
std::unique_ptr<Registry> open_host_registry();

/// "HKLM\\Software\\x" -> "HKEY_LOCAL_MACHINE\\Software\\x": the long root name, separators
/// single backslashes, no trailing one. Empty when the root is not a registry hive.
std::string full_registry_key(std::string_view key);

struct RegistryExport {
  static constexpr std::size_t kMaxProblems = Registry::kMaxProblems;
  static constexpr std::size_t kMaxBytes =
      64u << 20;  ///< a full `reg export HKLM\SOFTWARE` is 50-200 MB; read what counts first
  static constexpr std::size_t kMaxKeys = 200'000;
  static constexpr std::size_t kMaxValueBytes = 64u << 10;
};

/// Parses regedit / `reg export` output: "Windows Registry Editor Version 5.00" in UTF-16LE
/// with a byte-order mark (as `reg export` writes it) or in UTF-8, or "REGEDIT4". Keys deleted
/// (`[-KEY]`) and values deleted (`"x"=-`) are skipped. Never null: what could be read,
/// possibly nothing, with Registry::problems() saying what was not.
std::unique_ptr<Registry> parse_registry_export(std::string_view bytes, std::string source_name);

}  // namespace gpudoctor
