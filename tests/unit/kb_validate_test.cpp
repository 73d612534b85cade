#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "kb/data_files.hpp"
#include "kb/knowledge_base.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

std::string builtin_text(const std::string& path) {
  auto files = load_data_files("compat/", "");
  for (const DataFile& f : *files) {
    if (f.path == path) return f.content;
  }
  ADD_FAILURE() << "no built-in " << path;
  return "";
}

/// A --kb directory holding one replaced file.
class KbDir {
 public:
  KbDir() {
    static int n = 0;
    dir_ = fs::temp_directory_path() / ("gpudoctor-kb-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::create_directories(dir_ / "compat");
  }
  ~KbDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((dir_ / rel).parent_path());
    std::ofstream(dir_ / rel, std::ios::binary) << text;
  }
  [[nodiscard]] std::string path() const { return dir_.string(); }

 private:
  fs::path dir_;
};

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) s.replace(pos, from.size(), to);
  return s;
}

/// Errors from parsing + validating the --kb directory.
std::vector<std::string> errors_for(const KbDir& d) {
  auto files = load_data_files("compat/", d.path());
  EXPECT_TRUE(files.has_value());
  std::vector<KbIssue> issues;
  KnowledgeBase kb = KnowledgeBase::parse(*files, issues);
  kb.validate(issues);
  std::vector<std::string> out;
  for (const KbIssue& i : issues) {
    if (i.level == KbIssue::Level::error) out.push_back(i.str());
  }
  return out;
}

bool any_contains(const std::vector<std::string>& v, const std::string& needle) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& s) { return s.find(needle) != std::string::npos; });
}

TEST(KbValidate, SyntaxErrorNamesFileAndLine) {
  KbDir d;
  d.write("compat/pytorch.toml", "[[release]]\nversion = \"2.8\"\npython = \n");
  auto kb = KnowledgeBase::load(d.path());
  ASSERT_FALSE(kb.has_value());
  EXPECT_NE(kb.error().message.find("compat/pytorch.toml"), std::string::npos) << kb.error().message;
  EXPECT_NE(kb.error().message.find("line 3"), std::string::npos) << kb.error().message;
}

TEST(KbValidate, RowWithoutSourceIsAnError) {
  KbDir d;
  std::string t = builtin_text("compat/gpus.toml");
  t += "\n[[gpu]]\nname = \"NVIDIA Imaginary 9000\"\ncc = \"9.0\"\n";
  d.write("compat/gpus.toml", t);
  auto e = errors_for(d);
  EXPECT_TRUE(any_contains(e, "no 'source'")) << ::testing::PrintToString(e);
  EXPECT_FALSE(KnowledgeBase::load(d.path()).has_value());
}

// The last native-Windows GPU release and the recipe's conda cuDNN are facts of the data
// file; the loader once fell back to a 2.10 written in C++ when the key was missing.
TEST(KbValidate, WindowsGpuFactsComeOnlyFromTheDataFile) {
  KbDir d;
  std::string t = builtin_text("compat/tensorflow.toml");
  d.write("compat/tensorflow.toml", replace_once(t, "windows_gpu_last = \"2.10\"\n", ""));
  auto e = errors_for(d);
  EXPECT_TRUE(any_contains(e, "windows_gpu_last")) << ::testing::PrintToString(e);
  EXPECT_FALSE(KnowledgeBase::load(d.path()).has_value());

  KbDir c;
  c.write("compat/tensorflow.toml", replace_once(t, "windows_gpu_conda_source = ", "x_unused = "));
  EXPECT_TRUE(any_contains(errors_for(c), "windows_gpu_conda_cudnn needs windows_gpu_conda_source"));
}

TEST(KbValidate, GapInTensorflowRowsIsAnError) {
  KbDir d;
  std::string t = builtin_text("compat/tensorflow.toml");
  // Remove the Linux 2.14 row: its header line up to the next [[build]].
  auto start = t.find("[[build]]\nversion = \"2.14\"");
  ASSERT_NE(start, std::string::npos);
  auto end = t.find("[[build]]", start + 5);
  t.erase(start, end - start);
  d.write("compat/tensorflow.toml", t);
  auto e = errors_for(d);
  EXPECT_TRUE(any_contains(e, "gap: no row for 2.14 on linux")) << ::testing::PrintToString(e);
}

