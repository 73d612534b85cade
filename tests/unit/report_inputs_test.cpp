// `report --html`'s inputs, as a user hands them over: found in review (2026-12-06), a bench report
// whose figure held "12.5" (a string) rendered without that figure and without a word, `"gpus":
// "H100"` dropped the GPU names, and truncated JSON was called "not a JSON object". A field of the
// wrong type is now refused with its path (exit 2), and JSON that does not parse says where.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

struct InputDir {
  std::filesystem::path path;
  InputDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gpudoctor-report-XXXXXX").string();
    path = ::mkdtemp(pattern.data()) != nullptr ? pattern : "";
  }
  ~InputDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream out(path / name, std::ios::binary);
    out << text;
    return (path / name).string();
  }
};

nlohmann::ordered_json fixture_bench() {
  std::ifstream in(GPUDOCTOR_FIXTURES_DIR "/report-inputs/bench.json", std::ios::binary);
  return nlohmann::ordered_json::parse(in);
}

testing::RunResult report_with_bench(const std::string& bench) {
  return testing::run_gpudoctor(
      {"report", "--html", "-", "--root", GPUDOCTOR_FIXTURES_DIR "/linux-torch-healthy/root", "--bench", bench});
}

TEST(ReportInputs, AFigureOfTheWrongTypeIsRefusedWithItsPath) {
  InputDir dir;
  auto doc = fixture_bench();
  doc["measurements"][2]["value"] = "12.5";
  auto r = report_with_bench(dir.write("bench.json", doc.dump()));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("measurements[2].value"), std::string::npos) << r.err;
  // The fixture itself reads whole.
  auto good = report_with_bench(GPUDOCTOR_FIXTURES_DIR "/report-inputs/bench.json");
  EXPECT_NE(good.exit_code, 2) << good.err;
}

TEST(ReportInputs, AListElementThatIsNoFigureIsRefused) {
  InputDir dir;
  auto doc = fixture_bench();
  doc["measurements"][1] = "cpu.conv_fp32: fast";
  auto r = report_with_bench(dir.write("bench.json", doc.dump()));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("measurements[1]"), std::string::npos) << r.err;
}

TEST(ReportInputs, AListGivenAsAStringIsRefused) {
  InputDir dir;
  auto doc = fixture_bench();
  doc["gpus"] = "H100";
  auto r = report_with_bench(dir.write("bench.json", doc.dump()));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("gpus"), std::string::npos) << r.err;
}

TEST(ReportInputs, AFigureNoMachineReachesIsRefused) {
  InputDir dir;
  for (double absurd : {1e308, -5.0}) {
    auto doc = fixture_bench();
    doc["measurements"][0]["value"] = absurd;
    auto r = report_with_bench(dir.write("bench.json", doc.dump()));
    EXPECT_EQ(r.exit_code, 2) << absurd << r.err;
    EXPECT_NE(r.err.find("measurements[0].value"), std::string::npos) << r.err;
  }
}

TEST(ReportInputs, JsonThatDoesNotParseSaysWhere) {
  InputDir dir;
  const std::string text = fixture_bench().dump();
  auto r = report_with_bench(dir.write("half.json", text.substr(0, text.size() / 2)));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not valid JSON"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("byte"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
  auto array = report_with_bench(dir.write("array.json", "[1, 2]"));
  EXPECT_EQ(array.exit_code, 2);
  EXPECT_NE(array.err.find("not a JSON object"), std::string::npos) << array.err;
}

}  // namespace
}  // namespace gpudoctor
