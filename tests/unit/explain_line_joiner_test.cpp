// LineJoiner: a message the log broke over several lines reaches the rules whole; separate log
// records stay apart.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "explain/line_joiner.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

/// The lines joined, both ways a joiner is fed: add() (copies) and take() (swaps the caller's
/// buffer away, as the decoder's line is handed over); both must give the same lines.
std::vector<std::pair<std::string, std::uint64_t>> join(const std::vector<std::string>& lines) {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  LineJoiner joiner([&](std::string_view line, std::uint64_t n) { out.emplace_back(std::string(line), n); });
  std::uint64_t n = 0;
  for (const auto& l : lines) joiner.add(l, ++n);
  joiner.finish();
  std::vector<std::pair<std::string, std::uint64_t>> taken;
  LineJoiner taker([&](std::string_view line, std::uint64_t k) { taken.emplace_back(std::string(line), k); });
  std::string buffer;  // reused for every line, like LogDecoder's
  n = 0;
  for (const auto& l : lines) {
    buffer.assign(l);
    taker.take(buffer, ++n);
    buffer.assign("stale text the joiner must never see");
  }
  taker.finish();
  EXPECT_EQ(taken, out);
  return out;
}

TEST(ExplainLineJoiner, HardWrappedSentenceIsJoined) {
  const auto out =
      join({"W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: "
            "cannot open shared",
            "object file: No such file or directory", "2023-01-01 12:00:00 I next record"});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].first,
            "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open "
            "shared object file: No such file or directory");
  EXPECT_EQ(out[0].second, 1u);
  EXPECT_EQ(out[1].second, 3u);
}

// Re-read (session 39): `dpkg -l`'s rows start lower case but are records of their own; joined as
// a wrapped sentence to the long `NVRM version:` line above, their versions were never read. A
// wrapped sentence that goes on with an ordinary word stays joined (one that goes on with a word
// of two dpkg status letters and two spaces, "in  the", would not: rare enough).
TEST(ExplainLineJoiner, DpkgRowsAreRecordsNotWrappedSentences) {
  const auto out = join({"NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023",
                         "rc  nvidia-utils-525    525.147.05-0ubuntu0.22.04.1  amd64  NVIDIA driver support binaries",
                         "ii  nvidia-utils-535    535.154.05-0ubuntu0.22.04.1  amd64  NVIDIA driver support binaries",
                         "hiR libnvidia-compute-535  535.154.05-0ubuntu0.22.04.1  amd64  NVIDIA libcompute package"});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[2].first.substr(0, 20), "ii  nvidia-utils-535");
  const auto wrapped =
      join({"W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: "
            "cannot open shared object file: No such file",
            "or directory"});
  EXPECT_EQ(wrapped.size(), 1u);
}

TEST(ExplainLineJoiner, HeadEndingWithColonTakesItsBody) {
  const auto out = join({"jaxlib.xla_extension.XlaRuntimeError: INTERNAL:",
                         "Failed to load in-memory CUBIN: CUDA_ERROR_NO_BINARY_FOR_GPU: no kernel image is available"});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].first,
            "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to load in-memory CUBIN: "
            "CUDA_ERROR_NO_BINARY_FOR_GPU: no kernel image is available");
}

TEST(ExplainLineJoiner, IndentedLinesOfAPythonWarningAreJoined) {
  const auto out = join({"/usr/lib/python3/site-packages/torch/cuda/__init__.py:132: UserWarning: ",
                         "    Found GPU0 NVIDIA GeForce GTX 770 which is of cuda capability 3.0.",
                         "    PyTorch no longer supports this GPU because it is too old.",
                         "    The minimum cuda capability supported by this library is 3.7.", "    ",
                         "  warnings.warn(old_gpu_warn % (d, name, major, capability[1]))"});
  ASSERT_EQ(out.size(), 3u) << out[0].first;
  EXPECT_NE(out[0].first.find("UserWarning: Found GPU0 NVIDIA GeForce GTX 770 which is of cuda capability 3.0. "
                              "PyTorch no longer supports this GPU because it is too old. The minimum"),
            std::string::npos)
      << out[0].first;
}

