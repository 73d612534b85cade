#pragma once
/// The packages that build on TensorFlow and break with the wrong one beside it: Keras and
/// tf-keras (the Keras each TensorFlow series requires, and TF_USE_LEGACY_KERAS), tensorflow-text,
/// tensorflow-addons and tensorflow-probability. Pure: facts + tables in, findings out.
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

class KnowledgeBase;

std::vector<Finding> tensorflow_companion_findings(const Facts& facts, const KnowledgeBase& kb);

}  // namespace gpudoctor
