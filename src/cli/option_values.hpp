#pragma once
/// The values of options that several commands take (--os, --python, --driver), parsed once so
/// `matrix` and `plan` accept and refuse the same text with the same words.
#include <string_view>

#include "core/result.hpp"
#include "core/version.hpp"
#include "model/platform.hpp"

namespace gpudoctor {

/// linux, windows or wsl2.
Result<Platform> parse_os_option(std::string_view text);
/// A Python version with at least major.minor, major 2 or 3 (3.11, 3.10.12).
Result<Version> parse_python_option(std::string_view text);
/// An NVIDIA driver version (535.104.05, 580.65): major 100 or more.
Result<Version> parse_driver_option(std::string_view text);
/// A CUDA version (12, 12.2).
Result<Version> parse_cuda_option(std::string_view text);

}  // namespace gpudoctor
