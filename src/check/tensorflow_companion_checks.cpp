#include "check/tensorflow_companion_checks.hpp"

#include <algorithm>

#include "check/compat_checks.hpp"
#include "check/which_pip.hpp"
#include "core/text.hpp"
#include "kb/knowledge_base.hpp"
#include "model/framework.hpp"

namespace gpudoctor {
namespace {

/// LooseVersion order, which tensorflow_probability compares TensorFlow's version with: the
/// numbers only, so 2.16.0rc0 and 2.16.0.dev2024 are not below 2.16.
bool numbers_below(const Version& a, const Version& b) {
  return std::lexicographical_compare(a.parts().begin(), a.parts().end(), b.parts().begin(), b.parts().end());
}

const FrameworkFacts* package_in(const PythonEnvFacts& env, std::string_view package) {
  for (const FrameworkFacts& fw : env.frameworks) {
    if (fw.package == package) return &fw;
  }
  return nullptr;
}

/// tf-keras or its nightly: either gives `import tf_keras`.
bool is_tf_keras(const FrameworkFacts& fw) {
  return fw.package == "tf-keras" || fw.package == "tf-keras-nightly";
}

const FrameworkFacts* tf_keras_in(const PythonEnvFacts& env) {
  for (const FrameworkFacts& fw : env.frameworks) {
    if (is_tf_keras(fw)) return &fw;
  }
  return nullptr;
}

/// The values TensorFlow (2.15 to 2.21: tensorflow/__init__.py and KerasLazyLoader) accepts as
/// "on"; any other value leaves tf.keras on the installed Keras.
bool legacy_keras_on(std::string_view value) {
  return value == "true" || value == "True" || value == "1";
}

/// A value someone meant as "on" that TensorFlow does not read as on.
bool meant_on(std::string_view value) {
  const std::string v = to_lower(std::string(trim(value)));
  return !legacy_keras_on(value) && (v == "true" || v == "1" || v == "yes" || v == "on" || v == "y");
}

/// The command that adds tf-keras of TensorFlow's series. tf-keras requires the `tensorflow`
/// distribution (tf_keras-2.16.0 METADATA: tensorflow<2.17,>=2.16): beside tensorflow-cpu, pip
/// would install `tensorflow` too, over the same tensorflow/ files, so it is told not to.
std::string tf_keras_install(const FrameworkFacts& tf, const std::string& pip) {
  const bool other_dist = tf.package != "tensorflow" && tf.package != "tensorflow-intel";
  return pip + " install " + (other_dist ? "--no-deps " : "") + "\"tf-keras~=" + tf.version.truncated(2).str() + ".0\"";
}

const std::string kLazyLoaderSource =
    "[artefact] tensorflow-2.16.1-cp312 wheel (sha256 "
    "4a123fbb5788ba30d1113ce01bb166ddf85056fcb40e287c32a929ebfa4aa061) "
    "and tensorflow-2.20.0-cp311 wheel (sha256 481499fd0f824583de8945be61d5e827898cdaa4f5ea1bc2cc28ca2ccff8229e): "
    "tensorflow/python/util/lazy_loader.py KerasLazyLoader._initialize (os.environ.get(\"TF_USE_LEGACY_KERAS\") "
    "in (\"true\", \"True\", \"1\"); without tf_keras: ImportError \"Keras cannot be imported\"), "
    "2.15.1 alike (read 2026-12-05)";

class CompanionChecker {
 public:
  CompanionChecker(const Facts& facts, const KnowledgeBase& kb) : facts_(facts), kb_(kb) {
    for (const EnvVarFacts& e : facts.env) {
      if (e.name == "TF_USE_LEGACY_KERAS") legacy_var_ = &e;
    }
  }

  std::vector<Finding> run() {
    for (const PythonEnvFacts& env : facts_.python_envs) {
      const size_t first = out_.size();
      pip_ = env_pip(env);
      keras_rules(env);
      name_environment(out_, first, env);
    }
    return std::move(out_);
  }

 private:
  void add(Finding f) { out_.push_back(std::move(f)); }

