// The registry view of a `reg export` file (platform/registry.hpp): both encodings regedit and
// `reg export` write, every value type a probe reads, the 32-bit view, and damaged input that
// must come back as problems, never as a healthy-looking registry.
#include "platform/registry.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace gpudoctor {
namespace {

std::string utf16le(const std::string& ascii_or_utf8) {
  // The test texts are ASCII except where a test builds its own code units.
  std::string out = "\xFF\xFE";
  for (char c : ascii_or_utf8) {
    out.push_back(c);
    out.push_back('\0');
  }
  return out;
}

const char* kExport =
    "Windows Registry Editor Version 5.00\r\n"
    "\r\n"
    "[HKEY_LOCAL_MACHINE\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA\\v12.2]\r\n"
    "\"InstallDir\"=\"C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v12.2\\\\\"\r\n"
    "\"64BitInstalled\"=dword:00000001\r\n"
    "\r\n"
    "[HKEY_CURRENT_USER\\Software\\Python\\PythonCore\\3.11\\InstallPath]\r\n"
    "@=\"C:\\\\Users\\\\a\\\\Python311\\\\\"\r\n"
    "\"ExecutablePath\"=\"C:\\\\Users\\\\a\\\\Python311\\\\python.exe\"\r\n"
    "\"Quoted\"=\"say \\\"hi\\\"\"\r\n"
    "\r\n"
    "[HKEY_LOCAL_MACHINE\\SOFTWARE\\WOW6432Node\\Python\\PythonCore\\3.9-32\\InstallPath]\r\n"
    "@=\"C:\\\\Python39-32\"\r\n";

TEST(RegistryExport, ReadsTheUtf16ExportRegExportWrites) {
  auto reg = parse_registry_export(utf16le(kExport), "x.reg");
  EXPECT_TRUE(reg->problems().empty()) << reg->problems().front();
  EXPECT_EQ(reg->text("HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA\\v12.2", "InstallDir"),
            "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2\\");
  auto dw = reg->value("HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA\\v12.2", "64BitInstalled");
  ASSERT_TRUE(dw);
  EXPECT_EQ(dw->type, "REG_DWORD");
  EXPECT_EQ(dw->number, 1u);
  // Default value, escapes, case-insensitive keys and names, the parents an export never lists.
  EXPECT_EQ(reg->text("hkey_current_user\\software\\python\\pythoncore\\3.11\\installpath", ""),
            "C:\\Users\\a\\Python311\\");
  EXPECT_EQ(reg->text("HKCU\\Software\\Python\\PythonCore\\3.11\\InstallPath", "quoted"), "say \"hi\"");
  auto tags = reg->subkeys("HKCU\\Software\\Python\\PythonCore", RegistryBits::native64);
  ASSERT_TRUE(tags);
  EXPECT_EQ(*tags, std::vector<std::string>{"3.11"});
  EXPECT_EQ(reg->source(), "registry export x.reg");
}

TEST(RegistryExport, ExportsJoinedWithCopyB) {
  // `copy /b nt.reg+py.reg all.reg`: the second part's byte-order mark and header mid-file.
  const std::string second =
      "Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\Second]\r\n\"k\"=\"v\"\r\n";
  auto reg = parse_registry_export(utf16le(kExport) + utf16le(second), "all.reg");
  EXPECT_TRUE(reg->problems().empty()) << reg->problems().front();
  EXPECT_EQ(reg->text("HKCU\\Second", "k"), "v");
  EXPECT_TRUE(reg->text("HKCU\\Software\\Python\\PythonCore\\3.11\\InstallPath", ""));
}

TEST(RegistryExport, ReadsUtf8AndUtf8WithBom) {
  for (const std::string& bytes : {std::string(kExport), "\xEF\xBB\xBF" + std::string(kExport)}) {
    auto reg = parse_registry_export(bytes, "x.reg");
    EXPECT_TRUE(reg->problems().empty());
    EXPECT_EQ(reg->text("HKCU\\Software\\Python\\PythonCore\\3.11\\InstallPath", "ExecutablePath"),
              "C:\\Users\\a\\Python311\\python.exe");
  }
}

TEST(RegistryExport, The32BitViewIsWow6432Node) {
  auto reg = parse_registry_export(kExport, "x.reg");
  EXPECT_FALSE(reg->subkeys("HKLM\\SOFTWARE\\Python\\PythonCore", RegistryBits::native64));
  auto tags = reg->subkeys("HKLM\\SOFTWARE\\Python\\PythonCore", RegistryBits::wow32);
  ASSERT_TRUE(tags);
  EXPECT_EQ(*tags, std::vector<std::string>{"3.9-32"});
  // HKCU is not redirected.
  EXPECT_TRUE(reg->subkeys("HKCU\\Software\\Python\\PythonCore", RegistryBits::wow32));
}

TEST(RegistryExport, HexValueTypesAndContinuationLines) {
  // hex(2) and hex(7) carry UTF-16LE strings in a version 5 export; hex(b) is a little-endian qword.
  const std::string text =
      "Windows Registry Editor Version 5.00\n\n"
      "[HKEY_LOCAL_MACHINE\\SOFTWARE\\T]\n"
      "\"Expand\"=hex(2):25,00,53,00,79,00,73,00,\\\n"
      "  25,00,00,00\n"
      "\"Multi\"=hex(7):61,00,00,00,62,00,00,00,00,00\n"
      "\"Q\"=hex(b):01,00,00,00,01,00,00,00\n"
      "\"Bin\"=hex:de,ad\n"
      "\"D\"=hex(4):10,00,00,00\n";
  auto reg = parse_registry_export(text, "t.reg");
  EXPECT_TRUE(reg->problems().empty()) << reg->problems().front();
  auto e = reg->value("HKLM\\SOFTWARE\\T", "Expand");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->type, "REG_EXPAND_SZ");
  EXPECT_EQ(e->text, "%Sys%");
  EXPECT_EQ(reg->text("HKLM\\SOFTWARE\\T", "Expand"), "%Sys%");
  EXPECT_EQ(reg->value("HKLM\\SOFTWARE\\T", "Multi")->text, "a\nb");
  EXPECT_EQ(reg->value("HKLM\\SOFTWARE\\T", "Q")->number, 0x100000001ull);
  EXPECT_EQ(reg->value("HKLM\\SOFTWARE\\T", "Bin")->text, "dead");
  EXPECT_EQ(reg->value("HKLM\\SOFTWARE\\T", "D")->number, 16u);
  // REGEDIT4 strings in hex(2) are ANSI bytes.
  auto old = parse_registry_export("REGEDIT4\n\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\T]\n\"E\"=hex(2):41,42,00\n", "o.reg");
  EXPECT_EQ(old->text("HKLM\\SOFTWARE\\T", "E"), "AB");
}

