// `report --html`'s inputs, as a user hands them over: found in review (2026-12-06), a bench report
// whose figure held "12.5" (a string) rendered without that figure and without a word, `"gpus":
// "H100"` dropped the GPU names, and truncated JSON was called "not a JSON object". A field of the
// wrong type is now refused with its path (exit 2), and JSON that does not parse says where.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "model/fleet.hpp"
#include "model/json_codec.hpp"
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

nlohmann::ordered_json fixture_fleet() {
  std::ifstream in(GPUDOCTOR_FIXTURES_DIR "/report-inputs/fleet.json", std::ios::binary);
  return nlohmann::ordered_json::parse(in);
}

testing::RunResult report_with_fleet(const std::string& fleet) {
  return testing::run_gpudoctor(
      {"report", "--html", "-", "--root", GPUDOCTOR_FIXTURES_DIR "/linux-torch-healthy/root", "--fleet", fleet});
}

// Review 43B, 03: a node's `errors: "3"` or `-7` showed as 0 errors, a bench figure "fast" was
// dropped from the table, and a field of `nccl` was named without its `nccl.`.
TEST(ReportInputs, AMistypedFleetNodeFieldIsRefusedWithItsPath) {
  InputDir dir;
  auto good = report_with_fleet(GPUDOCTOR_FIXTURES_DIR "/report-inputs/fleet.json");
  EXPECT_NE(good.exit_code, 2) << "the recorded fleet reads whole: " << good.err;
  const std::string figure = fixture_fleet()["nodes"][0]["bench"]["figures"].begin().key();
  struct Case {
    std::function<void(nlohmann::ordered_json&)> spoil;
    std::string path;
  };
  const Case cases[] = {
      {[](auto& d) { d["nodes"][1]["errors"] = "3"; }, "nodes[1].errors"},
      {[](auto& d) { d["nodes"][1]["errors"] = -7; }, "nodes[1].errors"},
      {[](auto& d) { d["nodes"][2]["warnings"] = 1.5; }, "nodes[2].warnings"},
      {[&](auto& d) { d["nodes"][0]["bench"]["figures"][figure] = "fast"; }, "nodes[0].bench.figures." + figure},
      {[](auto& d) { d["nodes"][0]["nccl"]["busbw_gbps"] = "fast"; }, "nodes[0].nccl.busbw_gbps"},
      {[](auto& d) { d["nccl"]["busbw_gbps"] = "fast"; }, "nccl.busbw_gbps"},
      {[](auto& d) { d["nodes"][3]["verify"] = "passed"; }, "nodes[3].verify"},
  };
  for (const Case& c : cases) {
    auto doc = fixture_fleet();
    c.spoil(doc);
    // The reader names the path (in this process, so the unit tests see the codec itself) ...
    MistypedFields mistyped;
    FleetReport read;
    ASSERT_TRUE(fleet_report_from_json(doc, read)) << c.path;
    EXPECT_EQ(mistyped.paths(), std::vector<std::string>{c.path});
    // ... and the command refuses the file with it.
    auto r = report_with_fleet(dir.write("fleet.json", doc.dump()));
    EXPECT_EQ(r.exit_code, 2) << c.path << ": " << r.err;
    EXPECT_NE(r.err.find(c.path + " does not have the type"), std::string::npos) << c.path << ": " << r.err;
  }
  {
    MistypedFields mistyped;
    FleetReport read;
    ASSERT_TRUE(fleet_report_from_json(fixture_fleet(), read));
    EXPECT_TRUE(mistyped.paths().empty()) << mistyped.paths().front();
  }
  // A count of the right type is no type error (it is counted again from the findings).
  auto doc = fixture_fleet();
  doc["nodes"][1]["errors"] = 5;
  EXPECT_NE(report_with_fleet(dir.write("fleet.json", doc.dump())).exit_code, 2);
  // A negative figure, as for --bench.
  doc = fixture_fleet();
  doc["nodes"][0]["bench"]["figures"][figure] = -5.0;
  auto negative = report_with_fleet(dir.write("fleet.json", doc.dump()));
  EXPECT_EQ(negative.exit_code, 2) << negative.err;
  EXPECT_NE(negative.err.find("nodes[0].bench.figures." + figure + " is no rate"), std::string::npos) << negative.err;
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
