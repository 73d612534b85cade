#pragma once
/// The DLLs a Windows PE image imports: the names in its import directory, which the loader
/// resolves when the image loads (a missing one fails the load: error 126, "DLL load failed"),
/// and in its delay-load directory, resolved on the first call into that DLL. This is what
/// `dumpbin /dependents` and the Dependencies tool list. Untrusted bytes: the image is read in
/// ranges (a 1 GiB torch_cuda.dll costs its headers and its import names), every offset is
/// checked, the counts are bounded, nothing throws.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor {

struct PeImport {
  std::string dll;            ///< as the image spells it: "cudart64_12.dll", "KERNEL32.dll"
  bool delay_loaded = false;  ///< from the delay-load directory only

  bool operator==(const PeImport&) const = default;
};

/// Reads at most `n` bytes of the image from `offset` on (shorter at its end).
using PeRangeReader = std::function<Result<std::string>(std::uint64_t offset, std::size_t n)>;

/// The imported DLLs, each once (compared ignoring case, as Windows does), in the order the
/// image lists them, ordinary imports first. The error says what was unreadable.
Result<std::vector<PeImport>> pe_imports(const PeRangeReader& read);
/// The same from an image held whole in memory.
Result<std::vector<PeImport>> pe_imports(std::string_view image);

inline constexpr std::size_t kMaxPeImports = 1024;  ///< per directory; a linker writes tens

}  // namespace gpudoctor
