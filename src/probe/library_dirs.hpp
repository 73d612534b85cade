#pragma once
/// Where the dynamic loader of the target looks for libraries, in its order, with the reason
/// each directory is searched. Shared by the driver, toolkit and library probes.
#include <string>
#include <vector>

#include "platform/system_view.hpp"

namespace gpudoctor {

struct LibraryDir {
  std::string path;
  std::string why;  ///< "LD_LIBRARY_PATH", "ld.so.conf", "default", "PATH" (Windows)
};

/// Linux: LD_LIBRARY_PATH entries, then /etc/ld.so.conf(.d) entries, then the default
/// directories. Windows: System32, then PATH entries. Deduplicated, existing directories only.
std::vector<LibraryDir> loader_search_dirs(const SystemView& system);

/// Library file names -> paths from the target's /etc/ld.so.cache (empty on Windows).
std::vector<std::pair<std::string, std::string>> loader_cache_entries(const SystemView& system);

/// WSL2: how the loader reaches /usr/lib/wsl/lib, where the Windows driver's libcuda.so.1 is
/// mounted: "LD_LIBRARY_PATH", "ld.so.conf" (WSL's generated /etc/ld.so.conf.d/ld.wsl.conf, read
/// through the distributions' `include /etc/ld.so.conf.d/*.conf` also when a tree has no
/// /etc/ld.so.conf), "ld.so.cache"; empty when nothing does.
std::string wsl_lib_loader_via(const SystemView& system,
                               const std::vector<std::pair<std::string, std::string>>& cache_entries);

/// Both, read once per run and shared by the driver, toolkit and library probes.
struct LoaderPaths {
  std::vector<LibraryDir> search_dirs;
  std::vector<std::pair<std::string, std::string>> cache_entries;
};
LoaderPaths read_loader_paths(const SystemView& system);

}  // namespace gpudoctor
