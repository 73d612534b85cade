// Issue 10 item 13: a ranking that contradicted itself. For one libcudart.so.12 dlerror line the
// cause the machine's facts pointed to came last, listed as harmless, under a header counting
// one problem and one harmless message; its fix named a Windows DLL on Linux; and torch's
// no-driver traceback opened with "(another possible cause)".
#include <gtest/gtest.h>

#include <regex>

#include "explain_test_support.hpp"
#include "render/explain_render.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_matcher;

constexpr std::string_view kTfCudartLine =
    "2026-11-30 10:00:00.000000: W external/local_tsl/tsl/platform/default/dso_loader.cc:64] Could not load "
    "dynamic library 'libcudart.so.12'; dlerror: libcudart.so.12: cannot open shared object file: No such file or "
    "directory\n";

/// What `python3 -c "import torch; torch.zeros(1).cuda()"` prints on a machine without an NVIDIA
/// driver (torch 2.15.0: the raise in torch/cuda/__init__.py's _lazy_init, the message from
/// libc10_cuda.so's CUDAFunctions.cpp).
constexpr std::string_view kTorchNoDriver =
    "Traceback (most recent call last):\n"
    "  File \"<string>\", line 1, in <module>\n"
    "  File \"/home/alex/.venv/lib/python3.11/site-packages/torch/cuda/__init__.py\", line 616, in _lazy_init\n"
    "    torch._C._cuda_init()\n"
    "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
    "driver from http://www.nvidia.com/Download/index.aspx\n";

Facts linux_machine(bool gpu) {
  Facts f;
  f.platform = Platform::linux;
  if (gpu) {
    GpuFacts g;
    g.name = "NVIDIA GeForce RTX 3060";
    g.cc_major = 8;
    g.cc_minor = 6;
    f.gpus.push_back(g);
    f.driver.version = Version::parse("580.95.05");
    f.driver.nvidia_module_loaded = true;
  }
  return f;
}

ExplainReport explain_on(std::string_view text, const Facts& facts) {
  ExplainMachine m;
  m.facts = &facts;
  m.platform = facts.platform;
  m.kb = &testing::builtin_kb();
  return explain_text(builtin_matcher(), text, m);
}

/// The answers: each leading candidate with the alternatives that follow it.
std::vector<std::vector<const ExplainMatch*>> answers(const ExplainReport& r) {
  std::vector<std::vector<const ExplainMatch*>> out;
  for (const ExplainMatch& m : r.matches) {
    if (!m.alternative || out.empty()) out.emplace_back();
    out.back().push_back(&m);
  }
  return out;
}

/// The header's "N problem(s) recognised (...), M harmless message(s)" numbers.
std::pair<int, int> header_counts(const std::string& text) {
  std::smatch m;
  static const std::regex re(R"((\d+) problem\(s\) recognised.*?, (\d+) harmless message\(s\))");
  if (!std::regex_search(text, m, re)) return {-1, -1};
  return {std::stoi(m[1]), std::stoi(m[2])};
}

