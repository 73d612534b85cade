/// The documented tables (data/compat/) against the facts read from the released wheels
/// (data/harvest/artefacts.toml, written by scripts/harvest-kb.py). A disagreement fails:
/// either the documentation copied a wrong fact, or a new release changed one.
#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kb/data_files.hpp"
#include "kb/knowledge_base.hpp"
#include "kb_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::v;

struct Artefact {
  std::string package, platform, cuda, cudnn, is_cuda_build, source;
  Version version;
  std::vector<std::string> pythons, archs;
  std::string requires_python, torch;         ///< torch: the torch==X a torchvision/torchaudio pins
  std::string cuda12_plugin, cuda13_plugin;   ///< jax: the plugin versions its extras pin
  std::string tf;                             ///< tf-keras / tensorflow-text: the TensorFlow they require
  std::vector<std::string> sass, ptx;         ///< torch-elf / cuDNN: what cuobjdump lists in the library
  std::string cuda_major, header;             ///< cuDNN wheels: cuNN of the package, cudnn_version.h
  std::string end_of_life;                    ///< tensorflow-addons: its own end-of-life notice
  std::string cudart;                         ///< jax plugins: what the with-cuda extra asks of the CUDA runtime
  std::string and_cuda_cudnn;                 ///< tensorflow: what its [and-cuda] extra asks of nvidia-cudnn-cuNN
  std::string import_floor, import_tf_keras;  ///< tensorflow-probability: what its python/__init__.py checks
};

std::string str(const toml::table& t, const char* key) {
  return t[key].value_or(std::string());
}

std::vector<Artefact> load_artefacts() {
  std::filesystem::path p = std::filesystem::path(GPUDOCTOR_SOURCE_DIR) / "data/harvest/artefacts.toml";
  toml::table root = toml::parse_file(p.string());
  std::vector<Artefact> out;
  if (const toml::array* rows = root["artefact"].as_array()) {
    for (const toml::node& n : *rows) {
      const toml::table& t = *n.as_table();
      Artefact a{str(t, "package"),
                 str(t, "platform"),
                 str(t, "cuda"),
                 str(t, "cudnn"),
                 str(t, "is_cuda_build"),
                 str(t, "source"),
                 *Version::parse(str(t, "version")),
                 {},
                 {},
                 str(t, "requires_python"),
                 str(t, "torch"),
                 str(t, "cuda12_plugin"),
                 str(t, "cuda13_plugin"),
                 str(t, "tensorflow")};
      for (auto [key, list] : {std::pair{"pythons", &a.pythons}, std::pair{"archs", &a.archs},
                               std::pair{"sass", &a.sass}, std::pair{"ptx", &a.ptx}}) {
        if (const toml::array* arr = t[key].as_array()) {
          for (const toml::node& e : *arr) list->push_back(e.value_or(std::string()));
        }
      }
      a.cuda_major = str(t, "cuda_major");
      a.header = str(t, "header");
      a.end_of_life = str(t, "end_of_life");
      a.and_cuda_cudnn = str(t, "and_cuda_cudnn");
      a.cudart = str(t, "cudart");
      a.import_floor = str(t, "import_tensorflow_floor");
      a.import_tf_keras = str(t, "import_tf_keras");
      out.push_back(std::move(a));
    }
  }
  return out;
}

/// The newest patch release of each series on one platform ("2.14" -> the 2.14.1 row).
std::map<Version, Artefact> newest_per_series(const std::vector<Artefact>& all, const std::string& package,
                                              const std::string& platform) {
  std::map<Version, Artefact> out;
  for (const Artefact& a : all) {
    if (a.package != package || a.platform != platform) continue;
    Version series = a.version.truncated(2);
    auto it = out.find(series);
    if (it == out.end() || it->second.version < a.version) out[series] = a;
  }
  return out;
}

std::string tag_of(const std::string& cuda) {
  if (cuda == "cpu" || cuda.empty()) return cuda;
  Version c = *Version::parse(cuda);
  return "cu" + std::to_string(c.major()) + std::to_string(c.minor());
}

const Artefact* find_artefact(const std::vector<Artefact>& all, const std::string& package, const Version& version,
                              const std::string& platform) {
  for (const Artefact& a : all) {
    if (a.package == package && a.version == version && a.platform == platform) return &a;
  }
  return nullptr;
}

