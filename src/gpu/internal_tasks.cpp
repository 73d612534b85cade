#include "gpu/internal_tasks.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpu/cpu_bench.hpp"
#include "gpu/driver_query.hpp"
#include "gpu/gpu_agent.hpp"
#include "gpu/gpu_bench.hpp"
#include "gpu/runtime_libraries.hpp"
#include "gpu/verify_steps.hpp"
#include "platform/child_process.hpp"

namespace gpudoctor::gpu {
namespace {

constexpr TaskEntry kProductTasks[] = {
    {"nvml", &nvml_child_body},         {"cuda-driver", &cuda_child_body},
    {"gpu-agent", &gpu_agent_body},     {"runtime-library", &runtime_library_body},
    {"verify-step", &verify_step_body}, {"cpu-bench", &cpu_bench_body},
    {"gpu-bench", &gpu_bench_body},
};

class PipeChannel final : public ChildChannel {
 public:
  explicit PipeChannel(ParentPipe& pipe) : pipe_(pipe) {}
  void write_line(std::string_view line) override {
    // The parent went away: nothing more to say, and nobody to say it to.
    (void)pipe_.write_line(line);
  }
  bool read_line(std::string& line, size_t max_bytes) override { return pipe_.read_line(line, max_bytes); }

 private:
  ParentPipe& pipe_;
};

const TaskEntry* find_task(std::string_view name, std::span<const TaskEntry> extra) {
  for (std::span<const TaskEntry> table : {std::span<const TaskEntry>(kProductTasks), extra}) {
    for (const TaskEntry& t : table) {
      if (t.name == name) return &t;
    }
  }
  return nullptr;
}

}  // namespace

std::span<const TaskEntry> product_tasks() {
  return kProductTasks;
}

void run_internal_task(int argc, char** argv, std::span<const TaskEntry> extra) {
  if (argc < 2 || std::string_view(argv[1]) != kInternalTaskFlag) return;
  const TaskEntry* task = argc >= 3 ? find_task(argv[2], extra) : nullptr;
  if (task == nullptr) {
    std::fprintf(stderr, "gpudoctor: no internal task named \"%s\"\n", argc >= 3 ? argv[2] : "");
    std::_Exit(2);
  }
  if (const char* text = std::getenv(std::string(kTaskDeadlineVariable).c_str())) {
    long long seconds = 0;
    std::string_view v(text);
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seconds);
    if (ec == std::errc() && end == v.data() + v.size() && seconds > 0) exit_after(std::chrono::seconds(seconds));
  }
  keep_descendants();
  std::vector<std::string> args(argv + 3, argv + argc);
  ParentPipe pipe = ParentPipe::take();
  PipeChannel channel(pipe);
  int status = 0;
  try {
    task->body(args, channel);
  } catch (...) {
    status = 3;
  }
  // The channel writes straight to the descriptor: nothing is left in a buffer.
  std::_Exit(status);
}

}  // namespace gpudoctor::gpu