/// Checks every rule of consistency the item names, on one report and its text.
void expect_one_consistent_answer(const ExplainReport& r, const std::string& what) {
  ASSERT_FALSE(r.matches.empty()) << what;
  EXPECT_FALSE(r.matches.front().alternative) << what << ": the first entry is another possible cause";
  const auto groups = answers(r);
  // One line, one answer: no two answers over the same lines.
  for (size_t i = 0; i < groups.size(); ++i) {
    for (size_t j = i + 1; j < groups.size(); ++j) {
      EXPECT_NE(groups[i].front()->lines, groups[j].front()->lines)
          << what << ": two answers for the same lines: " << groups[i].front()->rule << " and "
          << groups[j].front()->rule;
    }
  }
  for (const auto& g : groups) {
    // The cause the facts point to leads its answer: no alternative outranks the lead.
    for (const ExplainMatch* m : g) {
      EXPECT_LE(m->score, g.front()->score) << what << ": " << m->rule << " outranks " << g.front()->rule;
      if (m != g.front()) {
        EXPECT_NE(m->facts_verdict, "supported") << what << ": the supported cause " << m->rule << " is not the lead";
      }
    }
  }
  const std::string text = render_explain_text(r, ExplainTextOptions{});
  auto [problems, harmless] = header_counts(text);
  int want_problems = 0;
  int want_harmless = 0;
  for (const auto& g : groups) ++(g.front()->harmless ? want_harmless : want_problems);
  EXPECT_EQ(problems, want_problems) << text;
  EXPECT_EQ(harmless, want_harmless) << text;
  // "(another possible cause)" never on the first entry.
  const size_t first_entry = text.find(" 1. [");
  ASSERT_NE(first_entry, std::string::npos) << text;
  const std::string first_line = text.substr(first_entry, text.find('\n', first_entry) - first_entry);
  EXPECT_EQ(first_line.find("another possible cause"), std::string::npos) << text;
  // A supported cause is never shown after the harmless section's header unless it leads a
  // harmless answer; and never after an entry it outranks.
  const size_t points = text.find("points to this cause");
  const size_t harmless_header = text.find("Harmless messages");
  if (points != std::string::npos && harmless_header != std::string::npos && points > harmless_header) {
    EXPECT_TRUE(groups.front().front()->harmless) << what << ": the supported cause is listed among harmless ones "
                                                  << "below a problem it outranks:\n"
                                                  << text;
  }
}

TEST(ExplainRanking, OneCudartDlerrorLineOnAMachineWithoutGpuIsOneAnswer) {
  const Facts facts = linux_machine(false);
  const ExplainReport r = explain_on(kTfCudartLine, facts);
  expect_one_consistent_answer(r, "cudart line, no GPU");
  ASSERT_FALSE(r.matches.empty());
  // Without a GPU the facts point to "no GPU here": that is the answer, and it leads.
  EXPECT_EQ(r.matches.front().facts_verdict, "supported") << r.matches.front().rule;
  EXPECT_TRUE(r.matches.front().harmless) << r.matches.front().rule;
  const std::string text = render_explain_text(r, ExplainTextOptions{});
  EXPECT_EQ(header_counts(text), std::make_pair(0, 1)) << text;
}

TEST(ExplainRanking, OneCudartDlerrorLineOnAMachineWithAGpuIsAProblem) {
  const Facts facts = linux_machine(true);
  const ExplainReport r = explain_on(kTfCudartLine, facts);
  expect_one_consistent_answer(r, "cudart line, GPU");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_FALSE(r.matches.front().harmless) << r.matches.front().rule;
  const std::string text = render_explain_text(r, ExplainTextOptions{});
  EXPECT_EQ(header_counts(text), std::make_pair(1, 0)) << text;
}

TEST(ExplainRanking, TorchWithoutADriverOpensWithItsAnswerNotAnAlternative) {
  for (bool gpu : {false, true}) {
    const Facts facts = linux_machine(gpu);
    const ExplainReport r = explain_on(kTorchNoDriver, facts);
    expect_one_consistent_answer(r, gpu ? "torch, GPU" : "torch, no GPU");
    ASSERT_FALSE(r.matches.empty());
    EXPECT_EQ(r.matches.front().category, "driver-missing") << r.matches.front().rule;
  }
  // In a container without a driver (the machine the defect was seen on) the facts point to
  // the container's GPU runtime: that cause leads the one answer, never as an alternative.
  Facts container = linux_machine(false);
  container.os.container = "docker";
  const ExplainReport c = explain_on(kTorchNoDriver, container);
  expect_one_consistent_answer(c, "torch, container");
  ASSERT_FALSE(c.matches.empty());
  EXPECT_EQ(c.matches.front().category, "container/docker-runtime") << c.matches.front().rule;
  EXPECT_EQ(c.matches.front().facts_verdict, "supported");
  const ExplainReport r = testing::explain_no_facts(kTorchNoDriver);
  expect_one_consistent_answer(r, "torch, --no-probe");
}

