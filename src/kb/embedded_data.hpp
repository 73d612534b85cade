#pragma once
/// The files of data/ as compiled into the binary (cmake/embed_run.cmake).
#include <string_view>
#include <vector>

namespace gpudoctor {

struct EmbeddedFile {
  std::string_view path;  ///< relative to data/, with '/' separators
  std::string_view content;
};

const std::vector<EmbeddedFile>& embedded_data();

}  // namespace gpudoctor
