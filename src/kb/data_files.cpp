#include "kb/data_files.hpp"

#include <algorithm>
#include <map>

#include "core/text.hpp"
#include "kb/embedded_data.hpp"
#include "platform/host_fs.hpp"

namespace gpudoctor {
namespace {

constexpr size_t kMaxKbFileBytes = 16 << 20;
/// All files of one --kb overlay together: the built-in tables are about 2 MB.
constexpr size_t kMaxKbTotalBytes = 64 << 20;
constexpr int kMaxKbDepth = 4;

/// The file types the knowledge base defines; anything else in a --kb folder (a README, a
/// backup, a dataset someone left there) is not read at all.
bool is_kb_file(std::string_view name) {
  return !name.starts_with(".") && (name.ends_with(".toml") || name.ends_with(".ids"));
}

struct Overlay {
  std::map<std::string, DataFile> files;
  size_t bytes = 0;
  std::vector<Error> errors;
};

/// The --kb directory is the user's own: links in it are followed (a symlinked
/// compat/pytorch.toml is their table), bounded by depth, file size and total size.
void collect(const std::string& dir, const std::string& rel, int depth, Overlay& out) {
  if (depth > kMaxKbDepth) return;
  auto entries = host_fs::list(dir, 10'000);
  if (!entries) {
    out.errors.push_back(entries.error());
    return;
  }
  for (const auto& e : *entries) {
    if (e.name.starts_with(".")) continue;
    std::string host = dir + "/" + e.name;
    std::string path = rel + e.name;
    host_fs::Kind kind = e.kind;
    if (kind == host_fs::Kind::symlink) {
      auto followed = host_fs::kind_of_followed(host);
      if (!followed) {
        out.errors.push_back(followed.error());
        continue;
      }
      kind = *followed;
    }
    if (kind == host_fs::Kind::directory) {
      collect(host, path + "/", depth + 1, out);
    } else if (kind == host_fs::Kind::regular && is_kb_file(e.name)) {
      auto size = host_fs::size_of(host);
      if (size && *size > kMaxKbFileBytes) {
        out.errors.push_back(Error{
            ErrorKind::invalid_data,
            "larger than " + std::to_string(kMaxKbFileBytes >> 20) + " MiB: not a knowledge-base table", host, 0});
        continue;
      }
      bool cut = false;
      auto text = host_fs::read_followed(host, kMaxKbFileBytes, &cut);
      if (!text) {
        out.errors.push_back(text.error());
        continue;
      }
      if (cut) {
        // It grew past the bound after the size check: half a table must not pass for a table.
        out.errors.push_back(Error{ErrorKind::invalid_data, "grew past 16 MiB while being read", host, 0});
        continue;
      }
      out.bytes += text->size();
      if (out.bytes > kMaxKbTotalBytes) {
        out.errors.push_back(
            Error{ErrorKind::invalid_data,
                  "the knowledge-base files add up to more than " + std::to_string(kMaxKbTotalBytes >> 20) + " MiB",
                  host, 0});
        return;
      }
      out.files[path] = DataFile{path, std::move(*text), host};
    }
  }
}

}  // namespace

Result<std::vector<DataFile>> load_data_files(std::string_view prefix, const std::string& kb_dir) {
  std::map<std::string, DataFile> files;
  for (const EmbeddedFile& f : embedded_data()) {
    if (f.path.starts_with(prefix)) {
      files[std::string(f.path)] = DataFile{std::string(f.path), std::string(f.content), "built-in"};
    }
  }
  if (!kb_dir.empty()) {
    // A link to a directory is the user's directory too.
    auto kind = host_fs::kind_of_followed(kb_dir);
    if (!kind) {
      return Error{kind.error().kind, "knowledge-base directory not found (" + kind.error().message + ")", kb_dir, 0};
    }
    if (*kind != host_fs::Kind::directory) {
      return Error{ErrorKind::not_found, "knowledge-base directory is not a directory", kb_dir, 0};
    }
    // Only the folder the caller asks for ("compat/"): the rest of --kb is not read.
    std::string folder(prefix.substr(0, prefix.find('/')));
    auto sub = host_fs::kind_of_followed(kb_dir + "/" + folder);
    if (sub && *sub == host_fs::Kind::directory) {
      Overlay overlay;
      collect(kb_dir + "/" + folder, folder + "/", 1, overlay);
      if (!overlay.errors.empty()) return overlay.errors.front();
      for (auto& [path, file] : overlay.files) {
        if (path.starts_with(prefix)) files[path] = std::move(file);
      }
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

std::vector<Version> builtin_released_versions(std::string_view package) {
  // A line scan, not a TOML parse: read only by `plan` for a pinned release, and the generated
  // file writes every row as `package = "..."` then `version = "..."`.
  const std::string want = "package = \"" + std::string(package) + "\"";
  std::vector<Version> out;
  for (const EmbeddedFile& f : embedded_data()) {
    if (f.path != "harvest/artefacts.toml") continue;
    bool in_package = false;
    for (std::string_view line : lines(f.content)) {
      line = trim(line);
      if (line == "[[artefact]]") {
        in_package = false;
      } else if (line.starts_with("package = ")) {
        in_package = line == want;
      } else if (in_package && line.starts_with("version = \"") && line.ends_with("\"")) {
        if (auto v = Version::parse(line.substr(11, line.size() - 12))) out.push_back(*v);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace gpudoctor
