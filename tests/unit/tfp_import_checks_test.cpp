/// tensorflow_probability/python/__init__.py's own checks, read without running Python. The
/// texts follow the released files' shape (0.23 and 0.25: the floor inside
/// _validate_tf_environment, a commented internal floor below it, `import tf_keras` from 0.24).
#include "probe/python/tfp_import_checks.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpudoctor {
namespace {

constexpr const char* kRelease25 = R"(
def _validate_tf_environment(package):
  try:
    import tensorflow as tf
  except (ImportError, ModuleNotFoundError):
    raise

  import distutils.version

  #
  # Update this whenever we need to depend on a newer TensorFlow release.
  #
  required_tensorflow_version = '2.18'
#   required_tensorflow_version = '1.15'  # Needed internally -- DisableOnExport

  if (distutils.version.LooseVersion(tf.__version__) <
      distutils.version.LooseVersion(required_tensorflow_version)):
    raise ImportError('...')

  if required_tensorflow_version[0] == '2':
    try:
      import tf_keras  # pylint: disable=unused-import
    except (ImportError, ModuleNotFoundError):
      raise
)";

TEST(TfpImportChecks, FloorAndTfKerasOfARecentRelease) {
  TfpImportChecks c = read_tfp_import_checks(kRelease25);
  ASSERT_TRUE(c.tensorflow_floor.has_value());
  EXPECT_EQ(c.tensorflow_floor->str(), "2.18");
  EXPECT_TRUE(c.imports_tf_keras);
}

// Before 0.24 there is no tf_keras import; the commented floor (1.15) is never the one read, even
// when it comes first.
TEST(TfpImportChecks, CommentsAndOtherNamesAreNotTheCheck) {
  TfpImportChecks c = read_tfp_import_checks(
      "#   required_tensorflow_version = '1.15'\n"
      "  if required_tensorflow_version == '2.1': pass\n"
      "  required_tensorflow_version_note = '9.9'\n"
      "  required_tensorflow_version = \"2.15\"\r\n"
      "  import tensorflow as tf\n"
      "  import tf_keras_extra\n"
      "  # import tf_keras\n");
  ASSERT_TRUE(c.tensorflow_floor.has_value());
  EXPECT_EQ(c.tensorflow_floor->str(), "2.15");
  EXPECT_FALSE(c.imports_tf_keras);
}

TEST(TfpImportChecks, ImportFormsThatLoadTfKeras) {
  EXPECT_TRUE(read_tfp_import_checks("import tf_keras as tfk\n").imports_tf_keras);
  EXPECT_TRUE(read_tfp_import_checks("    from tf_keras import layers\n").imports_tf_keras);
  EXPECT_TRUE(read_tfp_import_checks("import tf_keras.src\n").imports_tf_keras);
}

// A file that says nothing, a floor that is not a version, and binary junk: no claim.
TEST(TfpImportChecks, NothingReadableIsNoClaim) {
  EXPECT_FALSE(read_tfp_import_checks("").tensorflow_floor.has_value());
  EXPECT_FALSE(read_tfp_import_checks("required_tensorflow_version = TF_MIN\n").tensorflow_floor.has_value());
  EXPECT_FALSE(read_tfp_import_checks("required_tensorflow_version = 'abc'\n").tensorflow_floor.has_value());
  EXPECT_FALSE(read_tfp_import_checks("required_tensorflow_version = '").tensorflow_floor.has_value());
  const std::string junk =
      std::string("required_tensorflow_version = '2.18'\n") + std::string(1, '\0') + "\x01\x02import tf_keras\n";
  TfpImportChecks c = read_tfp_import_checks(junk);
  EXPECT_FALSE(c.tensorflow_floor.has_value());
  EXPECT_FALSE(c.imports_tf_keras);
}

}  // namespace
}  // namespace gpudoctor
