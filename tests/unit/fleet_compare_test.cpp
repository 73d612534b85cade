// The fleet without MPI: fingerprints, groups, differences, collapsed findings and outliers
// (check/fleet_compare.hpp), the node's message to rank 0 and back (cli/fleet_node.hpp), and the
// fleet JSON as the HTML report reads it. scripts/fleet-check.sh runs the same under mpirun.
#include "check/fleet_compare.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/fleet_node.hpp"
#include "model/json_codec.hpp"
#include "render/fleet_report.hpp"
#include "render/html_report.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

FleetNode node(const std::string& name, const std::string& driver, int gpus = 2) {
  FleetNode n;
  n.name = name;
  n.facts.driver.version = Version::parse(driver);
  for (int i = 0; i < gpus; ++i) n.facts.gpus.push_back({.name = "NVIDIA H200"});
  n.facts.libraries.push_back({.name = "cudnn", .version = Version::parse("9.1.0")});
  n.findings.push_back({.id = "nccl-socket", .severity = Severity::warning, .title = "NCCL falls back to sockets"});
  return n;
}

TEST(FleetCompare, TheOddNodeOutIsNamedWithWhatDiffers) {
  FleetReport r;
  for (int i = 0; i < 3; ++i) r.nodes.push_back(node("n" + std::to_string(i), "580.95.05"));
  r.nodes.push_back(node("n3", "570.86.10"));
  r.nodes[3].findings.push_back({.id = "driver-old", .severity = Severity::error, .title = "Driver too old"});
  compare_fleet(r);
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[0].nodes, (std::vector<std::string>{"n0", "n1", "n2"}));
  EXPECT_FALSE(r.groups[0].outlier);
  EXPECT_EQ(r.groups[1].nodes, std::vector<std::string>{"n3"});
  EXPECT_TRUE(r.groups[1].outlier);
  EXPECT_EQ(r.nodes[0].group, "A");
  EXPECT_EQ(r.nodes[3].group, "B") << "each node knows its group (the JSON's nodes[].group)";
  ASSERT_EQ(r.differences.size(), 1u);
  EXPECT_EQ(r.differences[0].key, "driver");
  EXPECT_EQ(r.differences[0].values, (std::vector<std::string>{"580.95.05", "570.86.10"}));
  ASSERT_EQ(r.outliers.size(), 1u);
  EXPECT_EQ(r.outliers[0].node, "n3");
  EXPECT_NE(r.outliers[0].reason.find("driver 570.86.10 (the other 3 node(s): 580.95.05)"), std::string::npos);
  // The same warning on all four nodes is one line; the error comes first.
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].id, "driver-old");
  EXPECT_EQ(r.findings[1].nodes.size(), 4u);
  std::string text = render_fleet_text(r);
  EXPECT_NE(text.find("all 4 nodes"), std::string::npos) << text;
  EXPECT_NE(text.find("Group B (1 node(s), outlier): n3"), std::string::npos) << text;
}

TEST(FleetCompare, WithoutAMajorityNobodyIsAnOutlierButAMissingGpuIs) {
  FleetReport r;
  r.nodes = {node("a", "580.95.05"), node("b", "580.95.05"), node("c", "570.86.10"), node("d", "570.86.10"),
             node("e", "580.95.05", 1)};
  compare_fleet(r);
  ASSERT_EQ(r.groups.size(), 3u);
  for (const auto& g : r.groups) EXPECT_FALSE(g.outlier) << g.id;
  ASSERT_EQ(r.outliers.size(), 1u);
  EXPECT_EQ(r.outliers[0].node, "e");
  EXPECT_NE(r.outliers[0].reason.find("1 GPU(s) where most nodes have 2"), std::string::npos);
}

// An even split is no majority: with two nodes on each driver neither half is "the odd one out"
// (the mutation run's survivor `fleet-majority-half`: `>=` instead of `>` for "most").
TEST(FleetCompare, AnEvenSplitHasNoOutlierGroup) {
  FleetReport r;
  r.nodes = {node("a", "580.95.05"), node("b", "580.95.05"), node("c", "570.86.10"), node("d", "570.86.10")};
  compare_fleet(r);
  ASSERT_EQ(r.groups.size(), 2u);
  for (const auto& g : r.groups) EXPECT_FALSE(g.outlier) << g.id;
  EXPECT_TRUE(r.outliers.empty()) << r.outliers.front().node << ": " << r.outliers.front().reason;
  ASSERT_EQ(r.differences.size(), 1u);
  EXPECT_EQ(r.differences[0].key, "driver");
}