/// The lower bound of ">=3.10" / "<10.0,>=9.12.0.46" (the harvest keeps pip's order).
std::optional<Version> floor_of(const std::string& spec) {
  size_t at = spec.find(">=");
  if (at == std::string::npos) return std::nullopt;
  std::string rest = spec.substr(at + 2);
  return Version::parse(rest.substr(0, rest.find(',')));
}

/// JAX: every release on PyPI has a row; its Python range starts at Requires-Python and ends at
/// the newest cp3XY jaxlib wheel; its extras are the plugins on PyPI; their cuDNN floors match.
void jax_disagreements(const KnowledgeBase& kb, const std::vector<Artefact>& all, std::vector<std::string>& out) {
  for (const Artefact& a : all) {
    if (a.package != "jax") continue;
    std::string at = "jax " + a.version.str() + " (" + a.source + "): ";
    const JaxRelease* r = kb.jax_release(a.version);
    if (r == nullptr) {
      out.push_back(at + "no [[release]] row in jax.toml");
      continue;
    }
    if (auto py = floor_of(a.requires_python); py && r->python.lowest() != py) {
      out.push_back(at + "Python range " + r->python.text() + ", METADATA says " + a.requires_python);
    }
    if (const Artefact* lib = find_artefact(all, "jaxlib", a.version, "linux-x86_64"); lib && !lib->pythons.empty()) {
      if (r->python.highest() != Version::parse(lib->pythons.back())) {
        out.push_back(at + "Python range " + r->python.text() + ", newest jaxlib wheel is cp" + lib->pythons.back());
      }
    }
    for (const char* extra : {"cuda12", "cuda13"}) {
      // The newest plugin wheel the jax pin accepts (a jax-only release reuses an older one).
      const std::string& pin = std::string(extra) == "cuda13" ? a.cuda13_plugin : a.cuda12_plugin;
      auto accepted = VersionSpec::parse(pin);
      const Artefact* plugin = nullptr;
      for (const Artefact& p : all) {
        if (p.package != std::string("jax-") + extra + "-plugin" || p.platform != "linux-x86_64") continue;
        if (!pin.empty() && accepted && accepted->contains(p.version) && (!plugin || plugin->version < p.version))
          plugin = &p;
      }
      bool listed = std::find(r->extras.begin(), r->extras.end(), extra) != r->extras.end();
      if (listed != (plugin != nullptr)) {
        out.push_back(at + extra + (listed ? " listed, but PyPI has no plugin wheel" : " plugin wheel not listed"));
      }
      if (plugin == nullptr) continue;
      const std::optional<VersionSpec>& spec = std::string(extra) == "cuda13" ? r->cuda13_cudnn : r->cuda12_cudnn;
      std::optional<Version> want = floor_of(plugin->cudnn);
      std::optional<Version> have = spec ? spec->lowest() : std::nullopt;
      if (want != have) {
        out.push_back(at + extra + " cuDNN " + (spec ? spec->text() : "unset") + ", plugin requires " +
                      (plugin->cudnn.empty() ? "none" : plugin->cudnn));
      }
    }
  }
}

/// JAX's per-extra floors ([[variant]]: the install guide's) hold for every harvested release: no
/// PJRT plugin (xla_cuda_plugin.so, cuobjdump) starts its SASS above the extra's min_cc (a wrong ✓
/// for the cards between), and every plugin's with-cuda extra asks for the variant's CUDA runtime.
void jax_floor_disagreements(const KnowledgeBase& kb, const std::vector<Artefact>& all, std::vector<std::string>& out) {
  for (const Artefact& a : all) {
    const bool pjrt = a.package.starts_with("jax-cuda") && a.package.ends_with("-pjrt");
    const bool plugin = a.package.starts_with("jax-cuda") && a.package.ends_with("-plugin");
    if ((!pjrt || a.sass.empty()) && (!plugin || a.cudart.empty() || a.platform != "linux-x86_64")) continue;
    std::string extra = a.package.substr(4, a.package.find('-', 4) - 4);  // "cuda12"
    std::string at = a.package + " " + a.version.str() + " (" + a.source + "): ";
    const JaxVariant* var = kb.jax_variant(extra);
    if (var == nullptr) {
      out.push_back(at + "no [[variant]] " + extra + " in jax.toml");
      continue;
    }
    if (pjrt) {
      Version lowest = *Version::parse(a.sass.front());
      for (const std::string& s : a.sass) lowest = std::min(lowest, *Version::parse(s));
      if (var->min_cc < lowest) {
        out.push_back(at + extra + " min_cc " + var->min_cc.str() + " is below the plugin's lowest SASS " +
                      lowest.str());
      }
    } else if (auto floor = floor_of(a.cudart); !floor || var->cuda.lowest() != floor->truncated(2)) {
      out.push_back(at + extra + " cuda " + var->cuda.text() + ", the with-cuda extra asks for cudart" + a.cudart);
    }
  }
}

