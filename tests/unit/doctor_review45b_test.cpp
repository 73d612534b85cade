// Outside review of session 45 (B): `gpudoctor doctor` on Windows and WSL2 targets, through the
// binary where the defect was in what it prints (/tmp/rev45b). The probe-level tests of the same
// review are in windows_inventory_test.cpp (WindowsReview45b.*).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/text.hpp"
#include "platform/logon_environment.hpp"
#include "platform/registry.hpp"
#include "platform/system_view.hpp"
#include "run_gpudoctor.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::TempTree;

std::string fixture(const std::string& rel) {
  return std::string(GPUDOCTOR_FIXTURES_DIR) + "/" + rel;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// UTF-8 (ASCII here) as UTF-16LE code units, optionally with the byte-order mark.
std::string utf16le(const std::string& ascii, bool bom) {
  std::string out = bom ? std::string("\xFF\xFE") : std::string();
  for (char c : ascii) {
    out += c;
    out += '\0';
  }
  return out;
}

// Review 45B, 2: Windows PowerShell 5.1's `>` writes UTF-16LE with a byte-order mark; every line
// read as "contains a NUL byte; ignored" and the doctor said "No issues found".
TEST(EnvFileEncoding, Utf16AndUtf8WithAMarkReadAsUtf8Does) {
  const std::string text = "Path=C:\\Windows;C:\\x\r\nVIRTUAL_ENV=C:\\Users\\maria\\tf210\r\n";
  for (const std::string& bytes : {utf16le(text, true), utf16le(text, false), "\xEF\xBB\xBF" + text, text}) {
    EnvFile e = parse_env_file(bytes);
    EXPECT_TRUE(e.problems.empty()) << e.problems.front();
    EXPECT_EQ(e.env["Path"], "C:\\Windows;C:\\x");
    EXPECT_EQ(e.env["VIRTUAL_ENV"], "C:\\Users\\maria\\tf210");
    EXPECT_EQ(e.env.size(), 2U);
  }
  // Near miss: a NUL inside UTF-8 text is still a damaged line.
  EnvFile bad = parse_env_file(std::string("A=1\nB=2\0x\n", 10));
  EXPECT_EQ(bad.env.size(), 1U);
  EXPECT_EQ(bad.problems.size(), 1U);
}

TEST(EnvFileEncoding, TheDoctorReadsAnEnvFileWrittenByWindowsPowershell) {
  TempTree t;
  const std::string dir = fixture("windows-tf210-native-gpu");
  t.write("env16", utf16le(read_all(dir + "/env"), true));
  auto r = testing::run_gpudoctor({"doctor", "--root", dir + "/root", "--platform", "windows", "--registry",
                                   dir + "/registry.reg", "--gpu", "NVIDIA GeForce RTX 3060", "--env-file",
                                   t.str() + "/env16", "--json"});
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_FALSE(contains(r.err, "NUL byte")) << r.err;
  bool venv = false;
  for (const auto& e : r.json["facts"]["python_envs"]) venv = venv || e["path"] == "C:\\Users\\maria\\tf210";
  EXPECT_TRUE(venv) << r.out.substr(0, 2000);
}

/// A REG_EXPAND_SZ value as `reg export` writes it: hex(2): the UTF-16LE bytes and a NUL.
std::string hex2(const std::string& ascii) {
  std::string out = "hex(2):";
  char buf[8];
  for (char c : ascii + '\0') {
    std::snprintf(buf, sizeof buf, "%02x,00,", static_cast<unsigned char>(c));
    out += buf;
  }
  out.pop_back();
  return out;
}

const char* kCudaBin = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\bin";

/// The Environment keys of a machine whose system Path names %CUDA_PATH%\bin.
std::string environment_keys() {
  return "[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment]\r\n\"Path\"=" +
         hex2("%SystemRoot%\\system32;%SystemRoot%;%CUDA_PATH%\\bin;%CUDA_PATH%\\libnvvp") +
         "\r\n\"CUDA_PATH\"=\"C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v11.2\"\r\n\r\n"
         "[HKEY_CURRENT_USER\\Environment]\r\n\"Path\"=" +
         hex2("C:\\Users\\maria\\AppData\\Local\\Programs\\Python\\Python310\\") +
         "\r\n\"CUDA_PATH\"=\"C:\\\\user\"\r\n\r\n";
}

// Review 45B, 5: without --env-file PATH was taken as empty; the registry's Environment keys say
// what a new logon gets.
TEST(LogonEnvironment, PathIsTheSystemPathThenTheUsersExpanded) {
  auto reg = parse_registry_export("Windows Registry Editor Version 5.00\r\n\r\n" + environment_keys(), "x.reg");
  ASSERT_TRUE(reg->problems().empty()) << reg->problems().front();
  EnvMap env{{"USERNAME", "maria"}};
  add_logon_environment(*reg, env);
  EXPECT_EQ(env["Path"], std::string("C:\\Windows\\system32;C:\\Windows;") + kCudaBin +
                             ";C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\libnvvp;"
                             "C:\\Users\\maria\\AppData\\Local\\Programs\\Python\\Python310\\");
  EXPECT_EQ(env["CUDA_PATH"], "C:\\user") << "a user variable overrides the system one";
  EXPECT_EQ(env["USERNAME"], "maria");
  // Near miss: what the environment already holds is kept.
  EnvMap given{{"PATH", "C:\\x"}};
  add_logon_environment(*reg, given);
  EXPECT_EQ(given.count("Path"), 0U);
  EXPECT_EQ(given["PATH"], "C:\\x");
}

TEST(LogonEnvironment, TheDoctorWithoutAnEnvFileUsesTheRegistrysPathOrSaysItIsUnknown) {
  TempTree t;
  const std::string dir = fixture("windows-tf210-native-gpu");
  const std::string reg = read_all(dir + "/registry.reg");
  t.write("env.reg", reg + "\r\n" + environment_keys());
  t.write("plain.reg", reg);
  auto run = [&](const std::string& file) {
    return testing::run_gpudoctor({"doctor", "--root", dir + "/root", "--platform", "windows", "--registry",
                                   t.str() + "/" + file, "--gpu", "NVIDIA GeForce RTX 3060", "--env",
                                   "C:\\Users\\maria\\tf210", "--json"});
  };
  auto ids = [](const testing::RunResult& r) {
    std::string out;
    for (const auto& f : r.json["findings"]) out += f["id"].get<std::string>() + " ";
    return out;
  };
  auto with = run("env.reg");
  ASSERT_TRUE(with.json.is_object()) << with.out << with.err;
  EXPECT_FALSE(contains(ids(with), "windows-dll-not-found")) << ids(with);
  EXPECT_FALSE(contains(with.out, "unknown: no --env-file")) << with.out.substr(0, 3000);
  auto without = run("plain.reg");
  ASSERT_TRUE(without.json.is_object()) << without.out << without.err;
  EXPECT_TRUE(contains(without.out, "unknown: no --env-file")) << without.out.substr(0, 3000);
  EXPECT_EQ(without.json["facts"]["windows"]["path_unknown"], true);
  // Never a definite "will not find" on a PATH that is unknown.
  for (const auto& f : without.json["findings"]) {
    if (f["id"] != "windows-dll-not-found") continue;
    EXPECT_EQ(f["severity"], "warning");
    EXPECT_TRUE(contains(f["title"].get<std::string>(), "may not find")) << f["title"];
  }
}

}  // namespace
}  // namespace gpudoctor