  /// The pip of the environment being checked (env_pip).
  std::string pip_;

  bool legacy_keras() const { return legacy_var_ != nullptr && legacy_keras_on(legacy_var_->value); }

  std::string legacy_var_evidence() const {
    return "TF_USE_LEGACY_KERAS=" + (legacy_var_ != nullptr ? legacy_var_->value : std::string()) +
           " (this shell's environment)";
  }

  /// TensorFlow 2.15 on routes tf.keras by the installed Keras (KerasLazyLoader): Keras 3 unless
  /// TF_USE_LEGACY_KERAS is on and tf_keras imports.
  bool tf_keras_is_keras3(const PythonEnvFacts& env, const FrameworkFacts& tf) const {
    if (numbers_below(tf.version, Version::of({2, 15}))) return false;
    if (legacy_keras() && tf_keras_in(env) != nullptr) return false;
    const FrameworkFacts* keras = package_in(env, "keras");
    return keras != nullptr && keras->version.major() >= 3;
  }

  /// TF_USE_LEGACY_KERAS asks for tf-keras; TensorFlow reads only three spellings of "on".
  void legacy_keras_rules(const PythonEnvFacts& env, const FrameworkFacts& tf) {
    if (legacy_var_ == nullptr || numbers_below(tf.version, Version::of({2, 15}))) return;
    const std::string series = tf.version.truncated(2).str();
    if (legacy_keras() && tf_keras_in(env) == nullptr) {
      add(Finding{
          .id = "tf-keras-missing",
          .severity = Severity::error,
          .area = FindingArea::python,
          .title = "TF_USE_LEGACY_KERAS=" + legacy_var_->value + " sends tf.keras to tf-keras, which is not installed",
          .detail = "TensorFlow " + tf.version.str() +
                    " then logs \"Your environment has TF_USE_LEGACY_KERAS set to True, but you do not have the "
                    "tf_keras package installed\", and the first use of tf.keras raises \"ImportError: Keras "
                    "cannot be imported. Check that it is installed.\" It does not fall back to Keras 3.",
          .fix = tf_keras_install(tf, pip_) +
                 " (the Keras 2 of this TensorFlow), or unset TF_USE_LEGACY_KERAS to use Keras 3.",
          .evidence = {legacy_var_evidence(), installed_at(env, tf), "tensorflow " + tf.version.str()},
          .source = kLazyLoaderSource});
    } else if (const FrameworkFacts* keras = package_in(env, "keras");
               meant_on(legacy_var_->value) && keras != nullptr && keras->version.major() >= 3) {
      // With Keras 2 installed (TF 2.15's own), tf.keras is Keras 2 whatever the variable says.
      add(Finding{.id = "tf-legacy-keras-ignored",
                  .severity = Severity::warning,
                  .area = FindingArea::python,
                  .title = "TF_USE_LEGACY_KERAS=" + legacy_var_->value + " is not a value TensorFlow reads as on",
                  .detail = "TensorFlow " + tf.version.str() +
                            " turns legacy Keras on only for \"true\", \"True\" or \"1\"; with this value tf.keras "
                            "stays the installed Keras " +
                            keras->version.str() + ", so Keras 2 code and packages that need tf-keras fail.",
                  .fix = std::string(facts_.platform == Platform::windows ? "set" : "export") +
                         " TF_USE_LEGACY_KERAS=1" +
                         (tf_keras_in(env) == nullptr ? " and " + tf_keras_install(tf, pip_) : std::string()),
                  .evidence = {legacy_var_evidence(), "tensorflow " + tf.version.str()},
                  .source = kLazyLoaderSource});
    }
  }

  /// The newest tensorflow-probability series whose import accepts this TensorFlow.
  const TfProbability* probability_for(const Version& tf) const {
    const TfProbability* best = nullptr;
    for (const TfProbability& p : kb_.tensorflow.probability) {
      if (numbers_below(tf, p.tensorflow)) continue;
      if (best == nullptr || best->probability < p.probability) best = &p;
    }
    return best;
  }

