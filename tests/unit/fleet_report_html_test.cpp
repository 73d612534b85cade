// The fleet's newer parts in `report --html --fleet`: every node's verify and bench, the fleet's
// bench figures (median, MAD, outliers), the NCCL all-reduce (bus bandwidth, the slowest link and
// its nodes) and GPU memory health (ECC, retired pages), read back from the fleet JSON
// (model/json_codec's fleet_report_from_json) and rendered, escaped, by render/html_report.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>

#include "check/fleet_compare.hpp"
#include "model/json_codec.hpp"
#include "render/fleet_report.hpp"
#include "render/html_report.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

using nlohmann::ordered_json;

FleetNode ranked_node(const std::string& name, int rank, double gflops) {
  FleetNode n;
  n.name = name;
  n.rank = rank;
  n.facts.driver.version = Version::parse("550.54.15");
  n.facts.gpus.push_back(
      {.name = "NVIDIA H100", .uuid = "GPU-" + name, .ecc_uncorrected_volatile = 0, .retired_pages = 0});
  n.verify = {.ran = true, .status = FleetRunStatus::passed, .detail = "", .figures = {}};
  n.bench = {
      .ran = true, .status = FleetRunStatus::passed, .detail = "", .figures = {{"gpu0.gemm_bf16.tflops", gflops}}};
  n.nccl = {.ran = true,
            .status = FleetRunStatus::passed,
            .detail = "",
            .seconds = 0.01,
            .busbw_gbps = 180,
            .transport = "InfiniBand (NET/IB)",
            .connections = {{"InfiniBand (NET/IB)", 4}, {"NVLink or PCIe peer-to-peer (P2P)", 8}}};
  return n;
}

/// Four nodes as rank 0 holds them, compared by the real comparer: node3's verify failed, its
/// GEMM figure is far below the others', its NCCL went over sockets; node1's GPU has ECC errors
/// and retired pages; node2 never reported.
FleetReport sample_fleet(const std::string& odd = "node3") {
  FleetReport r;
  r.ranks = 5;
  r.nodes = {ranked_node("node0", 0, 700), ranked_node("node1", 1, 702), ranked_node("node2", 2, 698),
             ranked_node(odd, 3, 350)};
  r.nodes[1].facts.gpus[0].ecc_uncorrected_volatile = 7;
  r.nodes[1].facts.gpus[0].retired_pages = 3;
  r.nodes[3].verify = {.ran = true,
                       .status = FleetRunStatus::failed,
                       .detail = "kernel on GPU 0 failed: wrong result at 17",
                       .figures = {}};
  r.nodes[3].nccl.transport = "sockets (NET/Socket)";
  r.nodes[3].nccl.busbw_gbps = 11.5;
  r.nodes[3].findings.push_back(
      {.id = "driver-old", .severity = Severity::error, .title = "The driver is too old", .fix = "Install 580"});
  FleetNode silent;
  silent.name = "node4";
  silent.rank = 4;
  silent.status = NodeStatus::no_report;
  silent.error = "nothing within the deadline";
  r.nodes.push_back(silent);
  r.nccl = {.ran = true, .status = FleetRunStatus::passed, .detail = "", .gpus = 4, .bytes = 64LL << 20};
  compare_fleet(r);
  return r;
}

std::string html_of(const FleetReport& fleet) {
  Facts facts;
  std::vector<Finding> findings;
  return render_doctor_html({.facts = facts, .findings = findings, .fleet = &fleet});
}

