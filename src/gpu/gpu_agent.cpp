#include "gpu/gpu_agent.hpp"

#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>
#include <utility>

#include "gpu/gpu_sampling.hpp"
#include "gpu/internal_tasks.hpp"

namespace gpudoctor::gpu {
namespace {

using json = nlohmann::ordered_json;
using Clock = ChildProcess::Clock;

constexpr std::string_view kReady = ".ready gpu-agent 1";
constexpr std::string_view kEnd = ".";
constexpr std::string_view kRefused = ".error ";
constexpr size_t kMaxRequestBytes = 64 * 1024;

constexpr AgentOp kAgentOps[] = {
    {"nvml",
     [](AgentState& s, const std::vector<std::string>& args, ChildChannel& out) { query_nvml(s.driver, args, out); }},
    {"cuda-driver", [](AgentState& s, const std::vector<std::string>& args,
                       ChildChannel& out) { query_cuda_driver(s.driver, args, out); }},
    {"sample",
     [](AgentState& s, const std::vector<std::string>& args, ChildChannel& out) { sample_gpus(s.driver, args, out); }},
};

/// An op's lines as the protocol carries them: one that starts with "." gets another in front,
/// so that no answer line reads as the end marker.
class StuffedChannel final : public ChildChannel {
 public:
  explicit StuffedChannel(ChildChannel& to) : to_(to) {}
  void write_line(std::string_view line) override {
    if (line.starts_with('.')) {
      to_.write_line("." + std::string(line));
    } else {
      to_.write_line(line);
    }
  }

 private:
  ChildChannel& to_;
};

/// The op and its arguments, or why the line is no request.
const AgentOp* parse_request(std::span<const AgentOp> ops, const std::string& line, std::vector<std::string>& args,
                             std::string& why) {
  json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
  auto op = j.is_object() ? j.find("op") : j.end();
  if (!j.is_object() || op == j.end() || !op->is_string()) {
    why = "not a request: " + line.substr(0, 80);
    return nullptr;
  }
  if (auto a = j.find("args"); a != j.end()) {
    if (!a->is_array()) {
      why = "args is not a list";
      return nullptr;
    }
    for (const auto& arg : *a) {
      if (!arg.is_string()) {
        why = "an argument is not a string";
        return nullptr;
      }
      args.push_back(arg.get<std::string>());
    }
  }
  const std::string name = op->get<std::string>();
  for (const AgentOp& candidate : ops) {
    if (candidate.name == name) return &candidate;
  }
  why = "no operation named " + name.substr(0, 80);
  return nullptr;
}

}  // namespace

std::span<const AgentOp> agent_ops() {
  return kAgentOps;
}

void serve_agent(std::span<const AgentOp> ops, ChildChannel& channel) {
  AgentState state;
  channel.write_line(kReady);
  std::string line;
  while (channel.read_line(line, kMaxRequestBytes)) {
    std::vector<std::string> args;
    std::string why;
    const AgentOp* op = parse_request(ops, line, args, why);
    if (op == nullptr) {
      channel.write_line(std::string(kRefused) + why);
      continue;
    }
    StuffedChannel answer(channel);
    try {
      op->body(state, args, answer);
    } catch (const std::exception& e) {
      channel.write_line(std::string(kRefused) + "the operation failed: " + e.what());
      continue;
    }
    channel.write_line(kEnd);
  }
}

void gpu_agent_body(const std::vector<std::string>& /*args*/, ChildChannel& out) {
  serve_agent(agent_ops(), out);
}

Agent::Agent(AgentOptions options) : options_(std::move(options)) {}

Agent::~Agent() {
  stop();
}

bool Agent::running() const {
  return child_.has_value() && !child_->ended();
}

void Agent::stop() {
  if (!child_) return;
  // End of input asks the agent to leave; one that does not is killed by the destructor.
  child_->close_stdin();
  const auto until = Clock::now() + std::chrono::milliseconds(200);
  while (!child_->ended() && Clock::now() < until) {
    child_->wait(until);
    (void)child_->take_output(ChildStream::out);
    keep_stderr();
  }
  child_.reset();
  buffer_.clear();
}

Agent::Line Agent::next_line(std::string& line, Clock::time_point until) {
  for (;;) {
    size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line.assign(buffer_, 0, nl);
      buffer_.erase(0, nl + 1);
      return Line::line;
    }
    if (buffer_.size() > options_.max_answer_bytes) return Line::too_long;
    if (!child_->reading(ChildStream::out)) return Line::ended;
    if (Clock::now() >= until) return Line::deadline;
    child_->wait(until);
    buffer_ += child_->take_output(ChildStream::out);
    keep_stderr();
  }
}