  /// Installs the newest tensorflow-probability that accepts this TensorFlow, with the tf-keras
  /// it imports.
  std::string probability_install(const TfProbability& p, const FrameworkFacts& tf) const {
    return pip_ + " install \"tensorflow-probability~=" + p.probability.str() +
           ".0\" (the newest release that accepts TensorFlow " + tf.version.truncated(2).str() + ")" +
           (p.tf_keras ? " and " + tf_keras_install(tf, pip_) : std::string());
  }

  /// tensorflow-probability checks TensorFlow itself before its TensorFlow modules load
  /// (python/__init__.py, _validate_tf_environment): a floor, and from 0.24 `import tf_keras`.
  /// Its METADATA's base requirements name no TensorFlow, so pip check passes either way.
  void probability_rule(const PythonEnvFacts& env, const FrameworkFacts& fw, const FrameworkFacts& tf) {
    const TfProbability* row = nullptr;
    for (const TfProbability& p : kb_.tensorflow.probability) {
      if (fw.version.same_series(p.probability, 2)) row = &p;
    }
    // The installed file is the best source; the table stands in when it could not be read.
    const bool from_install = fw.requires_tensorflow.has_value();
    if (!from_install && row == nullptr) return;
    const Version floor = from_install ? *fw.requires_tensorflow : row->tensorflow;
    const bool needs_tf_keras = from_install ? fw.imports_tf_keras : row->tf_keras;
    const std::string source =
        from_install ? fw.evidence + " (_validate_tf_environment), read from this install" : row->source;
    const TfProbability* fits = probability_for(tf.version);
    const std::string series = tf.version.truncated(2).str();
    const std::string when =
        " It runs before tfp's TensorFlow modules load: at `import tensorflow_probability` when TensorFlow "
        "was imported first, else at the first use of tfp.distributions and the others.";
    if (numbers_below(tf.version, floor)) {
      add(Finding{.id = "tensorflow-probability-mismatch",
                  .severity = Severity::error,
                  .area = FindingArea::python,
                  .title = "tensorflow-probability " + fw.version.str() + " needs TensorFlow >= " + floor.str() +
                           ", but TensorFlow " + tf.version.str() + " is installed",
                  .detail = "Its import checks TensorFlow's version and raises \"ImportError: This version of "
                            "TensorFlow Probability requires TensorFlow version >= " +
                            floor.str() + "; Detected an installation of version " + tf.version.str() + ".\"" + when +
                            " `pip check` does not see it: the release's base requirements name no TensorFlow.",
                  .fix = fits != nullptr ? probability_install(*fits, tf) + ", or upgrade TensorFlow to " +
                                               floor.str() + " or later."
                                         : "Upgrade TensorFlow to " + floor.str() + " or later.",
                  .evidence = {installed_at(env, fw), "tensorflow " + tf.version.str()},
                  .source = source});
      return;
    }
    if (needs_tf_keras && tf_keras_in(env) == nullptr) {
      add(Finding{.id = "tensorflow-probability-tf-keras-missing",
                  .severity = Severity::error,
                  .area = FindingArea::python,
                  .title = "tensorflow-probability " + fw.version.str() + " imports tf_keras, which is not installed",
                  .detail = "From 0.24 its Keras layers are built on tf-keras (Keras 2), and its import checks for "
                            "it: without it, it prints \"Failed to import TF-Keras\" and raises "
                            "\"ModuleNotFoundError: No module named 'tf_keras'\"." +
                            when,
                  .fix = tf_keras_install(tf, pip_) + " (the Keras 2 of this TensorFlow).",
                  .evidence = {installed_at(env, fw), "tensorflow " + tf.version.str()},
                  .source = source});
      return;
    }
    if (!needs_tf_keras && tf_keras_is_keras3(env, tf)) {
      const FrameworkFacts* keras = package_in(env, "keras");
      const bool keras3_release = !numbers_below(tf.version, Version::of({2, 16}));
      add(Finding{.id = "tensorflow-probability-keras3",
                  .severity = Severity::error,
                  .area = FindingArea::python,
                  .title = "tensorflow-probability " + fw.version.str() + " does not work with Keras 3 as tf.keras",
                  .detail = "Releases before 0.24 build on tf.keras's Keras 2 internals (tf.keras.__internal__). "
                            "TensorFlow " +
                            tf.version.str() + " maps tf.keras to the installed Keras " +
                            (keras != nullptr ? keras->version.str() : std::string("3")) +
                            ", so tensorflow_probability fails to load (\"AttributeError: module "
                            "'keras._tf_keras.keras' has no attribute '__internal__'\")." +
                            when,
                  .fix = keras3_release && fits != nullptr && fits->tf_keras
                             ? probability_install(*fits, tf) + ", or keep this release on Keras 2: " +
                                   tf_keras_install(tf, pip_) + " and set TF_USE_LEGACY_KERAS=1."
                         : keras3_release ? tf_keras_install(tf, pip_) + " and set TF_USE_LEGACY_KERAS=1."
                                          : pip_ + " install \"keras~=" + series +
                                                ".0\" (the Keras 2 this TensorFlow requires), or " +
                                                tf_keras_install(tf, pip_) + " and set TF_USE_LEGACY_KERAS=1.",
                  .evidence = {installed_at(env, fw), "tensorflow " + tf.version.str(),
                               "keras " + (keras != nullptr ? keras->version.str() : std::string("?"))},
                  .source = source});
    }
  }

