#include "probe/elf_symbols.hpp"

#include <algorithm>
#include <cstdint>

namespace gpudoctor {
namespace {

// Elf64_Sym and Elf64_Dyn (the System V gABI, "Symbol Table" and "Dynamic Section").
constexpr std::size_t kSymSize = 24;
constexpr std::size_t kSymName = 0x00;
constexpr std::size_t kSymInfo = 0x04;
constexpr std::size_t kSymShndx = 0x06;
constexpr std::size_t kDynSize = 16;
constexpr std::uint64_t kDtNull = 0;
constexpr std::uint64_t kDtNeeded = 1;
constexpr std::uint64_t kDtRpath = 15;
constexpr std::uint64_t kDtRunpath = 29;
constexpr unsigned kStbGlobal = 1;
constexpr unsigned kStbWeak = 2;

/// The NUL-terminated string at `at` in the string table; empty when `at` is outside it or the
/// string runs off its end (a hostile table).
std::string_view string_at(std::string_view table, std::uint64_t at) {
  if (at >= table.size()) return {};
  const std::size_t end = table.find('\0', static_cast<std::size_t>(at));
  if (end == std::string_view::npos) return {};
  return table.substr(static_cast<std::size_t>(at), end - static_cast<std::size_t>(at));
}

void sort_unique(std::vector<std::string>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

Result<DynamicSymbols> elf_dynamic_symbols(const ReadRange& read, std::string_view prefix) {
  auto dynsym = elf_section_bytes(read, ".dynsym", kMaxElfDynsym);
  if (!dynsym) return dynsym.error();
  auto dynstr = elf_section_bytes(read, ".dynstr", kMaxElfDynstr);
  if (!dynstr) return dynstr.error();
  // .dynamic is a few hundred bytes in a library; 64 KiB is 4096 entries.
  auto dynamic = elf_section_bytes(read, ".dynamic", 64 * 1024);
  if (!dynamic) return dynamic.error();
  const std::string_view strings = *dynstr;

  DynamicSymbols out;
  std::string_view runpath;
  std::string_view rpath;
  for (std::size_t at = 0; at + kDynSize <= dynamic->size(); at += kDynSize) {
    const std::uint64_t tag = elf_le(*dynamic, at, 8);
    if (tag == kDtNull) break;
    const std::string_view value = string_at(strings, elf_le(*dynamic, at + 8, 8));
    if (tag == kDtNeeded && !value.empty()) out.needed.emplace_back(value);
    if (tag == kDtRunpath) runpath = value;
    if (tag == kDtRpath) rpath = value;
  }
  // The loader ignores DT_RPATH when DT_RUNPATH is present (ld.so(8)).
  for (std::string_view rest = runpath.empty() ? rpath : runpath; !rest.empty();) {
    const std::size_t colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    if (!dir.empty() && out.search_path.size() < 64) out.search_path.emplace_back(dir);
    rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
  }
  if (dynsym->size() % kSymSize != 0) {
    return Error{ErrorKind::invalid_data, ".dynsym is not a whole number of symbols", "", 0};
  }
  for (std::size_t at = 0; at < dynsym->size(); at += kSymSize) {
    const std::string_view sym = std::string_view(*dynsym).substr(at, kSymSize);
    const std::string_view name = string_at(strings, elf_le(sym, kSymName, 4));
    if (name.empty() || !name.starts_with(prefix)) continue;
    const unsigned binding = static_cast<unsigned char>(sym[kSymInfo]) >> 4;
    if (elf_le(sym, kSymShndx, 2) == 0) {
      // SHN_UNDEF: imported. A weak import may stay unresolved; dlopen fails only on a global one.
      if (binding == kStbGlobal) out.undefined.emplace_back(name);
    } else if (binding == kStbGlobal || binding == kStbWeak) {
      out.defined.emplace_back(name);
    }
  }
  sort_unique(out.undefined);
  sort_unique(out.defined);
  return out;
}

}  // namespace gpudoctor