TEST(FleetReportHtml, TheFleetJsonReadsBackWhole) {
  FleetReport r = sample_fleet();
  ASSERT_EQ(r.nccl.slowest_transport, "sockets (NET/Socket)");
  ASSERT_FALSE(r.bench.empty());
  std::string first = render_fleet_json(r);
  auto doc = ordered_json::parse(first);
  // Memory health is in each node's entry, where NVML knew it.
  ASSERT_EQ(doc["nodes"][1]["gpu_memory"][0]["ecc_uncorrected_volatile"], 7);
  ASSERT_EQ(doc["nodes"][1]["gpu_memory"][0]["retired_pages"], 3);
  FleetReport back;
  ASSERT_TRUE(fleet_report_from_json(doc, back));
  EXPECT_EQ(render_fleet_json(back), first);
  EXPECT_EQ(back.nodes[3].verify.detail, r.nodes[3].verify.detail);
  EXPECT_EQ(back.nodes[3].nccl.connections, r.nodes[3].nccl.connections);
  EXPECT_EQ(back.nodes[0].bench.figures, r.nodes[0].bench.figures);
  EXPECT_EQ(back.nodes[3].findings.size(), 1u) << "a node's errors come back from the collapsed findings";
  // Not a fleet report: refused, the output untouched.
  EXPECT_FALSE(fleet_report_from_json(ordered_json::parse(R"({"facts": {}, "findings": []})"), back));
  EXPECT_FALSE(fleet_report_from_json(ordered_json::array(), back));
  EXPECT_EQ(back.nodes.size(), 5u);
  // Junk values are skipped, not thrown on.
  auto junk = ordered_json::parse(
      R"({"nodes": [7, {"node": 3, "verify": "x", "nccl": [], "gpu_memory": [{"gpu": 1e30}, {"gpu": -1}]}],
          "bench": [{"key": null, "median": "x"}], "nccl": {"gpus": "all"}})");
  FleetReport j;
  ASSERT_TRUE(fleet_report_from_json(junk, j));
  ASSERT_EQ(j.nodes.size(), 1u);
  EXPECT_TRUE(j.nodes[0].facts.gpus.empty());
  EXPECT_FALSE(j.nodes[0].verify.ran);
}

TEST(FleetReportHtml, VerifyBenchNcclAndEccAreInThePage) {
  // Rendered from the JSON read back, as `report --html --fleet` does.
  FleetReport back;
  ASSERT_TRUE(fleet_report_from_json(ordered_json::parse(render_fleet_json(sample_fleet())), back));
  std::string html = html_of(back);
  for (const char* want :
       {// every node's verify, the failed one with its reason
        "verify --quick", "failed: kernel on GPU 0 failed: wrong result at 17",
        // the fleet's bench figures: median, MAD, the outlier named
        "Benchmark figures across the nodes", "gpu0.gemm_bf16.tflops", "<td class=\"num\">699</td>",
        "<td class=\"num\">2</td>", "chart-fleet-bench-0",
        // the all-reduce: bus bandwidth, slowest link and its node
        "NCCL all-reduce across the fleet", "11.5 GB/s", "sockets (NET&#x2F;Socket)", "chart-fleet-nccl",
        // memory health
        "GPU memory health (ECC)", "<td class=\"num\">7</td><td class=\"num\">3</td>",
        // who did not report, and the collapsed findings
        "node4</strong> (rank 4, no-report)", "The driver is too old"}) {
    EXPECT_NE(html.find(want), std::string::npos) << want;
  }
  // The odd node's GEMM row is marked as an outlier, in the table and the chart.
  EXPECT_TRUE(std::regex_search(
      html, std::regex(R"(<tr class="outlier"><th scope="row">gpu0\.gemm_bf16\.tflops</th>[^\n]*node3)")))
      << "the bench figure's outlier is not named in its row";
  EXPECT_NE(html.find("class=\"bar outlier\""), std::string::npos);
  // Without verify, bench or NCCL the node table has no such columns and no such sections.
  FleetReport plain = sample_fleet();
  for (auto& n : plain.nodes) {
    n.verify = FleetRun{};
    n.bench = FleetRun{};
    n.nccl = FleetNcclRun{};
  }
  plain.bench.clear();
  plain.nccl = FleetNccl{};
  std::string bare = html_of(plain);
  EXPECT_EQ(bare.find("verify --quick"), std::string::npos);
  EXPECT_EQ(bare.find("NCCL all-reduce"), std::string::npos);
  EXPECT_EQ(bare.find("Benchmark figures across"), std::string::npos);
}

