#pragma once
/// Renderers for `gpudoctor matrix`: pure functions of the filtered tables.
#include <string>

#include "model/matrix.hpp"

namespace gpudoctor {

std::string render_matrix_text(const MatrixView& view);
std::string render_matrix_json(const MatrixView& view);

}  // namespace gpudoctor
