/// The plugins `import tensorflow` loads from tensorflow-plugins folders: refused by the loader,
/// built for another TensorFlow, reached from outside a venv, owned by nothing.
#include "check/tensorflow_plugin_checks.hpp"

#include <gtest/gtest.h>

#include <string>

#include "check/checks.hpp"
#include "check_test_support.hpp"
#include "core/text.hpp"

namespace gpudoctor {
namespace {

const std::string kSite = "/home/u/.venvs/x/lib/site-packages";
const std::string kUserSite = "/home/u/.local/lib/python3.11/site-packages";

TfPlugin plugin(const std::string& site, const char* file, const char* reached_via = "site-packages") {
  TfPlugin p;
  p.site_packages = site;
  p.path = site + "/tensorflow-plugins/" + file;
  p.reached_via = reached_via;
  return p;
}

TfPlugin owned(TfPlugin p, const char* owner, const char* version, const char* req_name, const char* specifier,
               const char* marker = "") {
  p.owner = owner;
  p.owner_version = version;
  p.requires_tensorflow.push_back(DistRequirement{req_name, specifier, marker});
  p.requirement_source = p.site_packages + "/" + owner + "-" + version + ".dist-info/METADATA";
  return p;
}

std::vector<Finding> with(const char* tf, std::vector<TfPlugin> plugins, const char* kind = "venv") {
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
  // "": a TensorFlow whose version could not be read.
  PythonEnvFacts e =
      testing::env_with("3.11.9", testing::cuda_framework("tensorflow", *tf != '\0' ? tf : "0", "cuda12"));
  if (*tf == '\0') e.frameworks.front().version = Version{};
  e.kind = kind;
  e.tf_plugins = std::move(plugins);
  f.python_envs.push_back(e);
  return tensorflow_plugin_findings(f);
}

TfPlugin dml(const std::string& site = kSite, const char* reached_via = "site-packages") {
  return owned(plugin(site, "libtfdml_plugin.so", reached_via), "tensorflow-directml-plugin", "0.4.0.dev230202",
               "tensorflow-cpu", "==2.10.0");
}

// tensorflow-directml-plugin 0.4 requires tensorflow-cpu==2.10.0 (its METADATA); beside 2.12
// its library is still loaded by the import.
TEST(TensorflowPlugins, APluginBuiltForAnotherTensorflowIsAnError) {
  auto fs = with("2.12.0", {dml()});
  const Finding* m = testing::find(fs, "tensorflow-plugin-mismatch");
  ASSERT_NE(m, nullptr) << testing::ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_TRUE(contains(m->title, "tensorflow-cpu==2.10.0")) << m->title;
  // Not an install over this TensorFlow's files: a second distribution (the Keras lesson).
  EXPECT_FALSE(contains(m->fix, "pip install")) << m->fix;
  EXPECT_TRUE(contains(m->fix, "a new environment with tensorflow-cpu==2.10.0")) << m->fix;
  EXPECT_TRUE(contains(m->fix, "uninstall tensorflow-directml-plugin")) << m->fix;
  EXPECT_TRUE(contains(m->source, "tensorflow_directml_plugin") || contains(m->source, "tensorflow-directml-plugin"))
      << m->source;
  // The TensorFlow it names: nothing to say.
  auto ok = with("2.10.0", {dml()});
  EXPECT_TRUE(ok.empty()) << testing::ids(ok);
  // A requirement for another platform does not apply here.
  auto other = with("2.12.0", {owned(plugin(kSite, "libmetal_plugin.so"), "tensorflow-metal", "1.1.0",
                                     "tensorflow-macos", ">=2.13", "sys_platform == \"darwin\"")});
  EXPECT_FALSE(testing::has(other, "tensorflow-plugin-mismatch")) << testing::ids(other);
}

// The loader refuses it (an empty file: "file too short"): the import stops, whoever owns it.
TEST(TensorflowPlugins, AFileTheLoaderRefusesStopsTheImport) {
  TfPlugin broken = plugin(kSite, "libstray.so.1");
  broken.problem = "an empty file: dlopen says \"file too short\"";
  auto fs = with("2.20.0", {broken});
  const Finding* u = testing::find(fs, "tensorflow-plugin-unloadable");
  ASSERT_NE(u, nullptr) << testing::ids(fs);
  EXPECT_EQ(u->severity, Severity::error);
  EXPECT_TRUE(contains(u->title, "file too short")) << u->title;
  EXPECT_EQ(u->fix, "Take it away: remove " + broken.path + ".");
  EXPECT_EQ(fs.size(), 1u) << testing::ids(fs);  // said once, not again as unowned
  TfPlugin owned_broken = dml();
  owned_broken.problem = "not an ELF file: dlopen says \"invalid ELF header\"";
  auto o = with("2.10.0", {owned_broken});
  const Finding* r = testing::find(o, "tensorflow-plugin-unloadable");
  ASSERT_NE(r, nullptr) << testing::ids(o);
  EXPECT_TRUE(contains(r->fix, "--force-reinstall --no-deps \"tensorflow-directml-plugin==0.4.0.dev230202\""))
      << r->fix;
}

// From 2.19 TensorFlow reads every sysconfig scheme's site-packages, posix_user among them: a
// venv's TensorFlow loads ~/.local's plugins although the venv does not put them on sys.path.
TEST(TensorflowPlugins, TheUserSiteReachesAVenvFromTensorflow219) {
  TfPlugin user = plugin(kUserSite, "libuser.so", "user scheme");
  user.owner = "some-plugin";
  user.owner_version = "1.0";
  auto fs = with("2.20.0", {user});
  const Finding* w = testing::find(fs, "tensorflow-plugin-outside-env");
  ASSERT_NE(w, nullptr) << testing::ids(fs);
  EXPECT_EQ(w->severity, Severity::warning);
  EXPECT_TRUE(contains(w->detail, "sysconfig scheme")) << w->detail;
  EXPECT_TRUE(contains(w->fix, "python3.11 -m pip uninstall some-plugin")) << w->fix;
  // 2.18 reads only site.USER_SITE, which the venv disables.
  auto old = with("2.18.0", {user});
  EXPECT_TRUE(old.empty()) << testing::ids(old);
  auto at219 = with("2.19.0", {user});
  EXPECT_TRUE(testing::has(at219, "tensorflow-plugin-outside-env")) << testing::ids(at219);
  // A broken one there stops the venv's import: an error, not only a warning.
  TfPlugin broken = user;
  broken.problem = "an empty file: dlopen says \"file too short\"";
  auto b = with("2.20.0", {broken});
  const Finding* e = testing::find(b, "tensorflow-plugin-unloadable");
  ASSERT_NE(e, nullptr) << testing::ids(b);
  EXPECT_TRUE(contains(e->detail, "posix_user")) << e->detail;
  EXPECT_TRUE(with("2.18.0", {broken}).empty());
  // The DirectML plugin in the user site, judged against the venv's TensorFlow.
  auto d = with("2.20.0", {dml(kUserSite, "user scheme")});
  EXPECT_TRUE(testing::has(d, "tensorflow-plugin-mismatch")) << testing::ids(d);
  // The user site of a Python that enables it (conda) is read by every release.
  auto conda = with("2.16.2", {plugin(kUserSite, "libuser.so", "user site")}, "conda");
  const Finding* c = testing::find(conda, "tensorflow-plugin-outside-env");
  ASSERT_NE(c, nullptr) << testing::ids(conda);
  EXPECT_TRUE(contains(c->detail, "which this Python reads")) << c->detail;
  // The system Python's own user site is part of that Python: nothing to say about an owned plugin.
  TfPlugin own_user = user;
  own_user.reached_via = "user site";
  auto sys = with("2.16.2", {own_user}, "system");
  EXPECT_TRUE(sys.empty()) << testing::ids(sys);
}

// No RECORD lists it: nothing says which TensorFlow it was built for.
TEST(TensorflowPlugins, AnUnownedPluginIsSaid) {
  auto fs = with("2.16.2", {plugin(kSite, "libcustom.so")});
  const Finding* u = testing::find(fs, "tensorflow-plugin-unowned");
  ASSERT_NE(u, nullptr) << testing::ids(fs);
  EXPECT_EQ(u->severity, Severity::warning);
  // Not every RECORD could be read: nothing is claimed about its owner.
  TfPlugin unknown = plugin(kSite, "libcustom.so");
  unknown.owner_known = false;
  auto quiet = with("2.16.2", {unknown});
  EXPECT_TRUE(quiet.empty()) << testing::ids(quiet);
  // An owner with requirements TensorFlow meets, in the environment's own site-packages: quiet.
  auto ok = with("2.15.1", {owned(plugin(kSite, "libitex_gpu.so"), "intel-extension-for-tensorflow-lib", "2.15.0.3.2",
                                  "tensorflow", "~=2.15.0")});
  EXPECT_TRUE(ok.empty()) << testing::ids(ok);
  auto bad = with("2.16.1", {owned(plugin(kSite, "libitex_gpu.so"), "intel-extension-for-tensorflow-lib", "2.15.0.3.2",
                                   "tensorflow", "~=2.15.0")});
  EXPECT_TRUE(testing::has(bad, "tensorflow-plugin-mismatch")) << testing::ids(bad);
}

// PYTHONPATH and TF_PLUGGABLE_DEVICE_LIBRARY_PATH: the first is outside the environment, the
// second is the user's own choice (no "unowned" note), and a path it names that is not there
// stops the import.
TEST(TensorflowPlugins, PythonpathAndThePluggableDeviceVariable) {
  auto pp = with("2.16.2", {plugin("/srv/extra/site-packages", "libpp.so", "PYTHONPATH")});
  const Finding* w = testing::find(pp, "tensorflow-plugin-outside-env");
  ASSERT_NE(w, nullptr) << testing::ids(pp);
  EXPECT_TRUE(contains(w->detail, "on PYTHONPATH")) << w->detail;
  TfPlugin named;
  named.path = "/opt/dev/libdev.so";
  named.reached_via = "TF_PLUGGABLE_DEVICE_LIBRARY_PATH";
  auto fine = with("2.16.2", {named});
  EXPECT_TRUE(fine.empty()) << testing::ids(fine);
  named.problem = "a path that does not exist: the import raises FileNotFoundError";
  auto gone = with("2.16.2", {named});
  const Finding* e = testing::find(gone, "tensorflow-plugin-unloadable");
  ASSERT_NE(e, nullptr) << testing::ids(gone);
  EXPECT_TRUE(contains(e->fix, "unset TF_PLUGGABLE_DEVICE_LIBRARY_PATH")) << e->fix;
  EXPECT_FALSE(contains(e->detail, "no installed distribution")) << e->detail;
}

// Which releases read which folders: site.USER_SITE always before 2.5 (2.4.0's __init__.py), only
// where enabled from 2.5 to 2.18, every user scheme from 2.19; TF_PLUGGABLE_DEVICE_LIBRARY_PATH
// from 2.12. An unreadable TensorFlow version decides none of them, nor a requirement.
TEST(TensorflowPlugins, WhatEachReleaseReads) {
  TfPlugin broken = plugin(kUserSite, "libbroken.so", "user scheme");
  broken.problem = "an empty file: dlopen says \"file too short\"";
  EXPECT_TRUE(testing::has(with("2.4.0", {broken}), "tensorflow-plugin-unloadable"));
  const auto before = with("2.4.0", {broken});
  const Finding* old = testing::find(before, "tensorflow-plugin-unloadable");
  ASSERT_NE(old, nullptr);
  EXPECT_TRUE(contains(old->detail, "before 2.5")) << old->detail;
  EXPECT_TRUE(with("2.5.0", {broken}).empty());
  EXPECT_TRUE(with("2.18.1", {broken}).empty());
  EXPECT_TRUE(testing::has(with("2.19.0", {broken}), "tensorflow-plugin-unloadable"));
  TfPlugin other = plugin("/home/u/.local/lib/python/site-packages", "libbroken.so", "other user scheme");
  other.problem = broken.problem;
  EXPECT_TRUE(with("2.4.0", {other}).empty());
  EXPECT_TRUE(testing::has(with("2.19.0", {other}), "tensorflow-plugin-unloadable"));
  TfPlugin named;
  named.path = "/nonexistent";
  named.reached_via = "TF_PLUGGABLE_DEVICE_LIBRARY_PATH";
  named.problem = "a path that does not exist: the import raises FileNotFoundError";
  EXPECT_TRUE(with("2.11.0", {named}).empty());
  EXPECT_TRUE(testing::has(with("2.12.0", {named}), "tensorflow-plugin-unloadable"));
  EXPECT_TRUE(with("", {named, broken}).empty());
  auto unknown = with("", {dml()});
  EXPECT_FALSE(testing::has(unknown, "tensorflow-plugin-mismatch")) << testing::ids(unknown);
}

// Built for another TensorFlow comes first, also when the file is refused: a reinstall of the same
// plugin would not help.
TEST(TensorflowPlugins, AMismatchIsSaidBeforeTheLoadProblem) {
  TfPlugin both = dml();
  both.problem = "an empty file: dlopen says \"file too short\"";
  auto fs = with("2.20.0", {both});
  const Finding* m = testing::find(fs, "tensorflow-plugin-mismatch");
  ASSERT_NE(m, nullptr) << testing::ids(fs);
  EXPECT_FALSE(contains(m->fix, "--force-reinstall")) << m->fix;
  EXPECT_TRUE(contains(m->detail, "file too short")) << m->detail;
  EXPECT_EQ(fs.size(), 1u) << testing::ids(fs);
  // The base Python's site-packages a venv sees: outside the environment.
  auto base = with("2.16.2", {plugin("/usr/lib/python3/dist-packages", "libbase.so", "system site-packages")});
  const Finding* w = testing::find(base, "tensorflow-plugin-outside-env");
  ASSERT_NE(w, nullptr) << testing::ids(base);
  EXPECT_TRUE(contains(w->detail, "include-system-site-packages")) << w->detail;
  // A user-site plugin's removal is pip outside the venv, with what Debian's Python needs.
  TfPlugin user = owned(plugin(kUserSite, "libu.so", "user site"), "uplug", "1.0", "tensorflow", ">=2.0");
  auto u = with("2.16.2", {user}, "conda");
  const Finding* c = testing::find(u, "tensorflow-plugin-outside-env");
  ASSERT_NE(c, nullptr) << testing::ids(u);
  EXPECT_TRUE(contains(c->fix, "env -u PYTHONNOUSERSITE python3.11 -m pip uninstall uplug")) << c->fix;
  EXPECT_TRUE(contains(c->fix, "--break-system-packages")) << c->fix;
}

// The doctor runs them: a plugin finding reaches the report.
TEST(TensorflowPlugins, TheDoctorRunsThem) {
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
  PythonEnvFacts e = testing::env_with("3.11.9", testing::cuda_framework("tensorflow", "2.12.0", "cuda12"));
  e.kind = "venv";
  e.tf_plugins.push_back(dml());
  f.python_envs.push_back(e);
  auto fs = run_checks(f, &testing::builtin_kb());
  EXPECT_TRUE(testing::has(fs, "tensorflow-plugin-mismatch")) << testing::ids(fs);
}

}  // namespace
}  // namespace gpudoctor
