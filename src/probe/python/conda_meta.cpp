#include "probe/python/conda_meta.hpp"

#include <cctype>

#include "core/text.hpp"

namespace gpudoctor {

std::optional<CondaPackageName> parse_conda_meta_filename(std::string_view file_name) {
  if (!file_name.ends_with(".json") || file_name.size() > 300) return std::nullopt;
  std::string_view stem = file_name.substr(0, file_name.size() - 5);
  // Package names may contain '-', versions and build strings may not: split from the right.
  size_t b = stem.rfind('-');
  if (b == std::string_view::npos || b == 0) return std::nullopt;
  size_t v = stem.rfind('-', b - 1);
  if (v == std::string_view::npos || v == 0) return std::nullopt;
  CondaPackageName out{std::string(stem.substr(0, v)), std::string(stem.substr(v + 1, b - v - 1)),
                       std::string(stem.substr(b + 1))};
  if (out.version.empty() || out.build.empty() || !std::isdigit(static_cast<unsigned char>(out.version[0]))) {
    return std::nullopt;
  }
  return out;
}

}  // namespace gpudoctor