TEST(KbValidate, DeclaredGapIsAccepted) {
  // A release with no row is an error unless known_gaps declares it with a source (the built-in
  // Windows table declared 2.13 until its row was read from the wheels, 2026-12-07).
  KbDir d;
  EXPECT_TRUE(errors_for(d).empty());
  std::string t = builtin_text("compat/tensorflow.toml");
  t = replace_once(
      t,
      "[[build]]\nversion = \"2.12\"\ntested = \"2.12.0\"\nos = \"windows\"\npython = \"3.8-3.11\"\n"
      "gpu = false\nsource = \"https://www.tensorflow.org/install/source_windows#cpu (tensorflow/docs@7c36502 "
      "site/en/install/source_windows.md)\"\n",
      "");
  d.write("compat/tensorflow.toml", t);
  EXPECT_TRUE(any_contains(errors_for(d), "gap: no row for 2.12 on windows"));
  t = replace_once(
      t, "framework = \"tensorflow\"\n",
      "framework = \"tensorflow\"\nknown_gaps = [{ os = \"windows\", version = \"2.12\", source = \"a test\" }]\n");
  d.write("compat/tensorflow.toml", t);
  EXPECT_FALSE(any_contains(errors_for(d), "gap: no row")) << ::testing::PrintToString(errors_for(d));
}

TEST(KbValidate, OverlapIsAnError) {
  KbDir d;
  std::string t = builtin_text("compat/pytorch.toml");
  t = replace_once(t, "version = \"2.7\"", "version = \"2.6\"");
  d.write("compat/pytorch.toml", t);
  auto e = errors_for(d);
  EXPECT_TRUE(any_contains(e, "overlap: two rows for 2.6")) << ::testing::PrintToString(e);
  EXPECT_TRUE(any_contains(e, "gap: no row for 2.7")) << ::testing::PrintToString(e);
}

// jax_release() takes the first row holding a version: two rows for one release would hide one.
TEST(KbValidate, OverlappingJaxReleaseRunsAreAnError) {
  KbDir d;
  std::string t = builtin_text("compat/jax.toml");
  t = replace_once(t, "versions = \">=0.6.0,<=0.6.2\"", "versions = \">=0.5.3,<=0.6.2\"");
  d.write("compat/jax.toml", t);
  auto e = errors_for(d);
  EXPECT_TRUE(any_contains(e, "release >=0.5.3,<=0.6.2: overlap or out of order")) << ::testing::PrintToString(e);
}

TEST(KbValidate, DriverFloorGoingDownIsATypo) {
  KbDir d;
  std::string t = builtin_text("compat/cuda_drivers.toml");
  t = replace_once(t, "linux = \"535.104.05\"", "linux = \"353.104.05\"");
  d.write("compat/cuda_drivers.toml", t);
  EXPECT_TRUE(any_contains(errors_for(d), "lower than"));
}

TEST(KbValidate, MalformedVersionsAreErrors) {
  KbDir d;
  std::string t = builtin_text("compat/pytorch.toml");
  t = replace_once(t, "cuda = \"12.6\"", "cuda = \"twelve\"");
  t = replace_once(t, "python = \">=3.10,<=3.14\"", "python = \">=three\"");
  d.write("compat/pytorch.toml", t);
  auto e = errors_for(d);
  EXPECT_TRUE(any_contains(e, "not a version: 'twelve'")) << ::testing::PrintToString(e);
  EXPECT_TRUE(any_contains(e, "not a version range")) << ::testing::PrintToString(e);
}

TEST(KbValidate, WrongTypesAndTagMismatch) {
  KbDir d;
  std::string t = builtin_text("compat/pytorch.toml");
  t = replace_once(t, "tag = \"cu126\"", "tag = \"cu121\"");
  t = replace_once(t, "status = \"stable\"", "status = 7");
  d.write("compat/pytorch.toml", t);
  auto e = errors_for(d);
  EXPECT_TRUE(any_contains(e, "tag does not match cuda 12.6")) << ::testing::PrintToString(e);
  EXPECT_TRUE(any_contains(e, "'status' must be a string")) << ::testing::PrintToString(e);
}

TEST(KbValidate, UnknownKeyIsOnlyAWarning) {
  KbDir d;
  std::string t = builtin_text("compat/jax.toml");
  t = replace_once(t, "preferred = true", "preferred = true\ncolour = \"blue\"");
  d.write("compat/jax.toml", t);
  EXPECT_TRUE(errors_for(d).empty());
  EXPECT_TRUE(KnowledgeBase::load(d.path()).has_value());
}

TEST(KbValidate, BinaryJunkAndEmptyFilesGiveErrorsNotCrashes) {
  KbDir d;
  std::string junk;
  std::mt19937 rng(42);
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>(rng() & 0xff);
  d.write("compat/cuda_arch.toml", junk);
  d.write("compat/jax.toml", "");
  auto kb = KnowledgeBase::load(d.path());
  ASSERT_FALSE(kb.has_value());
  EXPECT_NE(kb.error().message.find("error(s) in the knowledge base"), std::string::npos);
}