  /// tensorflow-addons supports one TensorFlow range per release (its version.py) and has reached
  /// its end of life (0.23 is the last release, for TensorFlow 2.13-2.15): outside the range its
  /// compiled ops fail to load and Keras 3 (TF >= 2.16) breaks its layers; inside, it still works.
  void addons_rule(const PythonEnvFacts& env, const FrameworkFacts& fw, const FrameworkFacts& tf) {
    // Every release imports keras.src.engine.keras_tensor (tensorflow_addons/utils/types.py),
    // which no Keras 3 has: with Keras 3 installed `import tensorflow_addons` fails whatever the
    // TensorFlow, TF_USE_LEGACY_KERAS and tf-keras included.
    for (const FrameworkFacts& k : env.frameworks) {
      if (k.name != "keras" || is_tf_keras(k) || k.version.major() < 3) continue;
      add(Finding{
          .id = "tensorflow-addons-keras3",
          .severity = Severity::error,
          .area = FindingArea::python,
          .title = "tensorflow-addons " + fw.version.str() + " does not import beside Keras " + k.version.str(),
          .detail = "tensorflow-addons is written against Keras 2's internals: `import tensorflow_addons` "
                    "imports keras.src.engine, which Keras 3 does not have (\"ModuleNotFoundError: No "
                    "module named 'keras.src.engine'\"), also with TF_USE_LEGACY_KERAS=1 and tf-keras. "
                    "TensorFlow " +
                    tf.version.str() +
                    (tf.version >= Version::of({2, 16}) ? " requires Keras 3, so no tensorflow-addons works with it."
                                                        : " is built on Keras 2."),
          .fix = tf.version >= Version::of({2, 16})
                     ? "Replace tensorflow-addons (its ops moved to Keras, KerasCV and KerasNLP), or keep it in "
                       "an environment with TensorFlow 2.15 and Keras 2: pip install \"tensorflow~=2.15.0\" "
                       "\"keras~=2.15.0\" \"tensorflow-addons~=0.23.0\"."
                     : pip_ + " install \"keras~=" + tf.version.truncated(2).str() +
                           ".0\" (the Keras 2 of this TensorFlow).",
          .evidence = {installed_at(env, fw), "keras " + k.version.str(), "tensorflow " + tf.version.str()},
          .source = "[artefact] tensorflow_addons-0.23.0-cp311 wheel (sha256 "
                    "591b1c38cfe170727746a60983157ecbdef6a7062dfea8988558e1ab885b513a): "
                    "tensorflow_addons/utils/types.py `from keras.src.engine import keras_tensor` (0.21 and "
                    "0.22 alike); no keras 3.x wheel has keras/src/engine; import reproduced failing with "
                    "TensorFlow 2.15.1 and Keras 3 (2026-12-05)"});
      return;
    }
    const TfAddons* row = nullptr;
    const TfAddons* last = nullptr;
    for (const TfAddons& a : kb_.tensorflow.addons) {
      if (fw.version.same_series(a.addons, 2)) row = &a;
      if (last == nullptr || last->addons < a.addons) last = &a;
    }
    if (row == nullptr || last == nullptr) return;  // a release the table does not know: say nothing
    const std::string eol = last->end_of_life.empty() ? "" : " (planned end of life " + last->end_of_life + ")";
    const std::string ended = "TensorFlow Addons has ended development" + eol + "; its last release, " +
                              last->addons.str() + ", supports TensorFlow " + last->tensorflow.text() +
                              ". Its own notice points to Keras, KerasCV and KerasNLP instead.";
    if (row->tensorflow.contains(tf.version)) {
      add(Finding{.id = "tensorflow-addons-end-of-life",
                  .severity = Severity::info,
                  .area = FindingArea::python,
                  .title = "tensorflow-addons " + fw.version.str() + " is end-of-life",
                  .detail = "It supports the installed TensorFlow " + tf.version.str() + " (" + row->tensorflow.text() +
                            "), but it gets no new releases. " + ended,
                  .fix = "",
                  .evidence = {installed_at(env, fw), "tensorflow " + tf.version.str()},
                  .source = last->source});
      return;
    }
    const bool newer_tf = row->tensorflow.highest() && !(tf.version < *row->tensorflow.highest());
    add(Finding{.id = "tensorflow-addons-mismatch",
                .severity = Severity::warning,
                .area = FindingArea::python,
                .title = "tensorflow-addons " + fw.version.str() + " supports TensorFlow " + row->tensorflow.text() +
                         ", but TensorFlow " + tf.version.str() + " is installed",
                .detail = "Its compiled ops are built against the TensorFlow it supports and may fail to load in "
                          "another (undefined symbol / NotFoundError), and it warns at import that this "
                          "TensorFlow is not supported. " +
                          ended,
                .fix = newer_tf && !last->tensorflow.contains(tf.version)
                           ? "No tensorflow-addons release supports TensorFlow " + tf.version.truncated(2).str() +
                                 ": replace it (Keras, KerasCV, KerasNLP), or pin \"tensorflow" +
                                 last->tensorflow.text() + "\" with \"tensorflow-addons==" + last->addons.str() +
                                 ".*\"."
                           : pip_ + " install a tensorflow-addons release whose range holds TensorFlow " +
                                 tf.version.str() + " (see `gpudoctor matrix`), or replace it.",
                .evidence = {installed_at(env, fw), "tensorflow " + tf.version.str()},
                .source = row->source});
  }