// Review 43B, 02: the fingerprint took the knowledge base's name, "NVIDIA H100" for the SXM5, PCIe
// and NVL boards alike, so a PCIe node among SXM nodes was "the same fingerprint".
TEST(FleetCompare, AnotherBoardOfTheSameModelIsAnotherGroup) {
  auto h100 = [](const std::string& name, const std::string& board, const std::string& device) {
    FleetNode n = node(name, "580.95.05");
    for (auto& g : n.facts.gpus)
      g = {.name = board, .source = "nvml", .pci_device_id = device, .kb_name = "NVIDIA H100"};
    return n;
  };
  FleetReport r;
  for (int i = 0; i < 3; ++i) r.nodes.push_back(h100("sxm" + std::to_string(i), "NVIDIA H100 80GB HBM3", "2330"));
  r.nodes.push_back(h100("pcie", "NVIDIA H100 PCIe", "2331"));
  compare_fleet(r);
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[1].nodes, std::vector<std::string>{"pcie"});
  EXPECT_TRUE(r.groups[1].outlier);
  ASSERT_EQ(r.differences.size(), 1u);
  EXPECT_EQ(r.differences[0].key, "GPUs");
  EXPECT_EQ(r.differences[0].values, (std::vector<std::string>{"2 × NVIDIA H100 80GB HBM3", "2 × NVIDIA H100 PCIe"}));
  // Near miss: the same board on every node is one group.
  r.nodes[3] = h100("sxm3", "NVIDIA H100 80GB HBM3", "2330");
  compare_fleet(r);
  EXPECT_EQ(r.groups.size(), 1u);
  // Without NVML the PCI database's name, which can be the chip alone, goes with its device id.
  FleetReport pci;
  for (const char* device : {"2302", "2302", "2302", "2321"}) {
    FleetNode n = node(std::string("n") + device + std::to_string(pci.nodes.size()), "580.95.05");
    for (auto& g : n.facts.gpus)
      g = {.name = "GH100", .source = "pci", .pci_device_id = device, .kb_name = "NVIDIA H100"};
    pci.nodes.push_back(n);
  }
  compare_fleet(pci);
  ASSERT_EQ(pci.groups.size(), 2u);
  EXPECT_EQ(pci.groups[0].print[0].second, "2 × GH100 (PCI device 2302)");
}

// Review 43B, 06: a node whose NVML hung on its second GPU was "a GPU is missing", which sends
// the admin to reseat a card; its doctor knew NVML counted two and which one did not answer.
TEST(FleetCompare, AGpuWhoseNvmlQueryHungIsNotCalledMissing) {
  FleetReport r;
  for (int i = 0; i < 3; ++i) r.nodes.push_back(node("n" + std::to_string(i), "580.95.05"));
  FleetNode hung = node("hung", "580.95.05", 1);
  hung.facts.driver.nvml_status = LibraryStatus::timeout;
  hung.facts.driver.nvml_device_count = 2;
  hung.facts.driver.nvml_stopped_on_device = 1;
  r.nodes.push_back(hung);
  compare_fleet(r);
  std::string reasons;
  for (const auto& o : r.outliers) reasons += o.node + ": " + o.reason + "\n";
  EXPECT_EQ(reasons.find("a GPU is missing"), std::string::npos) << reasons;
  EXPECT_NE(reasons.find("hung: 1 GPU(s) described where most nodes have 2: NVML counted 2 and hung on device 1, so a "
                         "GPU did not answer"),
            std::string::npos)
      << reasons;
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[1].print[0].second, "1 × NVIDIA H200, 1 × not answering (NVML hung on device 1)");
  // On Linux the doctor lists the GPU NVML stopped on from the driver's files all the same: still
  // not answering, not a second model (the re-read, session 43).
  r.nodes[3].facts.gpus.push_back({.name = "GH100", .source = "proc"});
  compare_fleet(r);
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[1].print[0].second, "1 × NVIDIA H200, 1 × not answering (NVML hung on device 1)");
  reasons.clear();
  for (const auto& o : r.outliers) reasons += o.node + ": " + o.reason + "\n";
  EXPECT_NE(reasons.find("hung: 1 GPU(s) described where most nodes have 2: NVML counted 2"), std::string::npos)
      << reasons;
  r.nodes[3].facts.gpus.pop_back();
  // A crash says so.
  r.nodes[3].facts.driver.nvml_status = LibraryStatus::crashed;
  compare_fleet(r);
  EXPECT_EQ(r.groups[1].print[0].second, "1 × NVIDIA H200, 1 × not answering (NVML crashed on device 1)");
  // NVML that ended otherwise without describing every GPU it counted is neither.
  r.nodes[3].facts.driver.nvml_status = LibraryStatus::ok;
  compare_fleet(r);
  EXPECT_EQ(r.groups[1].print[0].second, "1 × NVIDIA H200, 1 × not answering (NVML failed on device 1)");
  // Near misses: NVML counting only one is a GPU missing, as is a node whose doctor did not say.
  r.nodes[3].facts.driver.nvml_device_count = 1;
  compare_fleet(r);
  ASSERT_EQ(r.outliers.size(), 2u);
  EXPECT_NE(r.outliers[1].reason.find("1 GPU(s) where most nodes have 2: a GPU is missing"), std::string::npos)
      << r.outliers[1].reason;
  r.nodes[3].facts.driver.nvml_device_count.reset();
  compare_fleet(r);
  EXPECT_NE(r.outliers[1].reason.find("a GPU is missing"), std::string::npos) << r.outliers[1].reason;
}