TEST(KbValidate, MissingDirectoryIsAClearError) {
  auto kb = KnowledgeBase::load("/nonexistent/gpudoctor-kb");
  ASSERT_FALSE(kb.has_value());
  EXPECT_NE(kb.error().message.find("not found"), std::string::npos);
}

TEST(KbValidate, TruncatedTablesNeverCrash) {
  // Every built-in file cut at many points: parse must return (ok or issues), never crash.
  auto files = load_data_files("compat/", "");
  ASSERT_TRUE(files.has_value());
  for (const DataFile& f : *files) {
    for (size_t cut = 0; cut < f.content.size(); cut += std::max<size_t>(1, f.content.size() / 12)) {
      std::vector<DataFile> mutated = *files;
      for (DataFile& m : mutated) {
        if (m.path == f.path) m.content = f.content.substr(0, cut);
      }
      std::vector<KbIssue> issues;
      KnowledgeBase kb = KnowledgeBase::parse(mutated, issues);
      kb.validate(issues);
      (void)kb.find_gpu("RTX 3060");
    }
  }
}

// A no_tensor_cores row names a chip by the PCI ID database's words: a misspelt one would match no
// card and say nothing, so validation refuses it.
TEST(KbValidate, AChipWithoutTensorCoresMustBeInThePciIdDatabase) {
  KbDir d;
  auto files = load_data_files("compat/", "");
  ASSERT_TRUE(files.has_value());
  for (const DataFile& f : *files) {
    if (f.path.ends_with("cuda_arch.toml")) {
      d.write("compat/cuda_arch.toml", replace_once(f.content, "chip = \"TU116\"", "chip = \"TU161\""));
    }
  }
  auto r = testing::run_gpudoctor_shell("kb validate " + testing::shell_quote(d.path()) + " 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("no_tensor_cores TU161"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no device of the PCI ID database"), std::string::npos) << r.out;
  // A disabled-cores device must be a device of that chip.
  for (const DataFile& f : *files) {
    if (f.path.ends_with("cuda_arch.toml")) {
      d.write("compat/cuda_arch.toml", replace_once(f.content, "devices = [\"1f0a\"]", "devices = [\"1f82\"]"));
    }
  }
  r = testing::run_gpudoctor_shell("kb validate " + testing::shell_quote(d.path()) + " 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("device 1f82 is not a TU106"), std::string::npos) << r.out;
}

TEST(KbValidate, CliReportsBrokenKbDirClearly) {
  KbDir d;
  d.write("compat/tensorflow.toml", "this is = not toml [");
  testing::RunResult r = testing::run_gpudoctor_shell("--kb " + testing::shell_quote(d.path()) + " matrix 2>&1");
  std::string out = r.out;
  EXPECT_EQ(r.exit_code, 2) << out;
  EXPECT_NE(out.find("compat/tensorflow.toml"), std::string::npos) << out;
  EXPECT_NE(out.find("TOML syntax"), std::string::npos) << out;
  // kb validate lists the problem and exits 1.
  r = testing::run_gpudoctor_shell("kb validate " + testing::shell_quote(d.path()) + " 2>&1");
  out = r.out;
  EXPECT_EQ(r.exit_code, 1) << out;
  EXPECT_NE(out.find("error"), std::string::npos) << out;
}