void Agent::keep_stderr() {
  stderr_.add(child_->take_output(ChildStream::err));
}

Error Agent::ended_error(std::chrono::milliseconds deadline, Line why) {
  if (why == Line::deadline) {
    child_->kill();
    return child_timeout_error(deadline);
  }
  if (why == Line::too_long) {
    child_->kill();
    return Error{
        ErrorKind::too_large,
        "an answer line longer than " + std::to_string(options_.max_answer_bytes) + " bytes; child process killed",
        options_.task, 0};
  }
  // Its output ended: it is ending too. Reap it, briefly.
  const auto until = Clock::now() + std::chrono::seconds(1);
  while (!child_->ended() && Clock::now() < until) child_->wait(until);
  if (!child_->ended()) child_->kill();
  if (auto e = child_exit_error(child_->exit_status())) return *e;
  return Error{ErrorKind::crashed, "child process exited with status 0 without an answer", options_.task, 0};
}

Status Agent::start() {
  stop();
  auto self = current_executable();
  if (!self) return self.error();
  auto started = ChildProcess::start(ChildSpec{.argv = internal_task_argv(options_.task, {}),
                                               .program = *self,
                                               .in = ChildStdio::pipe,
                                               .err = ChildStdio::pipe,
                                               // long-lived: no one-shot backstop
                                               .env = {{std::string(kTaskDeadlineVariable), std::nullopt}}});
  if (!started) return started.error();
  child_.emplace(std::move(started).value());
  ++starts_;
  std::string line;
  Line got = next_line(line, Clock::now() + options_.start_deadline);
  if (got == Line::line && line == kReady) return Ok{};
  Error e = got == Line::line
                ? Error{ErrorKind::invalid_data, "not an agent: its first line is \"" + line.substr(0, 80) + "\"",
                        options_.task, 0}
                : ended_error(options_.start_deadline, got);
  stop();
  return e;
}

ChildOutcome Agent::exchange(std::string_view op, const std::vector<std::string>& args,
                             std::chrono::milliseconds deadline) {
  const auto begin = Clock::now();
  ChildOutcome outcome;
  auto finish = [&](std::optional<Error> error) {
    outcome.error = std::move(error);
    outcome.diagnostics = std::exchange(stderr_, HeadAndTail(kMaxChildDiagnosticBytes / 2)).text(true);
    outcome.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - begin);
    return outcome;
  };
  const std::string request =
      json{{"op", op}, {"args", args}}.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  bool written = false;
  for (int attempt = 0; attempt < 2 && !written; ++attempt) {
    if (!running()) {
      Status s = start();
      if (!s) return finish(s.error());
    }
    written = static_cast<bool>(child_->write_stdin(request));
    if (!written) stop();  // it died while idle: once more, with a fresh one
  }
  if (!written) return finish(Error{ErrorKind::io_error, "the agent takes no requests", options_.task, 0});

  const auto until = begin + deadline;
  for (;;) {
    std::string line;
    Line got = next_line(line, until);
    if (got != Line::line) {
      Error e = ended_error(deadline, got);
      stop();
      return finish(std::move(e));
    }
    if (line == kEnd) return finish(std::nullopt);
    if (line.starts_with(kRefused)) {
      return finish(Error{ErrorKind::unsupported, line.substr(kRefused.size()), std::string(op), 0});
    }
    if (line.starts_with("..")) line.erase(0, 1);
    if (outcome.output.size() + line.size() < options_.max_answer_bytes) {
      outcome.output += line;
      outcome.output += '\n';
    }
  }
}

Result<std::vector<std::string>> Agent::request(std::string_view op, const std::vector<std::string>& args,
                                                std::chrono::milliseconds deadline) {
  ChildOutcome outcome = exchange(op, args, deadline);
  if (outcome.error) return *outcome.error;
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < outcome.output.size()) {
    size_t nl = outcome.output.find('\n', begin);
    lines.push_back(outcome.output.substr(begin, nl - begin));
    begin = nl + 1;
  }
  return lines;
}

NvmlReport query_nvml(Agent& agent, const std::vector<std::string>& names, std::chrono::milliseconds deadline) {
  return nvml_report_from_child(agent.exchange("nvml", names, deadline));
}

CudaDriverReport query_cuda_driver(Agent& agent, const std::vector<std::string>& names,
                                   std::chrono::milliseconds deadline) {
  return cuda_report_from_child(agent.exchange("cuda-driver", names, deadline));
}

}  // namespace gpudoctor::gpu