TEST(RegistryExport, Utf16SurrogatePairsAndLoneSurrogates) {
  std::string bytes = "\xFF\xFE";
  auto put = [&](const std::string& ascii) {
    for (char c : ascii) bytes += std::string{c, '\0'};
  };
  put("Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\T]\r\n\"N\"=\"");
  bytes += std::string("\x3D\xD8\x00\xDE", 4);  // U+1F600
  bytes += std::string("\x00\xD8", 2);          // a high surrogate alone
  put("\"\r\n");
  auto reg = parse_registry_export(bytes, "s.reg");
  EXPECT_EQ(reg->text("HKCU\\T", "N"), "\xF0\x9F\x98\x80\xEF\xBF\xBD");
}

TEST(RegistryExport, DeletionsAreSkipped) {
  auto reg = parse_registry_export(
      "Windows Registry Editor Version 5.00\n[-HKEY_CURRENT_USER\\Gone]\n\"x\"=\"1\"\n"
      "[HKEY_CURRENT_USER\\Kept]\n\"y\"=-\n\"z\"=\"2\"\n",
      "d.reg");
  EXPECT_TRUE(reg->problems().empty());
  EXPECT_FALSE(reg->values("HKCU\\Gone", RegistryBits::native64));
  EXPECT_FALSE(reg->value("HKCU\\Kept", "y"));
  EXPECT_EQ(reg->text("HKCU\\Kept", "z"), "2");
}

