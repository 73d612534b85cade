#pragma once
/// watch's terminal UI (ncurses): a panel per GPU with history sparklines, the process table,
/// the diagnoses; redrawn on every sample and on a terminal resize; `q` quits.
#include <chrono>

#include "monitor/sampler.hpp"

namespace gpudoctor {

/// Runs until `q` (or Ctrl-C). false when this build has no terminal UI (built without
/// ncurses) or the terminal cannot take one: the caller prints plain text instead.
bool run_watch_tui(monitor::Sampler& sampler, std::chrono::steady_clock::duration interval);

}  // namespace gpudoctor
