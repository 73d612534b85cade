#pragma once
/// The knowledge base's files: those embedded at build time, overlaid by a --kb directory.
/// A file in --kb replaces the embedded file with the same relative path ("compat/cuda.toml");
/// a new path adds a file. This lets a newer table, or a user's own explain rules, be used
/// without a rebuild.
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/version.hpp"

namespace gpudoctor {

struct DataFile {
  std::string path;  ///< relative, '/'-separated ("explain/driver.toml")
  std::string content;
  std::string origin;  ///< "built-in" or the host path it was read from
};

/// Files whose relative path starts with prefix ("compat/", "explain/"), sorted by path.
/// kb_dir empty: the embedded files only. From kb_dir only the prefix's folder is read, only
/// the file types the knowledge base defines (.toml, .ids), links followed (the folder is the
/// user's), at most 16 MiB a file and 64 MiB in all. Errors: kb_dir missing or not a
/// directory, a file there unreadable or over the bounds.
Result<std::vector<DataFile>> load_data_files(std::string_view prefix, const std::string& kb_dir);

/// The date the built-in tables were last harvested from the released wheels
/// (`harvested = "YYYY-MM-DD"` in harvest/artefacts.toml), so `--version` tells a stale
/// binary; empty when the file is not embedded.
std::string builtin_kb_harvest_date();

/// The releases of a package the harvest read wheels of ("torch": 2.0.0 ... 2.15.0), oldest
/// first, from the built-in harvest/artefacts.toml: the releases on PyPI at the harvest date
/// (scripts/harvest-kb.py reads every release of each series it covers). Empty when the file
/// is not embedded or names no such package.
std::vector<Version> builtin_released_versions(std::string_view package);

}  // namespace gpudoctor
