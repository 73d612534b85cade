#include "kb/data_files.hpp"

#include <algorithm>
#include <map>

#include "core/text.hpp"
#include "kb/embedded_data.hpp"
#include "platform/host_fs.hpp"

namespace gpudoctor {
namespace {

constexpr size_t kMaxKbFileBytes = 16 << 20;
constexpr int kMaxKbDepth = 4;

void collect(const std::string& dir, const std::string& rel, int depth, std::map<std::string, DataFile>& out,
             std::vector<Error>& errors) {
  if (depth > kMaxKbDepth) return;
  auto entries = host_fs::list(dir, 10'000);
  if (!entries) {
    errors.push_back(entries.error());
    return;
  }
  for (const auto& e : *entries) {
    std::string host = dir + "/" + e.name;
    std::string path = rel.empty() ? e.name : rel + "/" + e.name;
    if (e.kind == host_fs::Kind::directory) {
      collect(host, path, depth + 1, out, errors);
    } else if (e.kind == host_fs::Kind::regular && !starts_with(e.name, ".")) {
      auto text = host_fs::read(host, kMaxKbFileBytes);
      if (!text) {
        errors.push_back(text.error());
        continue;
      }
      out[path] = DataFile{path, std::move(*text), host};
    }
  }
}

}  // namespace

Result<std::vector<DataFile>> load_data_files(std::string_view prefix, const std::string& kb_dir) {
  std::map<std::string, DataFile> files;
  for (const EmbeddedFile& f : embedded_data()) {
    if (starts_with(f.path, prefix)) {
      files[std::string(f.path)] = DataFile{std::string(f.path), std::string(f.content), "built-in"};
    }
  }
  if (!kb_dir.empty()) {
    auto kind = host_fs::kind_of(kb_dir);
    if (!kind || *kind != host_fs::Kind::directory) {
      return Error{ErrorKind::not_found, "knowledge-base directory not found", kb_dir, 0};
    }
    std::map<std::string, DataFile> overlay;
    std::vector<Error> errors;
    collect(kb_dir, "", 0, overlay, errors);
    if (!errors.empty()) return errors.front();
    for (auto& [path, file] : overlay) {
      if (starts_with(path, prefix)) files[path] = std::move(file);
    }
  }
  std::vector<DataFile> out;
  for (auto& [path, file] : files) out.push_back(std::move(file));
  return out;
}

std::string builtin_kb_harvest_date() {
  constexpr std::string_view kKey = "\nharvested = \"";
  for (const EmbeddedFile& f : embedded_data()) {
    if (f.path != "harvest/artefacts.toml") continue;
    size_t at = f.content.find(kKey);
    if (at == std::string_view::npos) return "";
    std::string_view rest = f.content.substr(at + kKey.size());
    size_t end = rest.find('"');
    if (end == std::string_view::npos || end > 10) return "";
    return std::string(rest.substr(0, end));
  }
  return "";
}

}  // namespace gpudoctor
