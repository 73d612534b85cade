#pragma once
/// The query behind `gpudoctor matrix`: the knowledge base's tables filtered by framework, OS,
/// CUDA, Python and GPU, with each framework build's coverage of that GPU.
#include <vector>

#include "model/matrix.hpp"

namespace gpudoctor {

class KnowledgeBase;

std::vector<MatrixRow> matrix_framework_rows(const KnowledgeBase& kb, const MatrixFilter& f);
MatrixView matrix_view(const KnowledgeBase& kb, const MatrixFilter& f);

}  // namespace gpudoctor
