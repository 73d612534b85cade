#pragma once
/// The file version a Windows DLL states in its version resource (VS_FIXEDFILEINFO): nvml.dll and
/// nvcuda.dll carry the driver's four-part version there ("31.0.15.4633" for driver 546.33), which
/// Explorer shows as "File version". A pure parser of untrusted bytes: every offset is checked
/// against the buffer, the resource tree is walked to a fixed depth, nothing throws.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace gpudoctor {

struct PeFileVersion {
  std::array<std::uint16_t, 4> parts{};   ///< dwFileVersionMS high/low, dwFileVersionLS high/low
  [[nodiscard]] std::string str() const;  ///< "31.0.15.4633"
};

/// The version resource's fixed file version of a PE image (PE32 or PE32+) held in `image` (the
/// file's bytes from its start; a cut file fails cleanly). The error says what was missing.
Result<PeFileVersion> pe_file_version(std::string_view image);

}  // namespace gpudoctor