TEST(FleetCompare, AnEnvironmentVariableSetOnOneNodeIsADifference) {
  FleetReport r;
  r.nodes = {node("a", "580.95.05"), node("b", "580.95.05"), node("c", "580.95.05")};
  r.nodes[2].facts.env.push_back({"NCCL_P2P_DISABLE", "1"});
  compare_fleet(r);
  ASSERT_EQ(r.differences.size(), 1u);
  EXPECT_EQ(r.differences[0].key, "env NCCL_P2P_DISABLE");
  EXPECT_EQ(r.differences[0].values, (std::vector<std::string>{"unset", "1"}));
}

TEST(FleetNode, MessagesReadBackOrSayWhyNot) {
  NodeDoctorRun run{.gpudoctor = GPUDOCTOR_BINARY,
                    .args = {"--root", GPUDOCTOR_FIXTURES_DIR "/linux-torch-healthy/root", "--env-file",
                             GPUDOCTOR_FIXTURES_DIR "/linux-torch-healthy/env"},
                    .node = "gpu07",
                    .rank = 5};
  FleetNode ok = fleet_node_from_message(run_node_doctor(run), 5);
  EXPECT_EQ(ok.status, NodeStatus::ok) << ok.error;
  EXPECT_EQ(ok.name, "gpu07");
  ASSERT_EQ(ok.facts.gpus.size(), 1u);
  EXPECT_EQ(ok.facts.driver.version->str(), "550.54.14");
  run.command = {"/bin/sh", "-c", "kill -SEGV $$"};
  FleetNode crashed = fleet_node_from_message(run_node_doctor(run), 5);
  EXPECT_EQ(crashed.status, NodeStatus::crashed);
  run.command = {"/bin/sh", "-c", "echo not json"};
  EXPECT_EQ(fleet_node_from_message(run_node_doctor(run), 5).status, NodeStatus::failed);
  FleetNode junk = fleet_node_from_message("\x01garbage", 9);
  EXPECT_EQ(junk.status, NodeStatus::failed);
  EXPECT_EQ(junk.name, "rank 9");
  EXPECT_EQ(fleet_node_from_message(R"({"node":"x","status":"ok"})", 1).status, NodeStatus::failed)
      << "ok without a report";
  EXPECT_EQ(per_rank_path("/srv/rank{}/root{}", 12), "/srv/rank12/root12");
}

