// D5, D6, D7, D17: no control code reaches the terminal, from any source, through any command.
// Every class of unsafe character (C0 escape sequences, BEL, CR, C1 controls as UTF-8 and as raw
// bytes, bidi overrides) is fed through every input the commands echo: arguments, file names,
// tree contents, environment values, log lines and a user's rule file.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/text.hpp"
#include "hostile_support.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

using testing::copy_fixture;
using testing::run_gpudoctor;
using testing::ScratchDir;
using testing::unsafe_for_terminal;

/// One sample of each class, all in one string.
const std::string kEveryControlClass =
    "A\x1b]0;pwned\x07"  // OSC title change, BEL
    "\x1b[2J\r"          // CSI clear screen, carriage return
    "\xc2\x9b"           // U+009B: CSI as one character
    "2J\xc2\x9d"         // U+009D: OSC
    "0;t\xc2\x9c"        // U+009C: string terminator
    "\x9b"               // raw 0x9B: CSI on an 8-bit terminal
    "\xe2\x80\xae"       // U+202E right-to-left override
    "\xe2\x81\xa6Z";     // U+2066 left-to-right isolate

void expect_safe(const testing::RunResult& r, const std::string& what) {
  EXPECT_EQ(unsafe_for_terminal(r.out), "") << what << " stdout: " << r.out;
  EXPECT_EQ(unsafe_for_terminal(r.err), "") << what << " stderr: " << r.err;
}

TEST(ControlCharacters, SanitiserEscapesEveryClass) {
  EXPECT_EQ(unsafe_for_terminal(terminal_safe(kEveryControlClass)), "");
  EXPECT_EQ(unsafe_for_terminal(printable(kEveryControlClass)), "");
  EXPECT_EQ(unsafe_for_terminal(output_safe(kEveryControlClass)), "");
  // Escapes stay visible, so the reader sees that something was there.
  EXPECT_NE(terminal_safe(kEveryControlClass).find("\\u202e"), std::string::npos);
  EXPECT_NE(terminal_safe(kEveryControlClass).find("\\x9b"), std::string::npos);
  // The tool's own colour survives the last filter; a title change does not.
  EXPECT_EQ(output_safe("\x1b[31mred\x1b[0m"), "\x1b[31mred\x1b[0m");
  EXPECT_EQ(output_safe("\x1b]0;t\x07"), "\\u001b]0;t\\u0007");
  // Plain text, tabs and non-Latin letters pass unchanged.
  EXPECT_EQ(terminal_safe("Grafikkarte \xc3\xa9\t\xe4\xb8\xad"), "Grafikkarte \xc3\xa9\t\xe4\xb8\xad");
}

TEST(ControlCharacters, D17_CutNeverSplitsACharacter) {
  const std::string e_acute = "\xc3\xa9";
  std::string text;
  for (int i = 0; i < 300; ++i) text += e_acute;
  for (size_t max = 0; max < 40; ++max) {
    EXPECT_EQ(unsafe_for_terminal(printable(text, max)), "") << "max_len " << max;
    EXPECT_EQ(unsafe_for_terminal(std::string(utf8_prefix(text, max))), "") << "max_bytes " << max;
  }
}

TEST(ControlCharacters, D7_ArgumentsEchoedInErrorsAreEscaped) {
  const std::string& e = kEveryControlClass;
  const std::vector<std::vector<std::string>> commands = {
      {"--platform", e},
      {"--root", e},
      {"matrix", "--cuda", e},
      {"plan", "--os", e},
      {"plan", "--gpu", e},
      {"explain", e},
      {"kb", "validate", e},
      {"--kb", e, "plan"},
      {"kb", e},
      {"--no-such-flag", e},
      {e},
      {"--env-file", e, "--root", "/"},
      {"plan", "--python", e},
  };
  for (const auto& args : commands) {
    auto r = run_gpudoctor(args);
    EXPECT_NE(r.exit_code, -1);
    expect_safe(r, args.front());
  }
}

TEST(ControlCharacters, D5_TreeAndEnvironmentContentIsEscaped) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty());
  auto t = copy_fixture(scratch, "linux-torch-healthy", "c1");
  for (const auto& gpu : std::filesystem::directory_iterator(t / "root/proc/driver/nvidia/gpus")) {
    scratch.write(std::filesystem::relative(gpu.path() / "information", scratch.path()),
                  "Model: \t\tNVIDIA GeForce RTX 3090" + kEveryControlClass + "\nBus Location: \t0000:01:00.0\n");
  }
  scratch.write("c1/env2", "PATH=/usr/bin\nCUDA_VISIBLE_DEVICES=" + kEveryControlClass +
                               "\nLD_LIBRARY_PATH=" + kEveryControlClass + "\n" + kEveryControlClass + "\n");
  for (bool json : {false, true}) {
    std::vector<std::string> args = {"--root", (t / "root").string(), "--env-file", (t / "env2").string()};
    if (json) args.insert(args.begin(), "--json");
    for (const char* cmd : {"doctor", "plan"}) {
      auto with_cmd = args;
      with_cmd.insert(with_cmd.begin(), cmd);
      auto r = run_gpudoctor(with_cmd);
      expect_safe(r, std::string(cmd) + (json ? " --json" : ""));
      if (json && std::string(cmd) == "doctor") EXPECT_FALSE(r.json.is_null()) << "output must stay valid JSON";
    }
  }
}

TEST(ControlCharacters, D5_D6_LogAndUserRulesAreEscaped) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty());
  auto log = scratch.write("c1.log", "Could not load dynamic library libcudnn.so.8 " + kEveryControlClass +
                                         "\nANSIMARK " + kEveryControlClass + "\n");
  // UTF-16 input is decoded before matching: the controls must not come back through it.
  std::string utf16 = "\xff\xfe";
  for (char c : std::string("Could not load dynamic library libcudnn.so.8 \x1b[2J")) {
    utf16 += c;
    utf16 += '\0';
  }
  utf16 += "\x9b\x00\x2e\x20";  // U+009B, U+202E
  auto log16 = scratch.write("c1-16.log", utf16);
  scratch.write("kb/explain/r.toml",
                "[[rule]]\nid = \"x\\u001b]0;pwned\\u0007\\u009b\"\ntitle = \"t\\u202e\"\ncategory = \"other\"\n"
                "severity = \"error\"\npriority = 100\npatterns = [\"ANSIMARK\"]\ncause = \"c\\u001b[2J\"\n"
                "fix = \"f\"\nsources = [\"\\u001b]8;;http://evil\\u0007click\\u001b]8;;\\u0007\"]\n"
                "examples = [\"ANSIMARK\"]\n");
  const std::string kb = (scratch.path() / "kb").string();
  for (const auto& file : {log.string(), log16.string()}) {
    for (bool json : {false, true}) {
      std::vector<std::string> args = {"--kb", kb, "explain", "--no-probe", file};
      if (json) args.insert(args.begin(), "--json");
      auto r = run_gpudoctor(args);
      expect_safe(r, "explain " + file + (json ? " --json" : ""));
    }
  }
  expect_safe(run_gpudoctor({"kb", "validate", kb}), "kb validate");
  // With -- CMD the command's own stdout passes through unchanged (it is the command's, as with
  // tee); the explanation, on stderr, is the doctor's and must be safe.
  auto watched = run_gpudoctor({"--kb", kb, "explain", "--no-probe", "--", "printf", kEveryControlClass});
  EXPECT_EQ(watched.out, kEveryControlClass);
  EXPECT_EQ(unsafe_for_terminal(watched.err), "") << watched.err;
}

}  // namespace
}  // namespace gpudoctor