/// PyTorch: the arch list of PyPI's default variant is what cuobjdump finds in libtorch_cuda.so.
void torch_elf_disagreements(const KnowledgeBase& kb, const std::vector<Artefact>& all, std::vector<std::string>& out) {
  for (const Artefact& a : all) {
    if (a.package != "torch-elf") continue;
    std::string at = "torch " + a.version.str() + " (" + a.source + "): ";
    const TorchRelease* rel = kb.torch_release(a.version);
    const TorchVariant* var = rel != nullptr ? kb.torch_variant(*rel, rel->pypi_linux) : nullptr;
    if (var == nullptr) {
      out.push_back(at + "no row for its PyPI default variant");
      continue;
    }
    std::vector<Version> sass;
    for (const std::string& s : a.sass) sass.push_back(*Version::parse(s));
    std::optional<Version> ptx = a.ptx.empty() ? std::nullopt : Version::parse(a.ptx.back());
    if (var->archs != sass) out.push_back(at + var->tag + " archs differ from libtorch_cuda.so");
    if (var->ptx != ptx) out.push_back(at + var->tag + " PTX differs from libtorch_cuda.so");
  }
}

/// cuDNN (nvidia-cudnn-cuNN wheels): every harvested release has a cudnn.toml row for its CUDA
/// major; no row names a compute capability the binary has no SASS for (a wrong ✓); a row read
/// from the wheel ([artefact]) lists exactly the binary's architectures.
void cudnn_disagreements(const KnowledgeBase& kb, const std::vector<Artefact>& all, std::vector<std::string>& out) {
  for (const Artefact& a : all) {
    if (!a.package.starts_with("nvidia-cudnn-cu")) continue;
    std::string at = a.package + " " + a.version.str() + " (" + a.source + "): ";
    if (Version::parse(a.header) != a.version.truncated(3)) out.push_back(at + "cudnn_version.h says " + a.header);
    if (a.package != "nvidia-cudnn-cu" + a.cuda_major) out.push_back(at + "cuda_major " + a.cuda_major);
    std::vector<Version> sass;
    for (const std::string& s : a.sass) sass.push_back(*Version::parse(s));
    bool found = false;
    for (const CudnnBuild& b : kb.cudnn_builds) {
      if (std::to_string(b.cuda_major) != a.cuda_major || !b.cudnn.contains(a.version)) continue;
      found = true;
      for (const Version& cc : b.cc) {
        if (KnowledgeBase::coverage_by_list(cc, sass, std::nullopt) == ArchCoverage::none) {
          out.push_back(at + "cudnn.toml row " + b.cudnn.text() + " lists compute capability " + cc.str() +
                        ", the binary has no SASS for it");
        }
      }
      if (b.source.starts_with("[artefact]") && b.cc != sass) {
        out.push_back(at + "cudnn.toml row " + b.cudnn.text() + " (read from the wheel) cc differs from the binary");
      }
    }
    if (!found) out.push_back(at + "no cudnn.toml row for cuDNN " + a.version.str() + " with CUDA " + a.cuda_major);
  }
}

