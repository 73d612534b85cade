/// The documented tables (data/compat/) against the facts read from the released wheels
/// (data/harvest/artefacts.toml, written by scripts/harvest-kb.py). A disagreement fails:
/// either the documentation copied a wrong fact, or a new release changed one.
#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <filesystem>
#include <map>
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
                 {}};
      for (const char* key : {"pythons", "archs"}) {
        if (const toml::array* arr = t[key].as_array()) {
          for (const toml::node& e : *arr) (key[0] == 'p' ? a.pythons : a.archs).push_back(e.value_or(std::string()));
        }
      }
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
  }
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
  std::vector<std::string> diff = disagreements(kb, all);
  std::string text;
  for (const std::string& d : diff) text += d + "\n";
  EXPECT_NE(text.find("torch 2.14"), std::string::npos) << text;
  EXPECT_NE(text.find("claims Python 3.15"), std::string::npos) << text;
  EXPECT_NE(text.find("cuDNN 9.17.1.4"), std::string::npos) << text;
  EXPECT_NE(text.find("tensorflow 2.21"), std::string::npos) << text;
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