  /// TensorFlow requires one Keras per series (its METADATA): Keras 2 of the same minor up to
  /// 2.15, Keras 3 from 2.16. Keras 2 code on 2.16+ uses `tf-keras` of TensorFlow's series.
  void keras_rules(const PythonEnvFacts& env) {
    const FrameworkFacts* tf = nullptr;
    for (const FrameworkFacts& fw : env.frameworks) {
      if (fw.name == "tensorflow") tf = &fw;
    }
    if (tf == nullptr) return;
    legacy_keras_rules(env, *tf);
    const TfKeras* row = nullptr;
    for (const TfKeras& k : kb_.tensorflow.keras) {
      if (tf->version.same_series(k.tensorflow, 2)) row = &k;
    }
    const std::string series = tf->version.truncated(2).str();
    for (const FrameworkFacts& fw : env.frameworks) {
      // tensorflow-text pins TensorFlow's minor (its METADATA: tensorflow<2.(N+1),>=2.N); its ops
      // are compiled against that TensorFlow and fail to load in another.
      if (fw.name == "tensorflow-text" && !fw.version.parts().empty() && !fw.version.same_series(tf->version, 2)) {
        add(Finding{.id = "tensorflow-text-mismatch",
                    .severity = Severity::error,
                    .area = FindingArea::python,
                    .title = "tensorflow-text " + fw.version.str() + " is built for TensorFlow " +
                             fw.version.truncated(2).str() + ", but TensorFlow " + tf->version.str() + " is installed",
                    .detail = "tensorflow-text's compiled ops load only into the TensorFlow minor it was built for "
                              "(undefined symbol / NotFoundError when its .so is loaded).",
                    .fix = pip_ + " install \"tensorflow-text~=" + series + ".0\"",
                    .evidence = {installed_at(env, fw), "tensorflow " + tf->version.str()},
                    .source = "[artefact] tensorflow-text METADATA (Requires-Dist: tensorflow<2.(N+1),>=2.N for "
                              "every release 2.10-2.21; data/harvest/artefacts.toml)"});
        continue;
      }
      if (fw.name == "tensorflow-addons") {
        addons_rule(env, fw, *tf);
        continue;
      }
      if (fw.name == "tensorflow-probability") {
        probability_rule(env, fw, *tf);
        continue;
      }
      if (fw.name != "keras" || fw.version.parts().empty()) continue;
      if (is_tf_keras(fw)) {
        if (fw.version.same_series(tf->version, 2)) continue;
        add(Finding{.id = "keras-mismatch",
                    .severity = Severity::error,
                    .area = FindingArea::python,
                    .title = "tf-keras " + fw.version.str() + " is built for TensorFlow " +
                             fw.version.truncated(2).str() + ", but TensorFlow " + tf->version.str() + " is installed",
                    .detail = "tf-keras pins one TensorFlow series (tensorflow<2.(N+1),>=2.N): with another, "
                              "`import tf_keras` fails or pulls another TensorFlow.",
                    .fix = tf_keras_install(*tf, pip_) + " (and set TF_USE_LEGACY_KERAS=1 for Keras 2 code).",
                    .evidence = {installed_at(env, fw), "tensorflow " + tf->version.str()},
                    .source = row != nullptr ? row->source : "compat/tensorflow.toml"});
        continue;
      }
      if (row == nullptr) {
        keras_by_metadata(env, fw, *tf);
        continue;
      }
      if (row->keras.contains(fw.version)) continue;
      const bool keras3_on_old_tf =
          fw.version.major() >= 3 && row->keras.highest() && row->keras.highest()->major() < 3;
      if (keras3_on_old_tf && tf->version >= Version::of({2, 15})) {
        // 2.15 routes tf.keras by the installed Keras (KerasLazyLoader): Keras 3 works as tf.keras.
        add(Finding{
            .id = "keras-mismatch",
            .severity = Severity::warning,
            .area = FindingArea::python,
            .title = "Keras " + fw.version.str() + " with TensorFlow " + tf->version.str() +
                     ": tf.keras is Keras 3 (TensorFlow requires keras" + row->keras.text() + ")",
            .detail = "TensorFlow 2.15 maps tf.keras to the installed Keras: with Keras 3, to keras._tf_keras.keras "
                      "(tensorflow/python/util/lazy_loader.py, KerasLazyLoader), so `import tensorflow` and Keras 3 "
                      "models work. Keras 2 code does not (keras.engine and other Keras 2 internals), nor do "
                      "tensorflow-addons and tensorflow-probability up to 0.23, and `pip check` fails: TensorFlow " +
                      tf->version.str() + " requires keras" + row->keras.text() + ".",
            .fix = "For Keras 2 code: " + tf_keras_install(*tf, pip_) +
                   " and set TF_USE_LEGACY_KERAS=1 (TensorFlow 2.15 honours it), or " + pip_ + " install \"keras" +
                   row->keras.text() + "\". For Keras 3, TensorFlow >= 2.16 is the release built on it.",
            .evidence = {installed_at(env, fw), "tensorflow " + tf->version.str()},
            .source = "[artefact] tensorflow-2.15.1-cp311 wheel (sha256 "
                      "bb0edd69103c154245c5f209f0507355cc68ba7e4de350084bc31edc562478e4) "
                      "tensorflow/python/util/lazy_loader.py KerasLazyLoader (keras 3.x -> keras._tf_keras.keras; "
                      "TF_USE_LEGACY_KERAS -> tf_keras), 2.15.0 alike, absent from 2.14.1; tf.keras trained a model "
                      "with Keras 3.0.0 to 3.15.1 on TensorFlow 2.15.1 (2026-12-05)"});
        continue;
      }
      add(Finding{
          .id = "keras-mismatch",
          .severity = Severity::error,
          .area = FindingArea::python,
          .title = "Keras " + fw.version.str() + " does not fit TensorFlow " + tf->version.str() +
                   " (it requires keras" + row->keras.text() + ")",
          .detail = keras3_on_old_tf
                        ? "TensorFlow before 2.16 is built on Keras 2; with Keras 3 installed, tf.keras and model "
                          "code fail (import errors, 'KerasTensor' and optimizer errors)."
                        : "TensorFlow " + series +
                              " is built on Keras 3; Keras 2 code on it needs the tf-keras package of the same "
                              "series and TF_USE_LEGACY_KERAS=1.",
          .fix = keras3_on_old_tf
                     ? pip_ + " install \"keras" + row->keras.text() +
                           "\" (Keras 2 for this TensorFlow), or upgrade to TensorFlow >= 2.16 for Keras 3."
                     : pip_ + " install -U \"keras" + row->keras.text() +
                           "\"; for Keras 2 code: " + tf_keras_install(*tf, pip_) + " and set TF_USE_LEGACY_KERAS=1.",
          .evidence = {installed_at(env, fw), "tensorflow " + tf->version.str()},
          .source = row->source});
    }
  }