TEST(ExplainRanking, LinuxLinesGetNoWindowsTextAndWindowsLinesNoLinuxText) {
  const std::vector<std::string_view> linux_lines = {
      kTfCudartLine,
      "Could not load dynamic library 'libcublasLt.so.12'; dlerror: libcublasLt.so.12: cannot open shared object file",
      "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file",
      "libcuda.so.1: cannot open shared object file: No such file or directory",
  };
  const std::vector<std::string_view> windows_lines = {
      "W dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found",
      "Could not load dynamic library 'cublas64_11.dll'; dlerror: cublas64_11.dll not found",
      "Could not load dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found",
      "Could not load dynamic library 'nvcuda.dll'; dlerror: nvcuda.dll not found",
  };
  for (bool probed : {false, true}) {
    const Facts facts = linux_machine(false);
    for (std::string_view line : linux_lines) {
      const ExplainReport r = probed ? explain_on(line, facts) : testing::explain_no_facts(line);
      ASSERT_FALSE(r.matches.empty()) << line;
      for (const ExplainMatch& m : r.matches) {
        // Without facts a .so line may come from WSL2, whose causes name the Windows driver;
        // on a machine known to be Linux they are not listed.
        const bool wsl2_cause = !probed && m.rule.find("wsl2") != std::string::npos;
        if (probed) EXPECT_EQ(m.rule.find("wsl2"), std::string::npos) << m.rule << " on a Linux machine";
        for (const std::string* t : {&m.cause, &m.fix}) {
          EXPECT_EQ(t->find(".dll"), std::string::npos) << m.rule << ": " << *t;
          if (!wsl2_cause) EXPECT_EQ(t->find("Windows"), std::string::npos) << m.rule << ": " << *t;
          EXPECT_EQ(t->find("{?"), std::string::npos) << m.rule << ": " << *t;
        }
      }
    }
    for (std::string_view line : windows_lines) {
      const ExplainReport r = testing::explain_no_facts(line);
      ASSERT_FALSE(r.matches.empty()) << line;
      for (const ExplainMatch& m : r.matches) {
        EXPECT_EQ(m.rule.find("wsl2"), std::string::npos) << m.rule << " for a Windows DLL";
        for (const std::string* t : {&m.cause, &m.fix}) {
          EXPECT_EQ(t->find(".so"), std::string::npos) << m.rule << ": " << *t;
          EXPECT_EQ(t->find("LD_LIBRARY_PATH"), std::string::npos) << m.rule << ": " << *t;
          EXPECT_EQ(t->find("{?"), std::string::npos) << m.rule << ": " << *t;
        }
      }
    }
  }
}

