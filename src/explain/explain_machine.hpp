#pragma once
/// What `explain` knows about the machine a log came from. On the live machine (the default)
/// the doctor's facts; with --no-probe nothing, or only a platform given by --platform.
/// Every version fact (what a TensorFlow release was tested with, which releases have GPU
/// support on native Windows) comes from the compatibility knowledge base, the same tables
/// the doctor and `plan` use: explain keeps no table of its own, so the two cannot drift.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/facts.hpp"
#include "model/platform.hpp"

namespace gpudoctor {

class KnowledgeBase;

/// What the log itself says about where it came from, read by the rules marked `fact = true`
/// (data/explain/log-facts.toml): the frameworks' versions and the platform its paths show.
/// Conditions fall back on it when the machine's facts (or --platform) do not say.
struct LogFacts {
  std::map<std::string, std::string> versions;  ///< "tensorflow" -> "2.15.0", "pytorch" -> "2.1.0+cpu"
  std::optional<Platform> platform;
  bool cpu_build = false;  ///< the log says the framework was built without CUDA
  /// A Linux wheel, a POSIX site-packages path or a Linux OS line: Linux or WSL2, not native
  /// Windows (which of the two it does not tell).
  bool posix = false;
  bool nvidia_wheels = false;  ///< pip installed or downloaded NVIDIA's nvidia-*-cuNN wheels
  /// What the log shows happened, as conditions of those names (kLogEvents in
  /// explain_machine.cpp): "pip-build" (pip or uv was building a package from source: a module
  /// missing there is build isolation, not the program's environment), "device-assert" (a
  /// kernel's assertion failed: every later CUDA call of that process fails), "jax-plugin-failed"
  /// (JAX's CUDA plugin raised in initialize()), "triton-ptxas" (Triton ran ptxas itself),
  /// "host-oom" (an allocation on the CPU device ran out of host memory), "vllm-log" (vLLM wrote
  /// it), "cdi-error" (a container runtime failed on its CDI spec), and from two versions it shows
  /// "nvidia-module-other-branch" / "nvidia-module-same-branch" (the NVIDIA kernel module's and the
  /// driver libraries' versions differ in the branch / only in the release).
  std::set<std::string> events;
  /// The log shows it was written inside a container (a Docker prompt or compose line, an NGC
  /// banner): where the failure happened, whatever machine explains it.
  bool container = false;
  /// TensorFlow is older than this, from the source tree its log lines name (fact captures named
  /// `tf_below_X_Y`: `tensorflow/stream_executor/` is 2.10 or older, so below 2.11): a bound, not
  /// a version, read by the conditions `tensorflow<X.Y` when the log names no version.
  std::optional<Version> tf_below;
  /// The CUDA releases the log names for its toolkit or ptxas (`ptxas --version`, a cuda-X.Y or
  /// CUDA\vX.Y path, the CUDA 13 wheels' nvidia/cu13/; log-fact-cuda-release), distinct: read by
  /// the conditions ptxas-cuda-dropped-arch and ptxas-cuda-predates-arch.
  std::vector<Version> cuda_releases;
  /// The compute capabilities of the GPUs the log lists (ggml's `Device 0: ..., compute capability
  /// 6.1`; log-fact-gpu-compute-capability), distinct: read by the conditions gpu-cc-is-arch and
  /// gpu-cc-above-arch.
  std::vector<Version> gpu_ccs;
  /// The portable Windows interpreter the log's paths run (log-fact-portable-python: ComfyUI's
  /// `python_embeded\\python.exe`, RVC's and GPT-SoVITS' `runtime\\python.exe`), as a command
  /// (`.\\python_embeded\\python.exe`); empty when none. Every fix's `pip` then runs through it.
  std::string portable_python;
  /// The rules the log's facts explain (a fact rule's `explains`): PyTorch's watchdog on a later
  /// collective (log-fact-nccl-collectives-ran) leaves no hang after init to answer.
  std::vector<std::string> explains;
};

struct ExplainMachine {
  std::optional<Platform> platform;  ///< known even without an inventory (--platform)
  const Facts* facts = nullptr;      ///< the full inventory; nullptr with --no-probe
  /// The compatibility tables; nullptr: no version fact is stated (never guessed).
  const KnowledgeBase* kb = nullptr;
  LogFacts log;  ///< filled by ExplainSession from the log being explained
};

struct RuleBase;
struct RuleHits;

/// Takes the hits of the `fact` rules out of `hits` and records what they read in `log`.
void take_log_facts(const RuleBase& base, std::vector<RuleHits>& hits, LogFacts& log);

/// A tri-state: facts can confirm, refute, or say nothing.
enum class Truth { unknown, yes, no };

using CaptureMap = std::map<std::string, std::vector<std::string>>;

/// Evaluates one named condition of a rule candidate's `when` list ("platform-wsl2",
/// "!cudnn-present", ...). Unknown names are `unknown` (so a user rule with a typo never
/// hides a candidate); the list of names is in docs/explain.md.
Truth evaluate_condition(std::string_view condition, const CaptureMap& captures, const ExplainMachine& machine);

/// The version of a framework that wrote the log: the one the log names (`log_key` in
/// LogFacts::versions: "pytorch", "tensorflow", "jax"), else the probed machine's `installed`
/// framework ("torch") when all its environments have the same one (which wrote the log is
/// unknown otherwise). A version without a local part takes the build's variant ("2.5.1+cu124").
std::optional<Version> framework_version_of(const ExplainMachine& machine, std::string_view log_key,
                                            std::string_view installed);

/// The names evaluate_condition knows (without '!').
const std::vector<std::string>& explain_condition_names();

/// True for the conditions only the log can make true (`pip-build`, `device-assert`,
/// `cuda-error`, ...): after the whole log was read, such a condition left unknown did not happen.
bool is_log_event_condition(std::string_view condition);

struct Rule;

/// One or a few sentences about this machine that make a rule's fix specific ("this machine
/// has cuDNN 9.1.0 in /usr/lib/x86_64-linux-gnu; TensorFlow 2.10.0 was tested with cuDNN
/// 8.1"). Empty when the machine has no facts or they hold nothing relevant; what a release
/// needs is said only when machine.kb is set.
std::string machine_note(const Rule& rule, const CaptureMap& captures, const ExplainMachine& machine);

/// What the knowledge base adds to a rule's fix, with or without machine facts: for the
/// `legacy-driver` tailor, the branch in the `branch` capture ("470.xx"), the toolkits it
/// drives and who packages it (the apt command when the machine's release has a package), the
/// same text as the doctor's `driver-drops-gpu`. Empty otherwise or without machine.kb.
std::string knowledge_fix(const Rule& rule, const CaptureMap& captures, const ExplainMachine& machine);

}  // namespace gpudoctor
