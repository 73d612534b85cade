#pragma once
/// Runs the built gpudoctor binary and parses its JSON output.
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/process_runner.hpp"

namespace gpudoctor::testing {

struct Run {
  int exit_code = -1;
  std::string out;
  std::string err;
  nlohmann::json json;  ///< parsed stdout when it is JSON, else null
};

inline Run run_gpudoctor(std::vector<std::string> args) {
  args.insert(args.begin(), GPUDOCTOR_BINARY);
  HostProcessRunner runner;
  auto r = runner.run(args, std::chrono::seconds(60));
  Run out;
  if (!r) {
    out.err = r.error().message;
    return out;
  }
  out.exit_code = r->exit_code;
  out.out = r->out;
  out.err = r->err;
  out.json = nlohmann::json::parse(r->out, nullptr, false);
  if (out.json.is_discarded()) out.json = nullptr;
  return out;
}

}  // namespace gpudoctor::testing