TEST(RegistryExport, NotAnExportIsAProblemNotAnEmptyMachine) {
  auto reg = parse_registry_export("PK\x03\x04 binary junk", "junk.reg");
  ASSERT_EQ(reg->problems().size(), 1u);
  EXPECT_NE(reg->problems()[0].find("not a registry export"), std::string::npos);
  EXPECT_FALSE(reg->subkeys("HKLM", RegistryBits::native64));
}

TEST(RegistryExport, DamagedLinesAreReportedByNumberAndBounded) {
  std::string text =
      "Windows Registry Editor Version 5.00\n\"orphan\"=\"x\"\n[HKEY_NOWHERE\\X]\n[HKEY_CURRENT_USER\\K]\n";
  text += "\"a\"=dword:xyz\n\"b\"=\"unterminated\n\"c\"=hex(zz):00\n";
  for (int i = 0; i < 40; ++i) text += "garbage line\n";
  text += "[HKEY_CURRENT_USER\\Open\n\"skipped\"=\"1\"\n";
  text += "[HKEY_CURRENT_USER\\After]\n\"ok\"=\"yes\"\n";
  auto reg = parse_registry_export(text, "bad.reg");
  const auto& p = reg->problems();
  ASSERT_EQ(p.size(), Registry::kMaxProblems + 1) << "the first problems and one closing count";
  EXPECT_NE(p[0].find("line 2: a value before any [key]"), std::string::npos) << p[0];
  EXPECT_NE(p[1].find("not a registry hive"), std::string::npos) << p[1];
  EXPECT_NE(p[2].find("dword"), std::string::npos) << p[2];
  EXPECT_NE(p.back().find("problems in all"), std::string::npos) << p.back();
  // Reading goes on after damage; a key whose name is not closed is not read into.
  EXPECT_EQ(reg->text("HKCU\\After", "ok"), "yes");
  EXPECT_FALSE(reg->values("HKCU\\Open", RegistryBits::native64));
}

TEST(RegistryExport, AnOddByteCountAndNulsDoNotCrash) {
  std::string bytes = utf16le(kExport);
  bytes.push_back('\x41');  // a cut file: half a code unit at the end
  bytes.insert(40, std::string(6, '\0'));
  auto reg = parse_registry_export(bytes, "cut.reg");
  EXPECT_TRUE(reg != nullptr);
}

TEST(RegistryExport, MutatedExportsNeverCrash) {
  // A cheap stand-in for the fuzz target (tests/fuzz, registry_export): bytes of a real export
  // flipped, cut and repeated; the parser must return, with or without problems.
  std::mt19937 rng(14);
  const std::string base = utf16le(kExport);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes = round % 2 ? base : std::string(kExport);
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits && !bytes.empty(); ++e) {
      const size_t at = rng() % bytes.size();
      switch (rng() % 4) {
        case 0:
          bytes[at] = static_cast<char>(rng());
          break;
        case 1:
          bytes.erase(at, rng() % 16);
          break;
        case 2:
          bytes.insert(at, bytes.substr(at, rng() % 32));
          break;
        default:
          bytes.resize(at);
          break;
      }
    }
    auto reg = parse_registry_export(bytes, "m.reg");
    ASSERT_NE(reg, nullptr);
    EXPECT_LE(reg->problems().size(), Registry::kMaxProblems + 1);
    (void)reg->subkeys("HKCU\\Software\\Python\\PythonCore", RegistryBits::native64);
  }
}

TEST(RegistryKeys, ShortAndLongRootsAndSeparators) {
  EXPECT_EQ(full_registry_key("HKLM\\Software\\\\x\\"), "HKEY_LOCAL_MACHINE\\Software\\x");
  EXPECT_EQ(full_registry_key("hkcu"), "HKEY_CURRENT_USER");
  EXPECT_EQ(full_registry_key("HKEY_USERS\\S-1"), "HKEY_USERS\\S-1");
  EXPECT_EQ(full_registry_key("C:\\Windows"), "");
}

TEST(RegistryHost, NoLiveRegistryOffWindows) {
#ifdef _WIN32
  GTEST_SKIP() << "a Windows host has a live registry (the wine stage reads it)";
#else
  EXPECT_EQ(open_host_registry(), nullptr);
#endif
}

}  // namespace
}  // namespace gpudoctor
