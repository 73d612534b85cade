// watch's terminal UI in a build without ncurses (the portable glibc-only build): plain text.
#include "cli/watch_tui.hpp"

namespace gpudoctor {

bool run_watch_tui(monitor::Sampler& /*sampler*/, std::chrono::steady_clock::duration /*interval*/) {
  return false;
}

}  // namespace gpudoctor
