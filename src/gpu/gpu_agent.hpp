#pragma once
/// The GPU agent: a long-lived internal task (`gpudoctor --internal-task gpu-agent`) that keeps
/// NVML and the CUDA driver loaded and answers requests over its pipes, so that verify, bench
/// and watch pay for loading and init once, and a crash or a hang in vendor code still ends
/// only the agent. Protocol (docs/child-processes.md):
///
///   agent, once started:  .ready gpu-agent 1
///   request, one line:    {"op":"nvml","args":["libnvidia-ml.so.1"]}
///   answer:               the op's lines (one starting with "." gets another "." in front),
///                         then "." alone, or ".error <why>" when the request was refused.
///
/// A request that crashes or hangs the agent (per-request deadline) comes back as an error
/// (crashed / timeout, a finding) and the agent is started again for the next one.
#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "gpu/driver_query.hpp"
#include "gpu/isolated_child.hpp"
#include "platform/child_process.hpp"

namespace gpudoctor::gpu {

/// What the agent keeps between requests. New ops add their libraries here.
struct AgentState {
  DriverSession driver;
};

using AgentOpBody = void (*)(AgentState& state, const std::vector<std::string>& args, ChildChannel& out);

struct AgentOp {
  std::string_view name;
  AgentOpBody body;
};

/// The ops of the product's agent: "nvml" and "cuda-driver" (the queries of driver_query.hpp,
/// answered with the same lines as the one-shot tasks).
std::span<const AgentOp> agent_ops();

/// The agent's loop, in the child: answers requests on `channel` with `ops` until its input
/// ends. Test binaries run it with test-only ops added.
void serve_agent(std::span<const AgentOp> ops, ChildChannel& channel);

/// The "gpu-agent" task body: serve_agent(agent_ops()).
void gpu_agent_body(const std::vector<std::string>& args, ChildChannel& out);

struct AgentOptions {
  std::string task = "gpu-agent";  ///< the internal task to start (tests: one with more ops)
  std::chrono::milliseconds start_deadline{5000};
  size_t max_answer_bytes = kMaxChildOutputBytes;
};

/// The parent's side. Not thread-safe: one owner sends one request at a time.
class Agent {
 public:
  explicit Agent(AgentOptions options = {});
  ~Agent();  ///< closes the agent's input, gives it a moment to leave, then kills it
  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;

  /// Starts the agent and waits for its ready line. Errors: those of starting a child,
  /// timeout, crashed, invalid_data (the program did not answer as an agent).
  Status start();
  /// Sends one request and reads its answer. Starts the agent when it is not running, and
  /// starts it once more when the request could not be written (it died while idle). The
  /// outcome keeps what was answered before a crash or a hang, as a one-shot task's does.
  ChildOutcome exchange(std::string_view op, const std::vector<std::string>& args, std::chrono::milliseconds deadline);
  /// exchange(), as the answer's lines or its error.
  Result<std::vector<std::string>> request(std::string_view op, const std::vector<std::string>& args,
                                           std::chrono::milliseconds deadline);
  [[nodiscard]] bool running() const;
  /// How often the agent was started: more than one means it was restarted.
  [[nodiscard]] int starts() const { return starts_; }
  /// The agent's process id, -1 when none is running (for logs, and tests).
  [[nodiscard]] long pid() const { return child_ ? child_->id() : -1; }

 private:
  enum class Line { line, ended, deadline, too_long };
  Line next_line(std::string& line, ChildProcess::Clock::time_point until);
  void keep_stderr();
  Error ended_error(std::chrono::milliseconds deadline, Line why);
  void stop();

  AgentOptions options_;
  std::optional<ChildProcess> child_;
  std::string buffer_;
  /// What the agent wrote on stderr since the last answer (a vendor library's messages), its
  /// head and tail within kMaxChildDiagnosticBytes: it goes into that answer's diagnostics,
  /// never to our terminal.
  HeadAndTail stderr_{kMaxChildDiagnosticBytes / 2};
  int starts_ = 0;
};

/// The driver queries through an agent, as reports (the same as query_driver_runtime's).
NvmlReport query_nvml(Agent& agent, const std::vector<std::string>& names, std::chrono::milliseconds deadline);
CudaDriverReport query_cuda_driver(Agent& agent, const std::vector<std::string>& names,
                                   std::chrono::milliseconds deadline);

}  // namespace gpudoctor::gpu
