#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/text.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A SystemView over tests/fixtures/<name>/root with the scenario's env file and the
/// --platform of its args file, as `gpudoctor --root ... --env-file ...` builds it.
SystemView fixture_view(const fs::path& dir) {
  SystemView::Options o;
  o.root = (dir / "root").string();
  o.env = parse_env_file(read_text(dir / "env")).env;
  o.live = false;
  std::vector<std::string> args;
  std::string args_text = read_text(dir / "args");
  for (auto line : lines(args_text)) args.emplace_back(trim(line));
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--platform") o.platform = parse_platform(args[i + 1]).value_or(Platform::linux);
  }
  return SystemView(std::move(o));
}

Facts probe_fixture(const std::string& name) {
  fs::path dir = fs::path(GPUDOCTOR_FIXTURES_DIR) / name;
  EXPECT_TRUE(fs::is_directory(dir / "root")) << dir;
  SystemView system = fixture_view(dir);
  Facts facts;
  probe_python(system, facts);
  return facts;
}

const PythonEnvFacts* env_at(const Facts& f, std::string_view path) {
  for (const auto& e : f.python_envs) {
    if (e.path == path) return &e;
  }
  return nullptr;
}

const FrameworkFacts* framework(const PythonEnvFacts& e, std::string_view name) {
  for (const auto& fw : e.frameworks) {
    if (fw.name == name) return &fw;
  }
  return nullptr;
}

const NvidiaWheel* wheel(const PythonEnvFacts& e, std::string_view package) {
  for (const auto& w : e.nvidia_wheels) {
    if (w.package == package) return &w;
  }
  return nullptr;
}

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string describe(const Facts& f) {
  std::string out;
  for (const auto& e : f.python_envs) {
    out += e.kind + " " + e.path + " py=" + (e.python_version ? e.python_version->str() : "?") +
           " via=" + join(e.found_via, ",") + "\n";
    for (const auto& fw : e.frameworks) {
      out += "  " + fw.name + " (" + fw.package + ") " + fw.version.str() + " variant=" + fw.variant +
             " cuda_build=" + (fw.cuda_build ? (*fw.cuda_build ? "true" : "false") : "?") + "\n";
      for (const auto& p : fw.problems) out += "    problem: " + p + "\n";
    }
    out += "  nvidia wheels: " + std::to_string(e.nvidia_wheels.size()) + "\n";
  }
  for (const auto& p : f.problems) out += "problem: " + p.path + ": " + p.message + "\n";
  return out;
}

#define EXPECT_NO_PROBLEMS(f) EXPECT_TRUE((f).problems.empty()) << describe(f)

TEST(PythonProbe, DumpAll) {
  for (const auto& entry : fs::directory_iterator(GPUDOCTOR_FIXTURES_DIR)) {
    if (!fs::is_directory(entry.path() / "root")) continue;
    Facts f = probe_fixture(entry.path().filename().string());
    std::printf("== %s\n%s", entry.path().filename().c_str(), describe(f).c_str());
  }
}

}  // namespace
}  // namespace gpudoctor
