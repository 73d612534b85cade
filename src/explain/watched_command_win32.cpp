#include "explain/watched_command.hpp"

namespace gpudoctor {

// Not yet on Windows: `gpudoctor explain -- CMD` there says so; `CMD 2>&1 | gpudoctor
// explain -` works meanwhile.
Result<int> run_watched_command(const std::vector<std::string>& argv, const OutputObserver&) {
  return Error{ErrorKind::unsupported,
               "running a command is not supported on Windows yet; pipe its output: CMD 2>&1 | gpudoctor explain -",
               argv.empty() ? "" : argv[0], 0};
}

}  // namespace gpudoctor
