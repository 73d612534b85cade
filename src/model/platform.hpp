#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

/// The operating system a diagnosed tree belongs to (not necessarily the host's).
enum class Platform { linux, windows, wsl2 };

const char* to_string(Platform p);
std::optional<Platform> parse_platform(std::string_view text);

}  // namespace gpudoctor
