#include "probe/version_files.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

bool is_version_token(std::string_view w) {
  return !w.empty() && std::isdigit(static_cast<unsigned char>(w[0])) && w.find('.') != std::string_view::npos;
}

std::optional<Version> from_defines(std::string_view text, const char* major, const char* minor, const char* patch) {
  auto ma = header_define(text, major);
  auto mi = header_define(text, minor);
  if (!ma || !mi || *ma < 0 || *mi < 0 || *ma > 100000 || *mi > 100000) return std::nullopt;
  auto pa = patch ? header_define(text, patch) : std::optional<long>{};
  if (pa && (*pa < 0 || *pa > 100000)) pa.reset();
  return Version::of({static_cast<int>(*ma), static_cast<int>(*mi), static_cast<int>(pa.value_or(0))});
}

/// "12.2.20230823" -> 12.2: a third component that looks like a date is a build stamp.
Version strip_date_stamp(Version v) {
  if (v.parts().size() >= 3 && v.part(2) >= 19000101) return v.truncated(2);
  return v;
}

}  // namespace

std::optional<NvidiaProcVersion> parse_nvidia_proc_version(std::string_view text) {
  for (std::string_view line : lines(text)) {
    if (!trim(line).starts_with("NVRM version:")) continue;
    NvidiaProcVersion out;
    out.flavor = contains(line, "Open Kernel Module") ? "open" : "proprietary";
    // The version is the first dotted number after "Module".
    size_t at = line.find("Module");
    std::string_view rest = at == std::string_view::npos ? line : line.substr(at);
    for (std::string_view w : split(rest, ' ')) {
      w = trim(w);
      if (!is_version_token(w)) continue;
      if (auto v = Version::parse(w); v && v->parts().size() >= 2) {
        out.version = *v;
        return out;
      }
    }
  }
  return std::nullopt;
}

std::map<std::string, std::string> parse_colon_fields(std::string_view text) {
  std::map<std::string, std::string> out;
  for (std::string_view line : lines(text)) {
    auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon > 64) continue;
    std::string key(trim(line.substr(0, colon)));
    if (key.empty() || out.size() > 256) continue;
    out.emplace(key, printable(trim(line.substr(colon + 1)), 200));
  }
  return out;
}

std::optional<Version> parse_cuda_version_json(std::string_view text) {
  auto doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return std::nullopt;
  // "cuda" is the SDK release ("12.4.1" = 12.4 Update 1); then the compiler, as nvcc reports it;
  // the runtime component (cuda_cudart) is versioned on its own and comes last.
  for (const char* key : {"cuda", "cuda_nvcc", "cuda_cudart"}) {
    auto it = doc.find(key);
    if (it == doc.end() || !it->is_object()) continue;
    auto ver = it->find("version");
    if (ver == it->end() || !ver->is_string()) continue;
    if (auto v = Version::parse(ver->get<std::string>())) return strip_date_stamp(*v);
  }
  return std::nullopt;
}

std::optional<Version> parse_cuda_version_txt(std::string_view text) {
  for (std::string_view line : lines(text)) {
    line = trim(line);
    if (!line.starts_with("CUDA Version")) continue;
    return Version::parse(trim(line.substr(12)));
  }
  return std::nullopt;
}

std::optional<Version> parse_nvcc_version(std::string_view text) {
  for (std::string_view line : lines(text)) {
    auto pos = line.find("release ");
    if (pos == std::string_view::npos || !contains(line, "Cuda compilation tools")) continue;
    std::string_view rest = line.substr(pos + 8);
    auto comma = rest.find(',');
    return Version::parse(rest.substr(0, comma));
  }
  return std::nullopt;
}

std::optional<long> header_define(std::string_view header, std::string_view name) {
  for (std::string_view line : lines(header)) {
    line = trim(line);
    if (!line.starts_with("#")) continue;
    line = trim(line.substr(1));
    if (!line.starts_with("define")) continue;
    line = trim(line.substr(6));
    if (!line.starts_with(name)) continue;
    std::string_view rest = line.substr(name.size());
    if (rest.empty() || !std::isspace(static_cast<unsigned char>(rest[0]))) continue;
    rest = trim(rest);
    // Strip a trailing comment and parentheses: "(8)", "9 /* major */".
    if (auto c = rest.find("/"); c != std::string_view::npos) rest = trim(rest.substr(0, c));
    while (!rest.empty() && rest.front() == '(') rest.remove_prefix(1);
    while (!rest.empty() && rest.back() == ')') rest.remove_suffix(1);
    if (rest.empty() || rest.size() > 9) return std::nullopt;  // fits a 32-bit long (mingw)
    long value = 0;
    for (char ch : rest) {
      if (ch == 'L' || ch == 'U' || ch == 'l' || ch == 'u') break;
      if (!std::isdigit(static_cast<unsigned char>(ch))) return std::nullopt;
      value = value * 10 + (ch - '0');
    }
    return value;
  }
  return std::nullopt;
}

