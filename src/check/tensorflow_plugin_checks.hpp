#pragma once
/// The plugins `import tensorflow` loads from tensorflow-plugins folders (PythonEnvFacts::
/// tf_plugins): one the loader refuses, one built for another TensorFlow, one from outside the
/// environment (the user site, which TensorFlow 2.19 and later read even from a venv), one no
/// installed distribution owns. Pure: facts in, findings out.
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

std::vector<Finding> tensorflow_plugin_findings(const Facts& facts);

}  // namespace gpudoctor