/// torchvision / torchaudio: the series pytorch.toml pairs with a torch release is the one
/// whose wheels pin that torch.
void companion_disagreements(const KnowledgeBase& kb, const std::vector<Artefact>& all, std::vector<std::string>& out) {
  // The doctor assumes tensorflow-text X.Y needs TensorFlow X.Y (tensorflow-text-mismatch).
  for (const Artefact& a : all) {
    if (a.package != "tensorflow-text") continue;
    auto floor = floor_of(a.tf);
    if (!floor || !floor->same_series(a.version, 2)) {
      out.push_back("tensorflow-text " + a.version.str() + " (" + a.source + "): requires tensorflow" + a.tf +
                    ", not its own minor");
    }
  }
  // tensorflow-addons: the TensorFlow range of each series is its version.py's.
  for (const Artefact& a : all) {
    if (a.package != "tensorflow-addons" || a.platform != "linux-x86_64" || a.tf.empty()) continue;
    std::string at = "tensorflow-addons " + a.version.str() + " (" + a.source + "): ";
    const TfAddons* row = nullptr;
    for (const TfAddons& r : kb.tensorflow.addons) {
      if (r.addons.same_series(a.version, 2)) row = &r;
    }
    if (row == nullptr) {
      out.push_back(at + "no [[addons]] row in tensorflow.toml");
    } else if (row->tensorflow.text() != a.tf || row->end_of_life != a.end_of_life) {
      out.push_back(at + "row says tensorflow" + row->tensorflow.text() + " (end of life '" + row->end_of_life +
                    "'), version.py says " + a.tf + " ('" + a.end_of_life + "')");
    }
  }
  // tensorflow-probability: every release's import checks are its series' [[probability]] row.
  for (const Artefact& a : all) {
    if (a.package != "tensorflow-probability" || a.import_floor.empty()) continue;
    std::string at = "tensorflow-probability " + a.version.str() + " (" + a.source + "): ";
    const TfProbability* row = nullptr;
    for (const TfProbability& r : kb.tensorflow.probability) {
      if (r.probability.same_series(a.version, 2)) row = &r;
    }
    if (row == nullptr) {
      out.push_back(at + "no [[probability]] row in tensorflow.toml");
    } else if (row->tensorflow.str() != a.import_floor || row->tf_keras != (a.import_tf_keras == "yes")) {
      out.push_back(at + "row says tensorflow >= " + row->tensorflow.str() + (row->tf_keras ? " with" : " without") +
                    " tf_keras, its __init__.py says >= " + a.import_floor + " (import tf_keras: " + a.import_tf_keras +
                    ")");
    }
  }
  for (const Artefact& a : all) {
    // Only an exact pin names the torch (torchvision 0.29.1 says torch>=2.14.0).
    if ((a.package != "torchvision" && a.package != "torchaudio") || a.platform != "linux-x86_64" || a.torch.empty() ||
        !std::isdigit(static_cast<unsigned char>(a.torch[0])))
      continue;
    auto torch = Version::parse(a.torch);
    const TorchRelease* rel = torch ? kb.torch_release(*torch) : nullptr;
    std::string at = a.package + " " + a.version.str() + " (" + a.source + "): ";
    if (rel == nullptr) {
      out.push_back(at + "pins torch " + a.torch + ", which pytorch.toml does not know");
      continue;
    }
    const std::string& paired = a.package == "torchvision" ? rel->torchvision : rel->torchaudio;
    if (paired != a.version.truncated(2).str()) {
      out.push_back(at + "pins torch " + a.torch + ", pytorch.toml pairs " + rel->version.str() + " with " + a.package +
                    " '" + paired + "'");
    }
  }
}

