#include <fmt/core.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "cli/commands_list.hpp"
#include "cli/output.hpp"
#include "explain/error_code_query.hpp"
#include "explain/explain_session.hpp"
#include "explain/rule_loader.hpp"
#include "explain/watched_command.hpp"
#include "kb/knowledge_base.hpp"
#include "render/explain_render.hpp"

namespace gpudoctor {

namespace {

struct ExplainArgs {
  std::vector<std::string> args;  ///< FILE, "-", or the command after "--"
  bool no_probe = false;
  CLI::App* sub = nullptr;
};

constexpr size_t kReadChunkBytes = 1 << 20;

/// Streams a file (or stdin) through the session in fixed-size chunks: memory stays bounded
/// whatever the size.
Status stream_file(const std::string& path, ExplainSession& session) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Error{errno == ENOENT ? ErrorKind::not_found : ErrorKind::io_error, std::strerror(errno), path, errno};
  }
  std::unique_ptr<char[]> buffer(new char[kReadChunkBytes]);
  Status result = Ok{};
  for (;;) {
    const size_t n = std::fread(buffer.get(), 1, kReadChunkBytes, f);
    if (n > 0) session.feed(std::string_view(buffer.get(), n));
    if (n < kReadChunkBytes) {
      if (std::ferror(f)) result = Error{ErrorKind::io_error, std::strerror(errno), path, errno};
      break;
    }
  }
  if (f != stdin) std::fclose(f);
  return result;
}

bool has_real_error(const ExplainReport& report) {
  for (const auto& m : report.matches) {
    // Only an answer's leading candidate: an alternative is a less likely cause of lines that
    // already have an answer.
    if (!m.alternative && !m.harmless && m.severity == RuleSeverity::error && m.facts_verdict != "contradicted") {
      return true;
    }
  }
  return false;
}

int run_explain(CommandContext& ctx, const ExplainArgs& a) {
  bool command_mode = false;
  if (a.sub != nullptr) {
    for (const auto& r : a.sub->remaining()) {
      if (r == "--") command_mode = true;
    }
  }
  if (!command_mode && a.args.size() > 1) {
    print_error("gpudoctor explain: give one FILE (or -), or a command after --\n");
    return kExitUsage;
  }
  if (command_mode && a.args.empty()) {
    print_error("gpudoctor explain: no command after --\n");
    return kExitUsage;
  }

  // The compatibility tables, shared with the doctor and `plan`: every version fact explain
  // states comes from here. Loaded with --no-probe too, so a broken --kb is always exit 2.
  const KnowledgeBase* kb = ctx.kb();
  if (kb == nullptr) return kExitUsage;
  auto rules = load_rule_base(ctx.options().kb_dir);
  if (!rules) {
    print_error("gpudoctor explain: --kb {}: {}\n", rules.error().origin, rules.error().message);
    return kExitUsage;
  }
  auto matcher = RuleMatcher::build(rules->base);
  if (!matcher) {
    print_error("gpudoctor explain: rules: {} ({})\n", matcher.error().message, matcher.error().origin);
    return kExitUsage;
  }

  ExplainMachine machine;
  machine.kb = kb;
  if (!ctx.options().platform.empty()) machine.platform = parse_platform(ctx.options().platform);
  if (!a.no_probe) {
    machine.facts = ctx.facts();  // the doctor's facts
    if (machine.facts == nullptr) return kExitUsage;
    machine.platform = machine.facts->platform;
  }

  ExplainSession session(**matcher);
  int command_status = 0;
  if (command_mode) {
    auto status =
        run_watched_command(a.args, [&](int stream, std::string_view chunk) { session.feed_stream(stream, chunk); });
    if (!status) {
      print_error("gpudoctor explain: {}: {}\n", status.error().origin, status.error().message);
      if (status.error().kind == ErrorKind::not_found) return 127;  // as a shell says it
      if (status.error().kind == ErrorKind::permission_denied) return 126;
      return kExitUsage;
    }
    command_status = *status;
  } else if (const auto code = a.args.size() == 1 && ::access(a.args.front().c_str(), F_OK) != 0
                                   ? error_code_query(rules->base, a.args.front())
                                   : std::nullopt) {
    // `explain 802` / `explain CUDA_ERROR_SYSTEM_NOT_READY`: not a file, a code.
    session.feed(*code);
  } else {
    const std::string path = a.args.empty() ? "-" : a.args.front();
    if (path == "-" && ::isatty(0) == 1) {
      print_error("Paste the log, then press Ctrl-D (Ctrl-Z Enter on Windows):\n");
    }
    Status read = stream_file(path, session);
    if (!read) {
      print_error("gpudoctor explain: {}: {}\n", read.error().origin, read.error().message);
      return kExitUsage;
    }
  }

  ExplainReport report = session.finish(machine);
  report.problems = rules->problems;
  if (!ctx.options().kb_dir.empty()) {
    // A user's rules: say when one does not match its own examples.
    for (auto& p : check_rule_examples(**matcher, RulesChecked::kb_dir)) report.problems.push_back(std::move(p));
  }
  std::string text = ctx.options().json
                         ? render_explain_json(report)
                         : render_explain_text(report, ExplainTextOptions{.color = !command_mode && ctx.color()});
  // With a watched command, stdout belongs to the command: the explanation goes to stderr.
  write_output(text, command_mode ? stderr : stdout);
  if (command_mode) return command_status;
  return has_real_error(report) ? kExitProblems : kExitOk;
}

}  // namespace

Command explain_command() {
  auto args = std::make_shared<ExplainArgs>();
  Command c;
  c.name = "explain";
  c.summary = "Explain an error log: known problems, their cause and the fix for this machine";
  c.setup = [args](CLI::App& sub) {
    args->sub = &sub;
    sub.add_flag("--no-probe", args->no_probe, "Explain from the text alone; do not look at this machine");
    sub.add_option("input", args->args,
                   "FILE or - (stdin, the default); an error code (802, CUDA_ERROR_SYSTEM_NOT_READY, "
                   "cudaErrorNoKernelImageForDevice, CUBLAS_STATUS_NOT_INITIALIZED ...); or -- CMD ARGS... to run CMD "
                   "and explain its output");
    sub.prefix_command();
    sub.footer(
        "Exit status: with FILE or -, 1 when a real (non-harmless) error was recognised, else 0;\n"
        "with -- CMD, the command's own exit status (128+N if killed by signal N), and the\n"
        "explanation is written to stderr so the command's stdout stays unchanged.\n");
  };
  c.run = [args](CommandContext& ctx) { return run_explain(ctx, *args); };
  return c;
}

}  // namespace gpudoctor
