#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "kb/data_files.hpp"
#include "kb/knowledge_base.hpp"

namespace gpudoctor {
namespace {

KnowledgeBase builtin() {
  auto kb = KnowledgeBase::load("");
  EXPECT_TRUE(kb.has_value()) << (kb ? "" : kb.error().message);
  return kb ? std::move(kb).value() : KnowledgeBase{};
}

TEST(KbTables, BuiltInLoadsWithoutIssues) {
  auto files = load_data_files("compat/", "");
  ASSERT_TRUE(files.has_value());
  std::vector<KbIssue> issues;
  KnowledgeBase kb = KnowledgeBase::parse(*files, issues);
  kb.validate(issues);
  for (const KbIssue& i : issues) ADD_FAILURE() << i.str();
  EXPECT_EQ(kb.files_loaded.size(), 10u);  // driver_branches.toml since issue 9
  // bench's ceilings: every row found by the NVML name it is for, with a source.
  ASSERT_NE(kb.find_gpu_peak("NVIDIA H200"), nullptr);
  EXPECT_EQ(kb.find_gpu_peak("NVIDIA H200")->bf16_tflops, 989);
  ASSERT_NE(kb.find_gpu_peak("NVIDIA H100 80GB HBM3"), nullptr);
  EXPECT_EQ(kb.find_gpu_peak("NVIDIA H100 80GB HBM3")->mem_bw_gbps, 3350);
  EXPECT_EQ(kb.find_gpu_peak("NVIDIA GeForce GTX 1080"), nullptr);
  for (const GpuPeak& p : kb.gpu_peaks) EXPECT_FALSE(p.source.empty()) << p.name;
}

// TU116 and TU117 boards are CC 7.5 like the RTX 20 series but have no tensor cores; the chip
// comes from the PCI ID database, by device id or by every device of the board's name.
TEST(KbTables, BoardsWithoutTensorCoresAreFoundByDeviceOrName) {
  KnowledgeBase kb = builtin();
  auto chips = [&](std::string_view device, std::string_view name) {
    std::string out;
    for (const ChipWithoutTensorCores* c : kb.without_tensor_cores(device, name))
      out += (out.empty() ? "" : ",") + c->chip;
    return out.empty() ? std::string("-") : out;
  };
  EXPECT_EQ(chips("", "NVIDIA GeForce GTX 1660 Ti"), "TU116");
  EXPECT_EQ(chips("", "NVIDIA GeForce GTX 1660"), "TU116");
  EXPECT_EQ(chips("", "NVIDIA GeForce MX450"), "TU117");  // TU117M in the database
  EXPECT_EQ(chips("", "NVIDIA T1000 8GB"), "TU117");      // TU117GL
  EXPECT_EQ(chips("", "NVIDIA T600 Laptop GPU"), "TU117");
  // GTX 1650s are TU117, TU116 and TU106 boards (10de:1f0a, its tensor cores disabled): each is
  // one, so the name is enough, and every chip is named.
  const std::string gtx1650 = chips("", "NVIDIA GeForce GTX 1650");
  for (const char* chip : {"TU117", "TU116", "TU106"}) EXPECT_NE(gtx1650.find(chip), std::string::npos) << gtx1650;
  EXPECT_EQ(chips("1f0a", "NVIDIA GeForce GTX 1650"), "TU106");
  // A GTX 1660 SUPER also came on a TU106 (10de:1f09), and no source says what that one keeps:
  // by name it is not judged; by device id the TU116 one is.
  EXPECT_EQ(chips("", "NVIDIA GeForce GTX 1660 SUPER"), "-");
  EXPECT_EQ(chips("21c4", "NVIDIA GeForce GTX 1660 SUPER"), "TU116");
  EXPECT_EQ(chips("1f09", "NVIDIA GeForce GTX 1660 SUPER"), "-");
  EXPECT_EQ(chips("1f97", ""), "TU117");
  EXPECT_EQ(chips("2182", "whatever the name says"), "TU116");  // the device id decides
  for (const char* with : {"NVIDIA GeForce RTX 2080 Ti", "Tesla T4", "NVIDIA GeForce RTX 2060", "NVIDIA H200",
                           "NVIDIA GeForce GTX 1080", "a card nobody makes"}) {
    EXPECT_EQ(chips("", with), "-") << with;
  }
  for (const ChipWithoutTensorCores& c : kb.chips_without_tensor_cores) EXPECT_FALSE(c.source.empty()) << c.chip;
}

// A datasheet row is for one board. The name matcher drops "Laptop", "PCIe", "SXM4" and memory
// sizes (they never decide the compute capability), but they decide the ceilings: a laptop RTX
// 4090 is another chip with 576 GB/s, an A100 40GB has 1555 GB/s, an H100 PCIe 2000. Those get no
// ceiling rather than the row's.
TEST(KbTables, APeakRowIsForItsBoardOnly) {
  auto files = load_data_files("compat/", "");
  ASSERT_TRUE(files.has_value());
  std::vector<KbIssue> issues;
  KnowledgeBase kb = KnowledgeBase::parse(*files, issues);
  for (const KbIssue& i : issues) ADD_FAILURE() << i.str();
  for (const char* same : {"NVIDIA H200", "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "NVIDIA GeForce RTX 4090",
                           "NVIDIA L40S", "NVIDIA L4"}) {
    EXPECT_NE(kb.find_gpu_peak(same), nullptr) << same;
  }
  for (const char* other :
       {"NVIDIA GeForce RTX 4090 Laptop GPU", "NVIDIA GeForce RTX 3090 Max-Q", "NVIDIA H100 PCIe", "NVIDIA H100 NVL",
        "NVIDIA H200 NVL", "NVIDIA A100-SXM4-40GB", "NVIDIA A100-PCIE-40GB", "NVIDIA A100 80GB PCIe"}) {
    EXPECT_EQ(kb.find_gpu_peak(other), nullptr) << other;
  }
}

TEST(KbTables, ANegativePeakIsAnError) {
  auto files = load_data_files("compat/", "");
  ASSERT_TRUE(files.has_value());
  for (DataFile& f : *files) {
    if (f.path == "compat/gpu_peaks.toml")
      f.content += "\n[[peak]]\nname = \"NVIDIA L4\"\nfp32_tflops = -1\nsource = \"x\"\n";
  }
  std::vector<KbIssue> issues;
  KnowledgeBase::parse(*files, issues);
  bool found = false;
  for (const KbIssue& i : issues) found = found || i.str().find("fp32_tflops") != std::string::npos;
  EXPECT_TRUE(found);
}

TEST(KbTables, EveryRowHasASource) {
  KnowledgeBase kb = builtin();
  for (const auto& b : kb.tensorflow.builds) EXPECT_FALSE(b.source.empty()) << b.version.str();
  for (const auto& a : kb.tensorflow.and_cuda) EXPECT_FALSE(a.source.empty());
  for (const auto& p : kb.tensorflow.packages) EXPECT_FALSE(p.source.empty()) << p.name;
  for (const auto& r : kb.pytorch.releases) EXPECT_FALSE(r.source.empty()) << r.version.str();
  for (const auto& v : kb.jax.variants) EXPECT_FALSE(v.source.empty()) << v.extra;
  for (const auto& d : kb.cuda_drivers) EXPECT_FALSE(d.source.empty()) << d.cuda.str();
  for (const auto& f : kb.cuda_families) EXPECT_FALSE(f.source.empty()) << f.major;
  for (const auto& t : kb.toolkit_archs) EXPECT_FALSE(t.source.empty()) << t.cuda.text();
  for (const auto& g : kb.generations) EXPECT_FALSE(g.source.empty()) << g.name;
  for (const auto& g : kb.gpus) EXPECT_FALSE(g.source.empty()) << g.name;
  for (const auto& c : kb.cudnn_builds) EXPECT_FALSE(c.source.empty()) << c.cudnn.text();
  EXPECT_FALSE(kb.python_source.empty());
  EXPECT_FALSE(kb.tensorflow.windows_gpu_source.empty());
}

// A misspelt key in a row ("sorce") is a warning that names it: without it the row would
// silently lose its source. (Mutation kb-unknown-key-silent survived every test before.)
TEST(KbTables, AMisspeltKeyIsReportedByName) {
  auto files = load_data_files("compat/", "");
  ASSERT_TRUE(files.has_value());
  auto gpus =
      std::find_if(files->begin(), files->end(), [](const DataFile& f) { return f.path == "compat/gpus.toml"; });
  ASSERT_NE(gpus, files->end());
  gpus->content +=
      "\n[[gpu]]\nname = \"Test Card 9000\"\ncc = \"8.6\"\nsource = \"https://example.org\"\nsorce = \"x\"\n";
  std::vector<KbIssue> issues;
  KnowledgeBase::parse(*files, issues);
  bool named = std::any_of(issues.begin(), issues.end(), [](const KbIssue& i) {
    return i.level == KbIssue::Level::warning && i.message.find("unknown key 'sorce'") != std::string::npos &&
           i.where.starts_with("gpu[");
  });
  EXPECT_TRUE(named);
}

// --kb DIR reads only the file types the knowledge base defines: a stray notes file (or a core
// dump) beside the tables is not read. (Mutation kb-dir-any-file survived every test before.)
TEST(KbTables, KbDirReadsOnlyTablesAndIds) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("gpudoctor-kbdir-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "compat");
  std::ofstream(dir / "compat/notes.txt") << "not a table\n";
  std::ofstream(dir / "compat/python.toml") << "[[python]]\nversions = [\"3.12\"]\nsource = \"x\"\n";
  auto files = load_data_files("compat/", dir.string());
  fs::remove_all(dir);
  ASSERT_TRUE(files.has_value()) << files.error().message;
  for (const DataFile& f : *files) EXPECT_NE(f.path, "compat/notes.txt") << f.origin;
  EXPECT_TRUE(std::any_of(files->begin(), files->end(), [&](const DataFile& f) { return f.origin != "built-in"; }));
}

}  // namespace
}  // namespace gpudoctor
