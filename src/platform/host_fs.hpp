#pragma once
/// The few host filesystem calls SystemView needs, one implementation per host OS
/// (host_fs_posix.cpp, host_fs_win32.cpp). Paths here are host paths.
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor::host_fs {

enum class Kind { regular, directory, symlink, other };

struct Entry {
  std::string name;
  Kind kind = Kind::other;  ///< without following links
};

/// lstat-like: does not follow a final symlink.
Result<Kind> kind_of(const std::string& path);
/// stat-like: follows symlinks (host semantics; use only where the root is "/").
Result<Kind> kind_of_followed(const std::string& path);
Result<std::uint64_t> size_of(const std::string& path);
Result<std::string> read_link(const std::string& path);
Result<std::vector<Entry>> list(const std::string& path, size_t max_entries);
/// Reads a regular file, at most max_bytes; refuses FIFOs, devices and sockets.
Result<std::string> read(const std::string& path, size_t max_bytes);
/// A descriptor 0-2 that the caller closed would be handed to the next file opened, and
/// output would land in it: each closed one is held by /dev/null opened read-only, so writes to
/// a closed stdout fail (EBADF) and are reported.
void keep_standard_streams_apart();
/// The environment of this process.
std::vector<std::pair<std::string, std::string>> process_environment();

}  // namespace gpudoctor::host_fs