TEST(ExplainRanking, PlatformTextKeepsOnlyItsPlatformAndBothWhenUnknown) {
  const std::string text = "Add it to {?linux:LD_LIBRARY_PATH}{?windows:PATH ({lib})}, then retry.";
  EXPECT_EQ(select_platform_text(text, Platform::linux), "Add it to LD_LIBRARY_PATH, then retry.");
  EXPECT_EQ(select_platform_text(text, Platform::wsl2), "Add it to LD_LIBRARY_PATH, then retry.");
  EXPECT_EQ(select_platform_text(text, Platform::windows), "Add it to PATH ({lib}), then retry.");
  EXPECT_EQ(select_platform_text(text, std::nullopt),
            "Add it to LD_LIBRARY_PATH [Linux] or PATH ({lib}) [Windows], then retry.");
  EXPECT_EQ(select_platform_text("Done.{?linux: Use pip.}{?windows: Use conda.}", std::nullopt),
            "Done. Linux: Use pip. Windows: Use conda.");
  EXPECT_EQ(select_platform_text("a {?linux: b} c", Platform::windows), "a c");
  EXPECT_EQ(select_platform_text("unclosed {?linux: b", Platform::windows), "unclosed {?linux: b");
  // WSL2 is Linux inside, with the Windows driver.
  const std::string driver =
      "Install ({?native-linux:nvidia-driver}{?windows:the Windows driver}{?wsl2:it on Windows}).";
  EXPECT_EQ(select_platform_text(driver, Platform::linux), "Install (nvidia-driver).");
  EXPECT_EQ(select_platform_text(driver, Platform::wsl2), "Install (it on Windows).");
  EXPECT_EQ(select_platform_text(driver, Platform::windows), "Install (the Windows driver).");
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// The container hook's message names libnvidia-ml.so.1 "cannot open shared object file", which
// the generic driver-library rule also recognises; on a machine that is itself a container, its
// "container started without the NVIDIA runtime" alternative outranked the hook's own rule,
// although the hook runs on the host. A rule that knows the line better supersedes the generic
// one on the lines both recognised.
TEST(ExplainRanking, TheContainerHooksOwnRuleSupersedesTheGenericLibraryRule) {
  const std::string line =
      "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI "
      "runtime create failed: runc create failed: unable to start container process: error during container init: "
      "error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
      "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object "
      "file: no such file or directory: unknown.\n";
  Facts container;
  container.os.container = "docker";
  for (const ExplainReport& r : {testing::explain_no_facts(line), explain_on(line, container)}) {
    ASSERT_FALSE(r.matches.empty());
    EXPECT_EQ(r.matches.front().rule, "container-cli-nvml-not-loadable");
    for (const ExplainMatch& m : r.matches) EXPECT_FALSE(m.rule.starts_with("libcuda-missing")) << m.rule;
  }
  // Alone, the generic rule still answers the same library name.
  const ExplainReport alone = explain_on("libnvidia-ml.so.1: cannot open shared object file\n", container);
  ASSERT_FALSE(alone.matches.empty());
  EXPECT_TRUE(alone.matches.front().rule.starts_with("libcuda-missing")) << alone.matches.front().rule;
}

TEST(ExplainRanking, SupersededRulesExist) {
  const RuleBase& base = testing::builtin_matcher().base();
  for (const Rule& rule : base.rules) {
    for (const std::string& id : rule.supersedes) {
      EXPECT_TRUE(std::any_of(base.rules.begin(), base.rules.end(), [&](const Rule& r) { return r.id == id; }))
          << rule.id << " supersedes unknown rule " << id;
      EXPECT_NE(id, rule.id);
    }
    // `explains` drops the other rule's answer anywhere in the log: a typo would silently keep it.
    for (const std::string& id : rule.explains) {
      EXPECT_TRUE(std::any_of(base.rules.begin(), base.rules.end(), [&](const Rule& r) { return r.id == id; }))
          << rule.id << " explains unknown rule " << id;
      EXPECT_NE(id, rule.id);
    }
  }
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// A log from native Windows (its DLL names, its C:\ paths) explained on a Linux machine: this
// machine's facts describe another system, so they must not pick the cause. Seen: a Windows
// cuDNN 8 DLL that failed to load (Error code 126) was put down to "another cuDNN major is
// installed" because this Linux machine has cuDNN 9, and the rendering said "ranked with this
// machine's facts".
TEST(ExplainRanking, AWindowsLogIsNotJudgedByTheFactsOfThisLinuxMachine) {
  Facts linux_box = linux_machine(true);
  LibraryFacts cudnn;
  cudnn.name = "cudnn";
  cudnn.version = Version::parse("9.19.0");
  cudnn.path = "/usr/local/cuda/lib64";
  cudnn.files = {"libcudnn.so.9"};
  cudnn.origin = "toolkit";
  linux_box.libraries.push_back(cudnn);
  const std::string windows_log =
      "Could not load library cudnn_cnn_infer64_8.dll. Error code 126\n"
      "Please make sure cudnn_cnn_infer64_8.dll is in your library path!\n";
  const ExplainReport r = explain_on(windows_log, linux_box);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_FALSE(r.probed);
  EXPECT_NE(r.facts_note.find("Windows"), std::string::npos) << r.facts_note;
  EXPECT_EQ(r.matches.front().rule, testing::explain_no_facts(windows_log).matches.front().rule);
  for (const ExplainMatch& m : r.matches) EXPECT_TRUE(m.facts_verdict.empty()) << m.rule << ": " << m.facts_verdict;

  // The same machine's facts still count for a log from Linux.
  const ExplainReport own = explain_on("ImportError: libcudnn.so.8: cannot open shared object file\n", linux_box);
  EXPECT_TRUE(own.probed);
  EXPECT_TRUE(own.facts_note.empty());
}

}  // namespace
}  // namespace gpudoctor
