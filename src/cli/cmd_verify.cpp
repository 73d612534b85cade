#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <system_error>

#include "cli/commands_list.hpp"
#include "cli/framework_targets.hpp"
#include "cli/output.hpp"
#include "core/text.hpp"
#include "explain/explain_session.hpp"
#include "explain/rule_loader.hpp"
#include "explain/rule_matcher.hpp"
#include "gpu/framework_verify.hpp"
#include "gpu/verify_runner.hpp"
#include "kb/knowledge_base.hpp"
#include "render/verify_render.hpp"

namespace gpudoctor {

namespace {

namespace fs = std::filesystem;

struct VerifyArgs {
  std::string libs_from = "system";
  bool quick = false;
  int step_timeout_ms = 60000;
  std::string framework;  ///< --framework: tensorflow, pytorch, jax or all
};

std::string canonical_or_same(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

/// The folders `--libs-from` names, from what the doctor found; nullopt after a usage message.
std::optional<gpu::LibrarySource> library_source(CommandContext& ctx, const std::string& from) {
  if (from == "system") return gpu::LibrarySource{.label = "system", .dirs = {}};
  const Facts* facts = ctx.facts();
  if (facts == nullptr) return std::nullopt;
  if (from == "toolkit") {
    for (const ToolkitFacts& t : facts->toolkits) {
      if (t.kind != "system") continue;
      gpu::LibrarySource s{.label = "toolkit " + t.path, .dirs = {}};
      for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"}) {
        std::error_code ec;
        if (fs::is_directory(fs::path(t.path) / sub, ec)) s.dirs.push_back((fs::path(t.path) / sub).string());
      }
      if (!s.dirs.empty()) return s;
    }
    usage_error("verify", "--libs-from toolkit: the doctor found no CUDA toolkit with a lib folder");
    return std::nullopt;
  }
  const std::string wanted = canonical_or_same(from);
  std::string found;
  for (const PythonEnvFacts& e : facts->python_envs) {
    if (canonical_or_same(e.path) == wanted) {
      gpu::LibrarySource s{.label = e.path, .dirs = gpu::wheel_library_dirs(e.site_packages)};
      if (s.dirs.empty()) {
        usage_error("verify", "--libs-from " + from + ": this environment has no nvidia-* wheels with libraries");
        return std::nullopt;
      }
      return s;
    }
    found += found.empty() ? e.path : ", " + e.path;
  }
  usage_error("verify", "--libs-from " + from +
                            ": not system, toolkit or a Python environment the doctor found (add it with --env " +
                            from + "); found: " + (found.empty() ? "none" : found));
  return std::nullopt;
}

/// Why the doctor's own facts say the framework cannot use a GPU here, in words.
std::string fallback_reasons(const Facts& facts, const gpu::FrameworkTarget& target, const std::string& framework) {
  const PythonEnvFacts* found = nullptr;
  for (const PythonEnvFacts& e : facts.python_envs) {
    if (e.path == target.env) found = &e;
  }
  if (found == nullptr) return "";
  const PythonEnvFacts& env = *found;
  std::vector<std::string> why;
  if (facts.driver.libcuda_status != LibraryStatus::ok)
    why.push_back(std::string("no working NVIDIA driver (libcuda: ") + to_string(facts.driver.libcuda_status) + ")");
  const FrameworkFacts* f = framework_in(env, probe_name(framework));
  if (f != nullptr && f->cuda_build == false)
    why.push_back(framework + " " + f->version.str() + " is a CPU-only build");
  if (framework == "jax" && framework_in(env, "jax-cuda-plugin") == nullptr) {
    why.push_back("no jax-cuda plugin is installed in this environment");
  }
  std::string text;
  for (const auto& w : why) text += (text.empty() ? "" : "; ") + w;
  return text;
}

/// What the process loaded next to what the doctor said the loader would give it: a copy from
/// elsewhere (LD_LIBRARY_PATH, a system cuDNN) is the cause of many "works here, not there".
void expected_loads(const Facts& facts, const gpu::FrameworkTarget& target, const std::string& framework,
                    gpu::FrameworkRun& run) {
  const FrameworkFacts* f = nullptr;
  for (const PythonEnvFacts& e : facts.python_envs) {
    if (e.path == target.env) f = framework_in(e, probe_name(framework));
  }
  if (f == nullptr || f->loads.empty() || run.loaded.empty()) return;
  std::vector<LibraryLoad> expected = f->loads;
  for (LibraryLoad& l : expected) {
    std::error_code ec;
    if (l.path.empty()) continue;
    auto real = std::filesystem::canonical(l.path, ec);  // the live machine: maps names the link's target
    if (!ec) l.path = real.string();
  }
  int differ = 0;
  for (auto& line : gpu::loads_against_expected(expected, run.loaded, &differ)) run.step.notes.push_back(line);
  if (differ > 0)
    run.step.detail += "; " + std::to_string(differ) + " CUDA librar" + (differ == 1 ? "y" : "ies") +
                       " loaded from elsewhere than the doctor expected (see the notes)";
}

/// The framework's stderr through the explain rules: one note per real problem recognised.
void explain_stderr(CommandContext& ctx, const std::string& text, size_t dropped, VerifyStep& step) {
  if (text.empty()) return;
  auto rules = load_rule_base(ctx.options().kb_dir);
  if (!rules) return;
  auto matcher = RuleMatcher::build(rules->base);
  if (!matcher) return;
  ExplainSession session(**matcher);
  session.feed(text);
  ExplainMachine machine;
  machine.kb = ctx.kb();
  machine.facts = ctx.facts();
  if (machine.facts != nullptr) machine.platform = machine.facts->platform;
  for (const auto& m : session.finish(machine).matches) {
    if (m.harmless || m.alternative) continue;
    step.notes.push_back("explain: " + m.title + " [" + m.rule + "]: " + m.fix);
  }
  std::string_view last = trim(text);
  if (size_t nl = last.rfind('\n'); nl != std::string_view::npos) last = last.substr(nl + 1);
  // The first and last part of a long stderr are kept: its last line is the real one.
  step.notes.push_back(std::string("stderr") +
                       (dropped > 0 ? " (" + std::to_string(dropped) + " bytes from its middle not kept)" : "") +
                       ", last line: " + printable(last, 300));
}

int run_framework_verify(CommandContext& ctx, const VerifyArgs& a) {
  auto frameworks = framework_names(a.framework);
  if (!frameworks)
    return usage_error("verify", "--framework " + a.framework + ": one of tensorflow, pytorch, jax, all");
  const Facts* facts = ctx.facts();
  if (facts == nullptr) return kExitUsage;
  VerifyReport report;
  report.libs_from = "each environment's own interpreter";
  HostProcessRunner runner;
  for (const std::string& framework : *frameworks) {
    auto targets = framework_targets(*facts, framework);
    for (const gpu::FrameworkTarget& target : targets) {
      gpu::FrameworkRun run = gpu::run_framework_check(runner, target, std::chrono::milliseconds(a.step_timeout_ms));
      if (run.step.framework && run.step.framework->cpu_fallback) {
        std::string why = fallback_reasons(*facts, target, framework);
        if (!why.empty()) run.step.detail += "; why: " + why;
        if (run.step.framework) run.step.framework->fallback_reasons = why;
      }
      expected_loads(*facts, target, framework, run);
      explain_stderr(ctx, run.stderr_text, run.stderr_dropped, run.step);
      report.steps.push_back(std::move(run.step));
    }
    if (targets.empty()) {
      VerifyStep s;
      s.name = "framework " + framework;
      s.status = StepStatus::skipped;
      s.detail = no_framework_env_text(*facts, framework);
      report.steps.push_back(std::move(s));
    }
  }
  write_output(ctx.options().json ? render_verify_json(report) : render_verify_text(report, ctx.color()));
  return verify_passed(report) ? kExitOk : kExitProblems;
}

int run_verify_command(CommandContext& ctx, const VerifyArgs& a) {
  if (!ctx.options().root.empty()) {
    return usage_error("verify", "--root: verify runs work on this machine's GPUs; it cannot verify a tree");
  }
  if (a.step_timeout_ms <= 0) return usage_error("verify", "--step-timeout-ms must be positive");
  if (!a.framework.empty()) return run_framework_verify(ctx, a);
  auto source = library_source(ctx, a.libs_from);
  if (!source) return kExitUsage;
  gpu::VerifyOptions options;
  options.libraries = *source;
  options.quick = a.quick;
  options.step_deadline = std::chrono::milliseconds(a.step_timeout_ms);
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) options.cuda_visible_devices = visible;
  VerifyReport report = gpu::run_verify(options);
  write_output(ctx.options().json ? render_verify_json(report) : render_verify_text(report, ctx.color()));
  return verify_passed(report) ? kExitOk : kExitProblems;
}

}  // namespace