TEST(FleetNode, TheFleetJsonIsWhatTheHtmlReportShows) {
  FleetReport r;
  r.ranks = 4;
  for (int i = 0; i < 3; ++i) r.nodes.push_back(node("n" + std::to_string(i), "580.95.05"));
  r.nodes.push_back(node("n3", "570.86.10"));
  FleetNode silent;
  silent.name = "rank 4";
  silent.rank = 4;
  silent.status = NodeStatus::no_report;
  silent.error = "rank 4 sent no report within 120 s";
  r.nodes.push_back(silent);
  compare_fleet(r);
  auto doc = nlohmann::ordered_json::parse(render_fleet_json(r));
  EXPECT_EQ(doc["node_count"], 5);
  EXPECT_EQ(doc["missing"].size(), 1u);
  // Statuses are enums in the model and names in the document, never numbers.
  EXPECT_EQ(doc["missing"][0]["status"], "no-report") << doc["missing"].dump();
  EXPECT_EQ(doc["nodes"][4]["status"], "no-report");
  EXPECT_EQ(doc["nodes"][0]["status"], "ok");
  FleetReport back;
  ASSERT_TRUE(fleet_report_from_json(doc, back));
  Facts facts;
  std::vector<Finding> findings;
  std::string html = render_doctor_html({.facts = facts, .findings = findings, .fleet = &back});
  EXPECT_NE(html.find("<h2 id=\"fleet-h\">Fleet</h2>"), std::string::npos);
  EXPECT_NE(html.find("<th scope=\"row\">driver</th><td>580.95.05</td><td>570.86.10</td>"), std::string::npos);
  EXPECT_NE(html.find("<strong>rank 4</strong> (rank 4, no-report): rank 4 sent no report within 120 s"),
            std::string::npos);
  EXPECT_NE(html.find("<title id=\"chart-fleet-t\">Nodes per fingerprint group</title>"), std::string::npos);
}

// A report rank 0 printed when the job was ended under it (a rank process died; mpirun then ends
// every rank): it says so first, in the text, the JSON and the HTML read back from it, so that it
// is never taken for a finished run with fewer nodes.
TEST(FleetNode, AReportOfAnEndedJobSaysSoEverywhere) {
  FleetReport r;
  r.ranks = 3;
  r.nodes.push_back(node("n0", "580.95.05"));
  r.nodes.push_back(node("n1", "580.95.05"));
  FleetNode gone;
  gone.name = "rank 2";
  gone.rank = 2;
  gone.status = NodeStatus::no_report;
  gone.error = "rank 2 had not reported when the job was ended";
  r.nodes.push_back(gone);
  r.incomplete = "The job was ended before every node had reported.";
  compare_fleet(r);
  const std::string text = render_fleet_text(r);
  EXPECT_EQ(text.find("Incomplete: The job was ended before every node had reported."), text.find('\n') + 1) << text;
  auto doc = nlohmann::ordered_json::parse(render_fleet_json(r));
  EXPECT_EQ(doc["incomplete"], r.incomplete) << doc.dump();
  FleetReport back;
  ASSERT_TRUE(fleet_report_from_json(doc, back));
  EXPECT_EQ(back.incomplete, r.incomplete);
  Facts facts;
  std::vector<Finding> findings;
  const std::string html = render_doctor_html({.facts = facts, .findings = findings, .fleet = &back});
  EXPECT_NE(html.find("<p class=\"error\"><strong>Incomplete:</strong> The job was ended before every node had "
                      "reported.</p>"),
            std::string::npos);
  // A finished run has no such key or line.
  r.incomplete.clear();
  EXPECT_FALSE(nlohmann::ordered_json::parse(render_fleet_json(r)).contains("incomplete"));
  EXPECT_EQ(render_fleet_text(r).find("Incomplete:"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// gpudoctor itself links no MPI: where no gpudoctor-fleet was built beside it, `fleet` says so.
TEST(FleetNode, FleetCommandWithoutGpudoctorFleetSaysWhy) {
  namespace fs = std::filesystem;
  fs::path scratch = fs::temp_directory_path() / ("gpudoctor-no-fleet-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  fs::copy_file(GPUDOCTOR_BINARY, scratch / "gpudoctor");
  auto r = testing::run_command({(scratch / "gpudoctor").string(), "fleet", "--json"});
  fs::remove_all(scratch);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("gpudoctor-fleet is not installed beside gpudoctor"), std::string::npos) << r.err;
  auto ldd = testing::run_shell(std::string("ldd ") + GPUDOCTOR_BINARY);
  EXPECT_EQ(ldd.out.find("libmpi"), std::string::npos) << ldd.out;
}

}  // namespace
}  // namespace gpudoctor