/// Every disagreement between the documented tables and the harvested artefacts.
std::vector<std::string> disagreements(const KnowledgeBase& kb, const std::vector<Artefact>& all) {
  std::vector<std::string> out;
  auto torch_plat = [&](const char* platform) { return newest_per_series(all, "torch", platform); };
  auto x86 = torch_plat("linux-x86_64");
  auto arm = torch_plat("linux-aarch64");
  auto win = torch_plat("windows");
  for (const auto& [series, a] : x86) {
    const TorchRelease* rel = kb.torch_release(series);
    std::string at = "torch " + series.str() + " (" + a.source + "): ";
    if (rel == nullptr) {
      out.push_back(at + "release missing from pytorch.toml");
      continue;
    }
    // Python: every documented minor has a wheel, and the lowest wheel is inside the range.
    for (int minor = 6; minor <= 20; ++minor) {
      std::string py = "3." + std::to_string(minor);
      bool wheel = std::find(a.pythons.begin(), a.pythons.end(), py) != a.pythons.end();
      if (rel->python.contains(v(py.c_str())) && !wheel) out.push_back(at + "range claims Python " + py + ", no wheel");
    }
    if (!a.pythons.empty() && !rel->python.contains(v(a.pythons.front().c_str()))) {
      out.push_back(at + "range misses Python " + a.pythons.front());
    }
    std::string tag = tag_of(a.cuda);
    if (rel->pypi_linux != tag) out.push_back(at + "pypi_linux '" + rel->pypi_linux + "', wheel is " + tag);
    if (arm.contains(series) && rel->pypi_aarch64 != tag_of(arm.at(series).cuda)) {
      out.push_back(at + "pypi_aarch64 '" + rel->pypi_aarch64 + "', wheel is " + tag_of(arm.at(series).cuda));
    }
    if (win.contains(series) && rel->pypi_windows != tag_of(win.at(series).cuda)) {
      out.push_back(at + "pypi_windows '" + rel->pypi_windows + "', wheel is " + tag_of(win.at(series).cuda));
    }
    const TorchVariant* var = kb.torch_variant(*rel, tag);
    if (var == nullptr) {
      out.push_back(at + "no variant " + tag + " although PyPI's default wheel is one");
    } else if (var->cudnn && !a.cudnn.empty() && *var->cudnn != v(a.cudnn.c_str())) {
      out.push_back(at + tag + " cuDNN " + var->cudnn->str() + ", wheel pins " + a.cudnn);
    }
  }
  for (const auto& [series, a] : newest_per_series(all, "tensorflow", "linux-x86_64")) {
    if (a.is_cuda_build != "True") continue;
    const TfBuild* b = kb.tf_build(series, Platform::linux);
    std::string at = "tensorflow " + series.str() + " (" + a.source + "): ";
    if (b == nullptr || !b->cuda) {
      out.push_back(at + "no Linux GPU build row");
      continue;
    }
    Version cuda = *Version::parse(a.cuda);
    if (!b->cuda->same_series(cuda, 2)) out.push_back(at + "CUDA " + b->cuda->str() + ", wheel built with " + a.cuda);
    if (b->cudnn && std::to_string(b->cudnn->major()) != a.cudnn) {
      out.push_back(at + "cuDNN " + b->cudnn->str() + ", wheel built with " + a.cudnn);
    }
    std::vector<Version> sass;
    std::optional<Version> ptx;
    for (const std::string& arch : a.archs) {
      auto cc = parse_compute_capability(arch);
      if (!cc) continue;
      if (arch.rfind("compute_", 0) == 0) {
        ptx = cc;
      } else {
        sass.push_back(*cc);
      }
    }
    if (b->archs != sass || b->ptx != ptx) out.push_back(at + "archs differ from build_info.py");
    // [[and_cuda]]: the cuDNN its extra asks for, pin ("==9.3.0.75") or range ("<10.0,>=9.3.0.75").
    if (!a.and_cuda_cudnn.empty()) {
      const TfAndCuda* ac = kb.tf_and_cuda(a.version);
      bool named = ac != nullptr && std::any_of(ac->pins.begin(), ac->pins.end(), [&](const std::string& p) {
                     return p.starts_with("nvidia-cudnn-cu") && p.ends_with(a.and_cuda_cudnn) &&
                            (p.find("==") != std::string::npos || p.find('<') != std::string::npos);
                   });
      if (!named) out.push_back(at + "[and-cuda] row does not name the wheel's nvidia-cudnn " + a.and_cuda_cudnn);
    }
  }
  jax_disagreements(kb, all, out);
  companion_disagreements(kb, all, out);
  torch_elf_disagreements(kb, all, out);
  cudnn_disagreements(kb, all, out);
  jax_floor_disagreements(kb, all, out);
  return out;
}

TEST(KbHarvest, DocumentedRowsAgreeWithHarvestedArtefacts) {
  std::vector<Artefact> all = load_artefacts();
  ASSERT_GT(all.size(), 50u) << "data/harvest/artefacts.toml looks empty";
  std::vector<std::string> diff = disagreements(testing::builtin_kb(), all);
  std::string text;
  for (const std::string& d : diff) text += d + "\n";
  EXPECT_TRUE(diff.empty()) << text;
}