TEST(ExplainLineJoiner, SeparateRecordsStayApart) {
  const std::vector<std::string> lines = {
      "2023-05-01 10:00:00.1: W tensorflow/tsl/platform/default/dso_loader.cc:66] Could not load dynamic library",
      "2023-05-01 10:00:00.2: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1886] Created device",
      "Traceback (most recent call last):",
      "  File \"train.py\", line 3, in <module>",
      "    import torch",
      "RuntimeError: CUDA error: no kernel image is available for execution on the device",
      "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
      "incorrect.",
      "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
      "Epoch 1/10",
      "  1/100 [..............................] - ETA: 10s - loss: 2.3",
      "I0101 12:00:00.000000 140 xla_bridge.py:513] Unable to initialize backend 'rocm':",
      "E0101 12:00:00.000001 140 other.cc:1] next",
      "[rank0]: torch.distributed.DistBackendError: NCCL error",
      "[rank1]: torch.distributed.DistBackendError: NCCL error"};
  const auto out = join(lines);
  ASSERT_EQ(out.size(), lines.size());
  for (size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(out[i].first, lines[i]);
}

// Go's slog records (Ollama: `time=... level=... msg=...`) and llama.cpp/ggml's `function_name:`
// lines start lower case, so a long record ending in a letter looked like a sentence wrapped into
// the next one: review 38 (C) log 01, where four records became one and the answer named line 1
// and quoted the wrong text. A `key=` or `snake_case:` head starts a record.
TEST(ExplainLineJoiner, KeyValueAndFunctionNameRecordsStayApart) {
  const std::vector<std::string> lines = {
      "time=2026-04-07T20:03:58.278Z level=DEBUG source=ggml.go:94 msg=\"ggml backend load all from path\" "
      "path=/usr/lib/ollama",
      "load_backend: loaded CPU backend from /usr/lib/ollama/libggml-cpu-icelake.so",
      "time=2026-04-07T20:03:58.282Z level=DEBUG source=ggml.go:94 msg=\"x\" path=/usr/lib/ollama/cuda_v13",
      "ggml_cuda_init: failed to initialize CUDA: CUDA driver version is insufficient for CUDA runtime version",
      "ts=2024-01-01T00:00:00Z caller=main.go:12 level=error msg=\"a long structured line that ends in a word\" x",
      "level=error msg=\"next\""};
  const auto out = join(lines);
  ASSERT_EQ(out.size(), lines.size());
  for (size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(out[i].first, lines[i]);

  // An indented `key=` line is an argument of the record above, not a record: a Python warning's
  // tensor repr going on with `device='cuda:0', dtype=torch.float16)` (session 38 re-read).
  const auto repr = join({"/x/torch/nn/functional.py:12: UserWarning: got tensor([1., 2.],",
                          "       dtype=torch.float16) on the wrong device"});
  ASSERT_EQ(repr.size(), 1u);

  // A sentence wrapped before an ordinary word still joins, with or without a colon after it.
  const auto wrapped =
      join({"W dso_loader.cc:64] Could not load the dynamic libraries listed below for the "
            "requested",
            "libraries: libcudnn.so.8 cannot be found"});
  ASSERT_EQ(wrapped.size(), 1u);
}

TEST(ExplainLineJoiner, LongRunsAreCut) {
  std::vector<std::string> lines(20, "and the sentence goes on and on and on, as a terminal wraps it at eighty");
  lines[0] = "Head:";
  const auto out = join(lines);
  ASSERT_GE(out.size(), 3u);
  EXPECT_EQ(out[1].second, LineJoiner::kMaxParts + 1);
  for (const auto& [line, n] : out) EXPECT_LE(line.size(), LineJoiner::kMaxJoinedBytes);
}

// Through explain: rules written for the whole message recognise it broken over lines, in a
// file and in a log pasted with escaped newlines.
TEST(ExplainLineJoiner, RulesSeeMessagesBrokenOverLines) {
  const auto torch_old = testing::explain_no_facts(
      "/usr/lib/python3/site-packages/torch/cuda/__init__.py:132: UserWarning: \n"
      "    Found GPU0 NVIDIA GeForce GTX 770 which is of cuda capability 3.0.\n"
      "    PyTorch no longer supports this GPU because it is too old.\n"
      "    The minimum cuda capability supported by this library is 3.7.\n");
  ASSERT_FALSE(torch_old.matches.empty());
  EXPECT_EQ(torch_old.matches.front().category, "gpu-arch-unsupported");
  EXPECT_EQ(torch_old.matches.front().captures.count("cc"), 1u) << "captured across the joined lines";

  const std::string wrapped =
      "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with\n"
      "the current PyTorch installation.\n";
  const auto r = testing::explain_no_facts(wrapped);
  ASSERT_FALSE(r.matches.empty()) << "a sentence wrapped by the terminal";
  EXPECT_EQ(r.matches.front().category, "gpu-arch-unsupported");

  std::string pasted = "My log is below, please help.\\n" + wrapped;
  for (size_t at = pasted.find('\n'); at != std::string::npos; at = pasted.find('\n')) pasted.replace(at, 1, "\\n");
  pasted += "\\nThanks for any help with this problem, I have tried reinstalling everything twice already.";
  const auto p = testing::explain_no_facts(pasted);
  ASSERT_FALSE(p.matches.empty()) << "escaped newlines, then joined";
  EXPECT_EQ(p.matches.front().category, "gpu-arch-unsupported");
}

}  // namespace
}  // namespace gpudoctor
