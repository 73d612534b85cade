#include "probe/cudnn_cuda_major.hpp"

#include <algorithm>

#include "core/version.hpp"
#include "platform/system_view.hpp"
#include "probe/elf_sections.hpp"

namespace gpudoctor {

std::optional<int> cuda_major_in_strings(std::string_view strings, std::string* named) {
  std::optional<int> found;
  for (std::string_view stem : {"libcublasLt.so.", "libcublas.so.", "libnvrtc.so."}) {
    for (size_t at = strings.find(stem); at != std::string_view::npos; at = strings.find(stem, at + 1)) {
      if (at > 0 && strings[at - 1] != '\0') continue;  // a whole string, not the end of one
      const size_t from = at + stem.size();
      const size_t nul = strings.find('\0', from);
      if (nul == std::string_view::npos || nul == from || nul - from > 12) continue;
      const std::string_view suffix = strings.substr(from, nul - from);
      // "libnvrtc.so.%d" is a format, not a soname.
      if (!std::all_of(suffix.begin(), suffix.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; })) {
        continue;
      }
      auto v = Version::parse(suffix);
      if (!v || v->major() < 9 || v->major() > 40) continue;
      if (found && *found != v->major()) return std::nullopt;  // two majors: no answer
      if (!found && named != nullptr) *named = std::string(strings.substr(at, nul - at));
      found = v->major();
    }
  }
  return found;
}

CudnnCudaMajor cudnn_cuda_major(const SystemView& system, const std::string& dir) {
  if (system.is_windows()) return {};
  for (const char* candidate : {"libcudnn_adv.so.9", "libcudnn_engines_precompiled.so.9", "libcudnn_ops_infer.so.8"}) {
    const std::string path = system.join(dir, candidate);
    const ReadRange read = [&](std::uint64_t offset, std::size_t length) {
      return system.read_range(path, offset, length);
    };
    for (const char* section : {".rodata", ".dynstr"}) {
      auto bytes = elf_section_bytes(read, section, kMaxCudnnRodata);
      if (!bytes) continue;
      std::string named;
      if (auto major = cuda_major_in_strings(*bytes, &named)) {
        return CudnnCudaMajor{major, std::string(candidate) + " names " + named};
      }
    }
  }
  return {};
}

}  // namespace gpudoctor