TEST(FleetReportHtml, HostileNodeStringsStayText) {
  const std::string attack = "\"><script>alert(1)</script><img src=x onerror=alert(2)>{{#x}}\x1b]0;pwn\x07\xff";
  FleetReport r = sample_fleet(attack);
  r.nodes[3].verify.detail = attack;
  r.nodes[3].nccl.transport = attack;
  r.nodes[3].bench.figures.emplace_back(attack, 1.0);
  r.nodes[1].facts.gpus[0].name = attack;
  r.nodes[4].error = attack;
  r.nccl.detail = attack;
  r.nccl.slowest_transport_nodes = {attack};
  r.bench.push_back({.key = attack, .nodes = 1});
  r.outliers.push_back({attack, "bench " + attack + " far"});
  // Through the JSON and back, as a hostile node's text would come.
  FleetReport back;
  ASSERT_TRUE(fleet_report_from_json(ordered_json::parse(render_fleet_json(r), nullptr, false), back));
  std::string html = html_of(back);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find('\x1b'), std::string::npos);
  EXPECT_EQ(html.find('\x07'), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;&#x2F;script&gt;"), std::string::npos);
  size_t escaped = 0;
  for (size_t at = html.find("&lt;img src=x onerror=alert(2)&gt;"); at != std::string::npos;
       at = html.find("&lt;img src=x onerror=alert(2)&gt;", at + 1))
    ++escaped;
  EXPECT_GE(escaped, 8u) << "the hostile strings are not all in the page, escaped";
}

// The real command on the fixture fleet (a real 4-rank run): the page has the fleet's parts; a
// fleet report given as a doctor report, and JSON that is no fleet report, are refused saying so.
TEST(FleetReportHtml, ReportCommandReadsTheFleetJson) {
  const std::string fleet = GPUDOCTOR_FIXTURES_DIR "/report-inputs/fleet.json";
  const std::string root = GPUDOCTOR_FIXTURES_DIR "/linux-torch-healthy/root";
  auto r = testing::run_gpudoctor({"report", "--html", "-", "--root", root, "--fleet", fleet});
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  EXPECT_NE(r.out.find("NCCL all-reduce across the fleet"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("GPU memory health (ECC)"), std::string::npos);
  auto wrong = testing::run_gpudoctor({"report", "--html", "-", "--from-json", fleet});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.err.find("a fleet report: give it with --fleet"), std::string::npos) << wrong.err;
  auto not_fleet = testing::run_gpudoctor(
      {"report", "--html", "-", "--root", root, "--fleet", GPUDOCTOR_FIXTURES_DIR "/report-inputs/bench.json"});
  EXPECT_EQ(not_fleet.exit_code, 2);
  EXPECT_NE(not_fleet.err.find("not a gpudoctor fleet --json report"), std::string::npos) << not_fleet.err;
}

// A 0.9 MB document of 20,000 nodes each naming GPU 1023 would make 20 million GpuFacts (6 GB):
// refused before reading, as is one of more nodes than any fleet has. A real fleet's size reads.
TEST(FleetReportHtml, ADocumentThatWouldMakeGigabytesIsRefused) {
  ordered_json doc = {{"nodes", ordered_json::array()}};
  for (int i = 0; i < 20000; ++i) doc["nodes"].push_back({{"gpu_memory", {{{"gpu", 1023}}}}});
  FleetReport r;
  EXPECT_FALSE(fleet_report_from_json(doc, r));
  ordered_json many = {{"nodes", ordered_json::array()}};
  for (int i = 0; i < 65537; ++i) many["nodes"].push_back(ordered_json::object());
  EXPECT_FALSE(fleet_report_from_json(many, r));
  ordered_json real = {{"nodes", ordered_json::array()}};
  for (int i = 0; i < 4096; ++i) real["nodes"].push_back({{"gpu_memory", {{{"gpu", 7}, {"retired_pages", 0}}}}});
  ASSERT_TRUE(fleet_report_from_json(real, r));
  EXPECT_EQ(r.nodes.size(), 4096u);
  EXPECT_EQ(r.nodes[4095].facts.gpus.size(), 8u);
}

// The recorded fleet JSON (written before the codec's describe() lists took over the fleet
// types) reads back and is written again key for key, in the same order: the JSON a script reads did not move.
TEST(FleetReportHtml, TheRecordedFleetJsonIsWrittenAgainKeyForKey) {
  std::ifstream in(GPUDOCTOR_FIXTURES_DIR "/report-inputs/fleet.json", std::ios::binary);
  std::string recorded((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(recorded.empty());
  FleetReport back;
  ASSERT_TRUE(fleet_report_from_json(ordered_json::parse(recorded), back));
  auto again = ordered_json::parse(render_fleet_json(back));
  auto want = ordered_json::parse(recorded);
  again.erase("tool");  // this build's version
  want.erase("tool");
  EXPECT_EQ(again.dump(2), want.dump(2));
}

}  // namespace
}  // namespace gpudoctor
