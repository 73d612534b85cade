// `import tensorflow` stopped by a library of a tensorflow-plugins folder, and by
// TF_PLUGGABLE_DEVICE_LIBRARY_PATH (data/explain/framework-build.toml). The tracebacks are those
// of the session 31 reproductions (TF 2.15.1 and 2.20.0, tensorflow-directml-plugin 0.4 installed
// by pip); before these rules none of their lines had an answer.
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

// TF 2.20: the error names a library the plugin needs, not the plugin; the frame says where.
TEST(ExplainTensorflowPlugins, AFailedPluginFolderOnTwoTwentyIsNamedByTheFrame) {
  const auto r = explain_no_facts(
      "Traceback (most recent call last):\n"
      "  File \"<string>\", line 1, in <module>\n"
      "  File \"/home/u/.venv/lib/python3.11/site-packages/tensorflow/__init__.py\", line 438, in <module>\n"
      "    _ll.load_library(_plugin_dir)\n"
      "  File \"/home/u/.venv/lib/python3.11/site-packages/tensorflow/python/framework/load_library.py\", line 151, "
      "in load_library\n"
      "    py_tf.TF_LoadLibrary(lib)\n"
      "tensorflow.python.framework.errors_impl.NotFoundError: _pywrap_tensorflow_internal.so: cannot open shared "
      "object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(r, "tensorflow-plugin-load-failed"));
  EXPECT_TRUE(contains(r.matches.front().cause, "does not name the plugin")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "tensorflow-plugins")) << r.matches.front().fix;
}

// TF 2.15.1 names the plugin and its missing symbol: the plugin was built for another release.
TEST(ExplainTensorflowPlugins, AnUndefinedSymbolInAPluginNamesThePlugin) {
  const auto r = explain_no_facts(
      "    _ll.load_library(_plugin_dir)\n"
      "tensorflow.python.framework.errors_impl.NotFoundError: /home/u/.venv/lib/python3.11/site-packages/"
      "tensorflow-plugins/libtfdml_plugin.so: undefined symbol: _ZN10tensorflow8internal15LogMessageFatalD1Ev, "
      "version tensorflow\n");
  ASSERT_TRUE(leads_with(r, "tensorflow-plugin-library-refused"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(contains(m.cause, "/home/u/.venv/lib/python3.11/site-packages/tensorflow-plugins/libtfdml_plugin.so"))
      << m.cause;
  EXPECT_TRUE(contains(m.cause, "undefined symbol: _ZN10tensorflow8internal15LogMessageFatalD1Ev")) << m.cause;
  EXPECT_FALSE(contains(m.cause, ", version")) << m.cause;
  // An empty file in the user site.
  const auto e = explain_no_facts(
      "tensorflow.python.framework.errors_impl.NotFoundError: /home/u/.local/lib/python3.11/site-packages/"
      "tensorflow-plugins/libbroken.so: file too short\n");
  ASSERT_TRUE(leads_with(e, "tensorflow-plugin-library-refused"));
  EXPECT_TRUE(contains(e.matches.front().fix,
                       "rm /home/u/.local/lib/python3.11/site-packages/tensorflow-plugins/"
                       "libbroken.so"))
      << e.matches.front().fix;
  // A library outside a plugin folder is not this rule's.
  const auto other = explain_no_facts(
      "NotFoundError: /home/u/ops/libmy_op.so: undefined symbol: _ZN10tensorflow8internal15LogMessageFatalD1Ev\n");
  EXPECT_EQ(find_rule(other, "tensorflow-plugin-library-refused"), nullptr);
}

TEST(ExplainTensorflowPlugins, AMissingPluggableDevicePathIsTheVariable) {
  const auto r = explain_no_facts(
      "FileNotFoundError: [Errno 2] The file or folder to load pluggable device libraries from does not exist.: "
      "'/opt/plugins/libgone.so'\n");
  ASSERT_TRUE(leads_with(r, "tf-pluggable-device-path-missing"));
  EXPECT_TRUE(contains(r.matches.front().cause, "/opt/plugins/libgone.so")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "unset TF_PLUGGABLE_DEVICE_LIBRARY_PATH")) << r.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
