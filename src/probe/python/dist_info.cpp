#include "probe/python/dist_info.hpp"

#include <cctype>
#include <charconv>

#include "core/text.hpp"
#include "probe/python/python_literal.hpp"

namespace gpudoctor {

std::string normalize_dist_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  bool sep = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      sep = true;
      continue;
    }
    if (sep && !out.empty()) out += '-';
    sep = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<DistDirName> parse_dist_dir_name(std::string_view dir_name) {
  DistDirName out;
  std::string_view stem;
  if (dir_name.ends_with(".dist-info")) {
    out.kind = "dist-info";
    stem = dir_name.substr(0, dir_name.size() - 10);
  } else if (dir_name.ends_with(".egg-info")) {
    out.kind = "egg-info";
    stem = dir_name.substr(0, dir_name.size() - 9);
  } else {
    return std::nullopt;
  }
  if (stem.empty() || stem.size() > 200) return std::nullopt;
  // Wheel rules escape '-' in the name as '_', so the first '-' ends the name. egg-info may
  // add "-pyX.Y" after the version.
  size_t dash = stem.find('-');
  std::string_view name = stem.substr(0, dash);
  std::string_view version = dash == std::string_view::npos ? "" : stem.substr(dash + 1);
  if (out.kind == "egg-info") {
    if (size_t py = version.find("-py"); py != std::string_view::npos) version = version.substr(0, py);
  }
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return std::nullopt;
  }
  out.name = normalize_dist_name(name);
  if (out.name.empty()) return std::nullopt;
  out.version = std::string(version);
  return out;
}

DistMetadata parse_dist_metadata(std::string_view text) {
  DistMetadata md;
  if (pyfile::refuse_binary(text.substr(0, 4096), "METADATA is not text (binary content)", md.problems)) return md;
  for (std::string_view line : lines(text)) {
    if (trim(line).empty()) break;                    // headers end at the first blank line; the body follows
    if (line[0] == ' ' || line[0] == '\t') continue;  // continuation of a folded header
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = line.substr(0, colon);
    std::string_view value = trim(line.substr(colon + 1));
    if (iequals(key, "Name") && md.name.empty()) md.name = printable(value, 200);
    if (iequals(key, "Version") && md.version.empty()) md.version = printable(value, 100);
    if (iequals(key, "Requires-Dist") && md.requires_dist.size() < 512) md.requires_dist.emplace_back(value);
  }
  if (md.name.empty()) md.problems.push_back("METADATA has no Name: header");
  if (md.version.empty()) md.problems.push_back("METADATA has no Version: header");
  return md;
}

std::optional<DistRequirement> parse_requirement(std::string_view text) {
  if (text.size() > 1000) return std::nullopt;
  DistRequirement r;
  std::string_view req = text;
  if (size_t semi = req.find(';'); semi != std::string_view::npos) {
    r.marker = printable(trim(req.substr(semi + 1)), 300);
    req = req.substr(0, semi);
  }
  req = trim(req);
  size_t end = 0;
  while (end < req.size() && (std::isalnum(static_cast<unsigned char>(req[end])) != 0 || req[end] == '-' ||
                              req[end] == '_' || req[end] == '.')) {
    ++end;
  }
  if (end == 0) return std::nullopt;
  r.name = normalize_dist_name(req.substr(0, end));
  std::string_view rest = trim(req.substr(end));
  if (rest.starts_with('[')) {
    size_t close = rest.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    rest = trim(rest.substr(close + 1));
  }
  if (rest.starts_with('@')) return std::nullopt;  // a direct URL: no version to hold it to
  // The older form puts the specifier in parentheses: "torch (==2.5.1)".
  if (rest.starts_with('(') && rest.ends_with(')')) rest = trim(rest.substr(1, rest.size() - 2));
  if (!rest.empty() && rest.find_first_of("<>=!~") != 0) return std::nullopt;
  r.specifier = printable(rest, 200);
  return r;
}

std::optional<NvidiaWheelName> parse_nvidia_wheel_name(std::string_view n) {
  if (!n.starts_with("nvidia-") || n.size() <= 7) return std::nullopt;
  std::string_view rest = n.substr(7);
  NvidiaWheelName out;
  if (size_t cu = rest.rfind("-cu"); cu != std::string_view::npos) {
    std::string_view digits = rest.substr(cu + 3);
    int major = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), major);
    if (ec == std::errc() && ptr == digits.data() + digits.size() && major > 0 && major < 100) {
      out.cuda_major = major;
      rest = rest.substr(0, cu);
    }
  }
  if (rest.empty()) return std::nullopt;
  if (rest == "cuda-runtime") {
    out.library = "cudart";
  } else if (rest.starts_with("cuda-") && rest.size() > 5) {
    out.library = std::string(rest.substr(5));  // cuda-nvrtc -> nvrtc, cuda-cupti -> cupti
  } else {
    out.library = std::string(rest);
  }
  return out;
}

namespace {

/// The version after `op` ("==" or ">=") in the first requirement whose normalised name starts
/// with `name_prefix`, in any clause of its specifier ("<10.0,>=9.8").
std::optional<PinnedRequirement> requirement_at(std::string_view metadata, std::string_view name_prefix,
                                                std::string_view op) {
  for (std::string_view line : lines(metadata)) {
    if (line.empty()) break;  // the headers end at the first empty line; the description follows
    if (!line.starts_with("Requires-Dist:")) continue;
    auto req = parse_requirement(trim(line.substr(14)));
    if (!req || !req->name.starts_with(name_prefix)) continue;
    if (auto version = specifier_bound(req->specifier, op)) return PinnedRequirement{req->name, std::move(*version)};
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> specifier_bound(std::string_view specifier, std::string_view op) {
  for (std::string_view clause : split(specifier, ',')) {
    clause = trim(clause);
    if (!clause.starts_with(op)) continue;
    std::string_view version = trim(clause.substr(op.size()));
    if (version.empty() || version.size() > 64) continue;
    return std::string(version);
  }
  return std::nullopt;
}

std::optional<PinnedRequirement> pinned_requirement(std::string_view metadata, std::string_view name_prefix) {
  return requirement_at(metadata, name_prefix, "==");
}

bool requires_mentioning(std::string_view metadata, std::string_view word) {
  for (std::string_view line : lines(metadata)) {
    if (line.empty()) break;  // the headers end at the first empty line
    if (!line.starts_with("Requires-Dist:")) continue;
    const size_t semi = line.find(';');
    if (semi != std::string_view::npos && line.substr(semi).find("extra ==") != std::string_view::npos) continue;
    if (line.substr(14, semi == std::string_view::npos ? std::string_view::npos : semi - 14).find(word) !=
        std::string_view::npos) {
      return true;
    }
  }
  return false;
}

std::optional<PinnedRequirement> requirement_floor(std::string_view metadata, std::string_view name_prefix) {
  if (auto floor = requirement_at(metadata, name_prefix, ">=")) return floor;
  return requirement_at(metadata, name_prefix, "~=");  // a compatible release: ~=9.0 is >=9.0,<10
}

std::optional<int> cuda_major_from_record(std::string_view record) {
  for (std::string_view line : lines(record)) {
    if (!line.starts_with("nvidia/cu")) continue;
    std::string_view rest = line.substr(9);
    int major = 0;
    auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), major);
    if (ec == std::errc() && ptr != rest.data() && ptr < rest.data() + rest.size() && *ptr == '/' && major >= 10 &&
        major < 100) {
      return major;
    }
  }
  return std::nullopt;
}

}  // namespace gpudoctor
