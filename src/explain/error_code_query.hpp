#pragma once
/// `gpudoctor explain 802` / `explain CUDA_ERROR_SYSTEM_NOT_READY`: an error code asked about
/// on its own, turned into the log line the rules recognise, from the catalog of codes read
/// from the vendors' headers (data/explain/error-codes.toml).
#include <optional>
#include <string>
#include <string_view>

#include "explain/rule.hpp"

namespace gpudoctor {

/// The text to explain for a code given as a number ("802", "-3") or an enum name
/// ("cudaErrorNoKernelImageForDevice", case-insensitive); nullopt when it is neither. A bare
/// number is read as a CUDA runtime code (the one most tools print), else a driver API code,
/// else every library that has that number.
std::optional<std::string> error_code_query(const RuleBase& base, std::string_view arg);

}  // namespace gpudoctor
