#include "platform/process_runner.hpp"

#include "platform/child_process.hpp"

namespace gpudoctor {

Result<ProcessOutput> HostProcessRunner::run(const std::vector<std::string>& argv,
                                             std::chrono::milliseconds timeout) const {
  if (argv.empty()) return Error{ErrorKind::invalid_data, "empty command", "", 0};
  auto done = run_to_end(ChildSpec{.argv = argv}, timeout, kMaxOutputBytes);
  if (!done) return done.error();
  if (done->status.crashed) {
    return Error{ErrorKind::crashed, describe(done->status), argv[0], done->status.code};
  }
  return ProcessOutput{.exit_code = done->status.code,
                       .out = std::move(done->out),
                       .err = std::move(done->err),
                       .out_dropped = done->out_dropped,
                       .err_dropped = done->err_dropped};
}

}  // namespace gpudoctor