  /// A TensorFlow the tables lack (2.22 on): its own METADATA's Keras requirement judges the
  /// installed Keras. Keras 2 beside a release that requires Keras 3 crosses the major tf.keras is
  /// built on; an older Keras 3 only fails `pip check`.
  void keras_by_metadata(const PythonEnvFacts& env, const FrameworkFacts& keras, const FrameworkFacts& tf) {
    for (const DistRequirement& req : tf.keras_requires) {
      if (req.specifier.empty() || !req.marker.empty()) continue;
      const auto spec = VersionSpec::parse(req.specifier);
      if (!spec || spec->contains(keras.version)) continue;
      const auto low = spec->lowest();
      const bool other_major = low && keras.version.major() < low->major();
      const std::string wanted = req.name + req.specifier;
      add(Finding{.id = "keras-mismatch",
                  .severity = other_major ? Severity::error : Severity::warning,
                  .area = FindingArea::python,
                  .title = "Keras " + keras.version.str() + " does not fit TensorFlow " + tf.version.str() +
                           " (its METADATA requires " + wanted + ")",
                  .detail = other_major
                                ? "TensorFlow " + tf.version.str() + " is built on Keras " +
                                      std::to_string(low->major()) + ": tf.keras and model code fail with Keras " +
                                      std::to_string(keras.version.major()) + " installed, and `pip check` fails."
                                : "tf.keras usually imports, but `pip check` fails and the next install that "
                                  "resolves TensorFlow's requirements changes Keras.",
                  .fix = pip_ + " install -U \"keras" + req.specifier + "\"",
                  .evidence = {installed_at(env, keras), "tensorflow " + tf.version.str()},
                  .source = "[installed] " + (tf.package.empty() ? tf.name : tf.package) + " " + tf.version.str() +
                            " METADATA (Requires-Dist: " + wanted + ")"});
      return;
    }
  }

  const Facts& facts_;
  const KnowledgeBase& kb_;
  const EnvVarFacts* legacy_var_ = nullptr;
  std::vector<Finding> out_;
};

}  // namespace

std::vector<Finding> tensorflow_companion_findings(const Facts& facts, const KnowledgeBase& kb) {
  return CompanionChecker(facts, kb).run();
}

}  // namespace gpudoctor