Command verify_command() {
  auto args = std::make_shared<VerifyArgs>();
  Command c;
  c.name = "verify";
  c.summary = "Run real work on every GPU: kernel, cuBLAS, cuDNN, NCCL, each checked against the CPU";
  c.setup = [args](CLI::App& sub) {
    sub.add_option("--libs-from", args->libs_from,
                   "Where to load cuBLAS, cuDNN, NCCL, NVRTC from: system (the loader's path, the default), toolkit "
                   "(the CUDA toolkit's lib folder) or ENV (the nvidia-* wheels of a Python environment the doctor "
                   "found, by its path)");
    sub.add_flag("--quick", args->quick, "Stop after the first kernel on each GPU");
    sub.add_option("--framework", args->framework,
                   "Instead: run a matrix product and a convolution in each found Python environment with this "
                   "framework (tensorflow, pytorch, jax or all), in its own interpreter, and report where it ran");
    sub.add_option("--step-timeout-ms", args->step_timeout_ms,
                   "Deadline of each step's child process, in milliseconds (default 60000)");
    sub.footer(
        "Each step runs in a child process with a deadline: a crash or a hang is reported with the step\n"
        "and the vendor call it happened in; a GPU that hung gets no more steps. Exit status: 0 when\n"
        "every step that could run passed, 1 when a step failed, crashed or timed out, a library it\n"
        "needs was not found (not-found), or a library crashed or hung when loaded. A step that cannot\n"
        "run on this machine's shape, such as peer access with one GPU, is skipped and says why.\n");
  };
  c.run = [args](CommandContext& ctx) { return run_verify_command(ctx, *args); };
  return c;
}

}  // namespace gpudoctor
