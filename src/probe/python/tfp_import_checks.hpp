#pragma once
/// tensorflow_probability/python/__init__.py checks, in _validate_tf_environment, what its
/// TensorFlow modules need before they load (on first use of tfp.distributions and the others,
/// or at import when TensorFlow is already imported):
///     required_tensorflow_version = '2.18'      (0.12 to 0.25: '2.4' ... '2.18')
///     ... raise ImportError('This version of TensorFlow Probability requires TensorFlow ...')
///     import tf_keras                           (from 0.24: its Keras 2)
#include <optional>
#include <string_view>

#include "core/version.hpp"

namespace gpudoctor {

struct TfpImportChecks {
  /// The TensorFlow it refuses to run below; nullopt when the file does not say.
  std::optional<Version> tensorflow_floor;
  /// The release imports tf_keras for its Keras layers instead of using tf.keras.
  bool imports_tf_keras = false;
};

/// Reads the assignments and imports above from the file's text, skipping comments (the
/// release keeps `#   required_tensorflow_version = '1.15'` for its internal build).
TfpImportChecks read_tfp_import_checks(std::string_view init_py);

}  // namespace gpudoctor
