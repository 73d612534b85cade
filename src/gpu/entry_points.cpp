#include "gpu/entry_points.hpp"

namespace gpudoctor::gpu {

Error missing_entry_points_error(const BindState& state, const std::string& path) {
  std::string message = "missing required entry point";
  message += state.missing_required.size() > 1 ? "s: " : ": ";
  for (size_t i = 0; i < state.missing_required.size(); ++i) {
    if (i > 0) message += ", ";
    message += state.missing_required[i];
  }
  return Error{ErrorKind::symbol_missing, std::move(message), path, 0};
}

std::string code_name(std::span<const CodeName> table, int code, std::string_view unknown_prefix) {
  for (const CodeName& row : table) {
    if (row.code == code) return row.name;
  }
  return std::string(unknown_prefix) + std::to_string(code);
}

}  // namespace gpudoctor::gpu