TEST(KbHarvest, ADisagreementIsCaught) {
  std::vector<Artefact> all = load_artefacts();
  KnowledgeBase kb = testing::builtin_kb();
  for (TorchRelease& r : kb.pytorch.releases) {
    if (r.version == v("2.14")) r.python = *VersionSpec::parse(">=3.10,<=3.15");
    if (r.version == v("2.11")) {
      for (TorchVariant& var : r.variants) {
        if (var.tag == "cu130") var.cudnn = v("9.17.1.4");
      }
    }
  }
  for (TfBuild& b : kb.tensorflow.builds) {
    if (b.version == v("2.21") && b.os == "linux") b.archs.insert(b.archs.begin(), v("5.2"));
  }
  // The install guide's floor for jax[cuda13], and a Python floor one minor too low.
  for (JaxRelease& r : kb.jax.releases) {
    if (r.versions.contains(v("0.12.0"))) r.cuda13_cudnn = *VersionSpec::parse(">=9.8,<10.0");
    if (r.versions.contains(v("0.7.0"))) r.python = *VersionSpec::parse("3.10-3.13");
  }
  for (TorchRelease& r : kb.pytorch.releases) {
    if (r.version == v("2.5")) r.torchvision = "0.19";
    // The list the audit found wrong: 2.10 cu128 without Volta.
    if (r.version == v("2.10")) {
      for (TorchVariant& var : r.variants) {
        if (var.tag == "cu128") var.archs.erase(var.archs.begin());
      }
    }
  }
  for (JaxVariant& jv : kb.jax.variants) {
    if (jv.extra == "cuda13") jv.min_cc = v("7.0");  // the CUDA 13 plugins start at sm_75
  }
  for (TfAddons& r : kb.tensorflow.addons) {
    if (r.addons == v("0.23")) r.tensorflow = *VersionSpec::parse(">=2.13.0,<2.17.0");
  }
  for (TfProbability& r : kb.tensorflow.probability) {
    if (r.probability == v("0.25")) r.tensorflow = v("2.16");  // what its METADATA's `tf` extra says
    if (r.probability == v("0.24")) r.tf_keras = false;
  }
  // cuDNN: a CUDA 13 row that claims Volta, and a release with no row at all.
  std::erase_if(kb.cudnn_builds,
                [](const CudnnBuild& b) { return b.cudnn.contains(v("9.27.0")) && b.cuda_major == 12; });
  for (CudnnBuild& b : kb.cudnn_builds) {
    if (b.cudnn.contains(v("9.28.1")) && b.cuda_major == 13) b.cc.insert(b.cc.begin(), v("7.0"));
  }
  std::vector<std::string> diff = disagreements(kb, all);
  std::string text;
  for (const std::string& d : diff) text += d + "\n";
  EXPECT_NE(text.find("lists compute capability 7.0, the binary has no SASS"), std::string::npos) << text;
  EXPECT_NE(text.find("no cudnn.toml row for cuDNN 9.27.0.42 with CUDA 12"), std::string::npos) << text;
  EXPECT_NE(text.find("tensorflow-addons 0.23.0"), std::string::npos) << text;
  EXPECT_NE(text.find("tensorflow-probability 0.25.0 ("), std::string::npos) << text;
  EXPECT_NE(text.find("tensorflow-probability 0.24.0 ("), std::string::npos) << text;
  EXPECT_NE(text.find("cuda13 min_cc 7.0 is below the plugin's lowest SASS 7.5"), std::string::npos) << text;
  EXPECT_NE(text.find("torch 2.14"), std::string::npos) << text;
  EXPECT_NE(text.find("claims Python 3.15"), std::string::npos) << text;
  EXPECT_NE(text.find("cuDNN 9.17.1.4"), std::string::npos) << text;
  EXPECT_NE(text.find("tensorflow 2.21"), std::string::npos) << text;
  EXPECT_NE(text.find("jax 0.12.0 ("), std::string::npos) << text;
  EXPECT_NE(text.find("cuda13 cuDNN >=9.8,<10.0"), std::string::npos) << text;
  EXPECT_NE(text.find("jax 0.7.0 ("), std::string::npos) << text;
  EXPECT_NE(text.find("torchvision 0.20"), std::string::npos) << text;
  EXPECT_NE(text.find("cu128 archs differ from libtorch_cuda.so"), std::string::npos) << text;
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// `--version` reports this date so a user can tell a stale binary.
TEST(KbHarvest, BuiltinHarvestDateIsTheFilesDate) {
  std::string date = builtin_kb_harvest_date();
  ASSERT_EQ(date.size(), 10u) << "'" << date << "'";
  std::filesystem::path p = std::filesystem::path(GPUDOCTOR_SOURCE_DIR) / "data/harvest/artefacts.toml";
  toml::table root = toml::parse_file(p.string());
  EXPECT_EQ(date, root["harvested"].value_or(std::string()));
}

}  // namespace
}  // namespace gpudoctor