// Issue 11 D13: a rule file explain skips was "✓ knowledge base OK".
TEST(KbValidate, BrokenExplainRuleFileIsAnError) {
  KbDir d;
  d.write("explain/mine.toml", "[[rule]\nid = \"x\"\n");
  testing::RunResult r = testing::run_gpudoctor({"kb", "validate", d.path()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("explain/mine.toml"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("knowledge base OK"), std::string::npos) << r.out;
  // A good rule file beside the built-in ones passes, and the rules are counted.
  KbDir good;
  good.write("explain/mine.toml",
             "[[rule]]\nid = \"my-rule\"\ntitle = \"mine\"\ncategory = \"container/docker-runtime\"\npatterns = [\"my "
             "marker\"]\n"
             "sources = [\"local\"]\nexamples = [\"my marker here\"]\ncause = \"c\"\nfix = \"f\"\n");
  r = testing::run_gpudoctor({"kb", "validate", good.path()});
  EXPECT_NE(r.out.find(" rules, "), std::string::npos) << r.out;
  if (r.exit_code != 0) ADD_FAILURE() << "a valid rule file is refused: " << r.out;
}

// A user's rule whose pattern misses its own examples never fires on the log it was written for:
// the validator says so rather than pass it (explain --kb says the same at each run).
TEST(KbValidate, AUserRuleThatMissesItsOwnExampleIsAnError) {
  KbDir d;
  d.write("explain/mine.toml",
          "[[rule]]\nid = \"my-typo\"\ncategory = \"other\"\npatterns = [\"my markr\"]\n"
          "sources = [\"local\"]\nexamples = [\"my marker here\"]\ncause = \"c\"\nfix = \"f\"\n");
  testing::RunResult r = testing::run_gpudoctor({"kb", "validate", d.path()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("'my-typo'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("my marker here"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("knowledge base OK"), std::string::npos) << r.out;
}

// Issue 11 D12: --kb read every file under the directory into memory (663 MB for forty large
// unrelated files). Only the folder asked for, only the knowledge base's file types, bounded.
TEST(KbValidate, OnlyTheTablesAreReadFromAKbDirectory) {
  KbDir d;
  // Unrelated things a user keeps beside their tables: never opened. A FIFO would block a read
  // for ever, a directory of noise would cost memory.
  ASSERT_EQ(::mkfifo((d.path() + "/notes.toml").c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo((d.path() + "/compat/README").c_str(), 0600), 0);
  d.write("datasets/big.toml", std::string(1 << 20, 'x'));
  auto kb = KnowledgeBase::load(d.path());
  ASSERT_TRUE(kb.has_value()) << kb.error().message;
  for (const std::string& f : kb->files_loaded) EXPECT_EQ(f.find("datasets"), std::string::npos) << f;
}

TEST(KbValidate, AnOversizedTableIsRefusedNamingIt) {
  KbDir d;
  d.write("compat/huge.toml", std::string((16 << 20) + 1, '#'));
  auto kb = KnowledgeBase::load(d.path());
  ASSERT_FALSE(kb.has_value());
  EXPECT_NE(kb.error().message.find("larger than 16 MiB"), std::string::npos) << kb.error().message;
  EXPECT_NE(kb.error().origin.find("huge.toml"), std::string::npos) << kb.error().origin;
}

// Issue 11 D14: the user's own links: a symlinked table was silently skipped, a --kb that is a
// link to a directory was "not found".
TEST(KbValidate, UserLinksInAndToTheKbDirectoryAreFollowed) {
  KbDir real;
  real.write("mine/pytorch.toml", "this is [not toml\n");
  KbDir d;
  fs::create_symlink(real.path() + "/mine/pytorch.toml", d.path() + "/compat/pytorch.toml");
  auto kb = KnowledgeBase::load(d.path());
  ASSERT_FALSE(kb.has_value()) << "the linked, broken table must be read";
  EXPECT_NE(kb.error().message.find("compat/pytorch.toml"), std::string::npos) << kb.error().message;
  std::string link = d.path() + "-link";
  fs::create_directory_symlink(real.path(), link);
  auto through = KnowledgeBase::load(link);
  fs::remove(link);
  EXPECT_TRUE(through.has_value()) << through.error().message;
}

// Issue 11 D16: `kb frobnicate` said only "A subcommand is required".
TEST(KbValidate, AnUnknownToolIsNamed) {
  testing::RunResult r = testing::run_gpudoctor({"kb", "frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown tool 'frobnicate'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("kb validate"), std::string::npos) << r.err;
  r = testing::run_gpudoctor({"kb"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("kb validate"), std::string::npos) << r.err;
}

// The Arm-host GPUs (Grace superchips, GB10) are data with a source, not names in C++.
TEST(KbValidate, ArmHostNeedsItsSource) {
  KbDir d;
  d.write("compat/gpus.toml", replace_once(builtin_text("compat/gpus.toml"), "host = \"aarch64\"\nhost_source",
                                           "host = \"aarch64\"\nhost_note"));
  auto kb = KnowledgeBase::load(d.path());
  ASSERT_FALSE(kb.has_value());
  EXPECT_NE(kb.error().message.find("host needs host_source"), std::string::npos) << kb.error().message;
  auto builtin = KnowledgeBase::load("");
  ASSERT_TRUE(builtin.has_value());
  for (const char* name : {"NVIDIA GH200 480GB", "NVIDIA GB200", "NVIDIA GB10"}) {
    GpuMatch m = builtin->find_gpu(name);
    ASSERT_NE(m.model, nullptr) << name;
    EXPECT_TRUE(m.model->arm_host) << name;
  }
  EXPECT_FALSE(builtin->find_gpu("NVIDIA H100 80GB HBM3").model->arm_host);
}

}  // namespace
}  // namespace gpudoctor
