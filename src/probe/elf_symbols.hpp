#pragma once
/// The dynamic symbols of an ELF64 little-endian shared library, as the dynamic loader sees them:
/// the libraries it needs (DT_NEEDED) and the symbols it imports and exports (.dynsym, named in
/// .dynstr). Read through elf_section_bytes, so the same bounds hold: the file is untrusted.
/// Used to tell, without loading anything, whether a library finds every function it imports
/// from a dependency: `dlopen(RTLD_NOW)`, which Python's import, ctypes and TensorFlow's loader
/// all use, fails on the first one missing ("undefined symbol: ncclCommResume").
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "probe/elf_sections.hpp"

namespace gpudoctor {

/// .dynsym read at most: torch 2.15.0's libtorch_cuda.so has 744,696 bytes (31,028 symbols).
inline constexpr std::size_t kMaxElfDynsym = 8u << 20;
/// .dynstr read at most: libtorch_cuda.so's is 6,073,812 bytes.
inline constexpr std::size_t kMaxElfDynstr = 32u << 20;

struct DynamicSymbols {
  std::vector<std::string> needed;  ///< DT_NEEDED, in order: "libnccl.so.2"
  /// DT_RUNPATH's directories, as written ("$ORIGIN/../../nvjitlink/lib"), or DT_RPATH's when
  /// there is no DT_RUNPATH (the loader then ignores DT_RPATH).
  std::vector<std::string> search_path;
  std::vector<std::string> undefined;  ///< imported names starting with the prefix, sorted, unique
  std::vector<std::string> defined;    ///< exported (global or weak) names starting with the prefix, sorted, unique
};

/// The needed libraries and the imported and exported symbols whose names start with `prefix`
/// ("nccl", "__nvJitLink"). A library without .dynamic or .dynsym, a cut or hostile file, is an
/// error that says which.
Result<DynamicSymbols> elf_dynamic_symbols(const ReadRange& read, std::string_view prefix);

}  // namespace gpudoctor