std::optional<Version> parse_cudnn_header(std::string_view text) {
  return from_defines(text, "CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL");
}

std::optional<Version> parse_nccl_header(std::string_view text) {
  return from_defines(text, "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH");
}

std::optional<Version> parse_cuda_h(std::string_view text) {
  auto v = header_define(text, "CUDA_VERSION");
  if (!v || *v < 1000 || *v > 99990) return std::nullopt;
  return Version::of({static_cast<int>(*v / 1000), static_cast<int>((*v % 1000) / 10)});
}

std::optional<Version> parse_tensorrt_header(std::string_view text) {
  if (auto v = from_defines(text, "NV_TENSORRT_MAJOR", "NV_TENSORRT_MINOR", "NV_TENSORRT_PATCH")) {
    return v;
  }
  return from_defines(text, "TRT_MAJOR_ENTERPRISE", "TRT_MINOR_ENTERPRISE", "TRT_PATCH_ENTERPRISE");
}

std::optional<Version> parse_cublas_header(std::string_view text) {
  return from_defines(text, "CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR", "CUBLAS_VER_PATCH");
}

std::optional<LibraryName> parse_library_name(std::string_view name) {
  if (name.empty() || name.size() > 255) return std::nullopt;
  LibraryName out;
  if (auto so = name.find(".so"); so != std::string_view::npos && (so + 3 == name.size() || name[so + 3] == '.')) {
    out.stem = std::string(name.substr(0, so));
    if (out.stem.empty()) return std::nullopt;
    if (so + 3 < name.size()) {
      auto v = Version::parse(name.substr(so + 4));
      if (!v) return std::nullopt;
      out.version = *v;
    }
    return out;
  }
  std::string lower = to_lower(name);
  if (!lower.ends_with(".dll")) return std::nullopt;
  out.windows = true;
  std::string_view base = std::string_view(lower).substr(0, lower.size() - 4);
  auto us = base.rfind('_');
  if (us == std::string_view::npos || us + 1 >= base.size()) {
    out.stem = std::string(base);
    return out;
  }
  std::string_view digits = base.substr(us + 1);
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      out.stem = std::string(base);
      return out;
    }
  }
  std::string stem(base.substr(0, us));
  // "cudnn64_8" / "cudart64_110": the "64" marks the 64-bit build, not the version.
  if (stem.ends_with("64")) stem.resize(stem.size() - 2);
  out.stem = stem;
  // CUDA 11 runtime DLLs write major and minor together ("110" = 11.0); single or double
  // digits are the major alone ("8", "12").
  if (digits.size() == 3) {
    out.version = Version::of({std::stoi(std::string(digits.substr(0, 2))), digits[2] - '0'});
  } else if (digits.size() <= 2) {
    out.version = Version::of({std::stoi(std::string(digits))});
  }
  return out;
}

std::multimap<std::string, std::string> parse_ld_so_cache(std::string_view data,
                                                          const std::vector<std::string_view>& name_prefixes) {
  std::multimap<std::string, std::string> out;
  constexpr std::string_view kMagic = "glibc-ld.so.cache1.1";
  size_t start = data.find(kMagic);
  if (start == std::string_view::npos) return out;
  std::string_view cache = data.substr(start);
  auto u32 = [&](size_t off) -> std::optional<std::uint32_t> {
    if (off + 4 > cache.size()) return std::nullopt;
    std::uint32_t v = 0;
    std::memcpy(&v, cache.data() + off, 4);
    return v;
  };
  // Header: magic+version (20 bytes), nlibs, len_strings, flags(4), extension_offset, unused[3].
  constexpr size_t kHeader = 48;
  constexpr size_t kEntry = 24;  // flags, key, value, osversion, hwcap(8)
  auto nlibs = u32(20);
  if (!nlibs || *nlibs > 1'000'000) return out;
  auto c_string = [&](std::uint32_t off) -> std::optional<std::string_view> {
    if (off >= cache.size()) return std::nullopt;
    // The length bound first: searching for the NUL to the end of an 8 MiB file once per entry
    // made a crafted cache cost seconds (D3 in issue 11).
    std::string_view window = cache.substr(off, 4097);
    size_t end = window.find('\0');
    if (end == std::string_view::npos) return std::nullopt;
    return window.substr(0, end);
  };
  auto wanted = [&](std::string_view name) {
    if (name_prefixes.empty()) return true;
    return std::any_of(name_prefixes.begin(), name_prefixes.end(),
                       [&](std::string_view p) { return name.starts_with(p); });
  };
  for (std::uint32_t i = 0; i < *nlibs && out.size() < kMaxLdCacheEntries; ++i) {
    size_t e = kHeader + static_cast<size_t>(i) * kEntry;
    auto key = u32(e + 4);
    auto value = u32(e + 8);
    if (!key || !value) break;
    auto k = c_string(*key);
    if (!k || !wanted(*k)) continue;
    auto v = c_string(*value);
    if (v) out.emplace(std::string(*k), std::string(*v));
  }
  return out;
}

}  // namespace gpudoctor
