// The fleet's other inputs, without MPI or a network: a hosts file for `fleet --from` and what a
// serve endpoint answered (cli/fleet_node.hpp), each node's verify and bench as rank 0 reads
// them, and the outliers they make (check/fleet_compare.hpp): ECC errors and retired pages, a
// failed verify, a benchmark figure far from the fleet's median. scripts/fleet-from-check.sh
// runs `fleet --from` against real serve processes; scripts/fleet-check.sh runs the rest
// under mpirun.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "check/fleet_compare.hpp"
#include "cli/fleet_node.hpp"
#include "model/json_codec.hpp"
#include "render/fleet_report.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

FleetNode healthy(const std::string& name) {
  FleetNode n;
  n.name = name;
  n.facts.driver.version = Version::parse("550.54.15");
  n.facts.gpus.push_back({.name = "NVIDIA H100", .uuid = "GPU-a", .ecc_uncorrected_volatile = 0, .retired_pages = 0});
  n.facts.gpus.push_back({.name = "NVIDIA H100", .uuid = "GPU-b", .ecc_uncorrected_volatile = 0, .retired_pages = 0});
  return n;
}

bool named(const FleetReport& r, const std::string& node, const std::string& words) {
  for (const auto& o : r.outliers) {
    if (o.node == node && o.reason.find(words) != std::string::npos) return true;
  }
  return false;
}

TEST(FleetHosts, AHostsFileReadsEndpointsAndRefusesTheRest) {
  auto hosts = parse_fleet_hosts(
      "# the rack\n"
      "gpu01\n"
      "  gpu02:9500   # a comment\n"
      "\n"
      "http://10.0.0.3:9401/\n"
      "[::1]:9402\n"
      "gpu01\n");
  ASSERT_TRUE(hosts) << hosts.error().message;
  ASSERT_EQ(hosts->size(), 4u) << "gpu01 twice counts once";
  EXPECT_EQ((*hosts)[0].host, "gpu01");
  EXPECT_EQ((*hosts)[0].port, 9400) << "serve's default port";
  EXPECT_EQ((*hosts)[1].name, "gpu02:9500");
  EXPECT_EQ((*hosts)[1].port, 9500);
  EXPECT_EQ((*hosts)[2].host, "10.0.0.3");
  EXPECT_EQ((*hosts)[2].port, 9401);
  EXPECT_EQ((*hosts)[3].host, "::1");
  EXPECT_EQ((*hosts)[3].port, 9402);
  for (const char* bad : {"gpu01:0\n", "gpu01:99999\n", "gpu01:x\n", "user@gpu01\n", "gpu01/metrics?x\n", "[::1\n",
                          "https://gpu01\n", "gpu 01\n"}) {
    auto r = parse_fleet_hosts(std::string("ok\n") + bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("line 2"), std::string::npos) << r.error().message;
  }
  EXPECT_TRUE(parse_fleet_hosts("# nothing\n\n")->empty());
  EXPECT_FALSE(parse_fleet_hosts(std::string(kMaxFleetHostsFileBytes + 1, 'a')));
}

TEST(FleetHosts, AnAnswerIsAReportOrSaysWhyNot) {
  auto doctor = testing::run_gpudoctor({"--root", GPUDOCTOR_FIXTURES_DIR "/linux-torch-healthy/root", "--env-file",
                                        GPUDOCTOR_FIXTURES_DIR "/linux-torch-healthy/env", "doctor", "--json"});
  FleetNode ok = fleet_node_from_report_json("gpu07:9400", 3, doctor.out);
  EXPECT_EQ(ok.status, NodeStatus::ok) << ok.error;
  EXPECT_EQ(ok.name, "gpu07:9400");
  EXPECT_EQ(ok.rank, 3);
  ASSERT_EQ(ok.facts.gpus.size(), 1u);
  FleetNode garbage = fleet_node_from_report_json("gpu08", 4, "<html>\x1b[31m{{{");
  EXPECT_EQ(garbage.status, NodeStatus::failed);
  EXPECT_NE(garbage.error.find("not JSON"), std::string::npos) << garbage.error;
  EXPECT_EQ(garbage.error.find('\x1b'), std::string::npos) << "the answer's bytes are shown printable";
  EXPECT_EQ(fleet_node_from_report_json("gpu09", 5, R"({"facts": 1, "findings": []})").status, NodeStatus::failed);
  EXPECT_EQ(fleet_node_from_report_json("gpu09", 5, "[1,2,3]").status, NodeStatus::failed);
  EXPECT_EQ(fleet_node_from_report_json("gpu09", 5, std::string(100000, '[')).status, NodeStatus::failed);
}

// Review 43B, 01: serve's /report.json carried the facts but no findings (the findings were moved
// into the cache before the JSON was rendered from them), so `fleet --from` showed a node whose
// doctor has three errors as clean and exited 0. The real serve and the real fleet, on loopback.
TEST(FleetSources, ServesReportHoldsTheDoctorsFindingsAndFleetFromSeesThem) {
  const std::string fixture = GPUDOCTOR_FIXTURES_DIR "/linux-driver-too-old";
  auto doctor =
      testing::run_gpudoctor({"--root", fixture + "/root", "--env-file", fixture + "/env", "doctor", "--json"});
  ASSERT_EQ(doctor.exit_code, 1) << doctor.err;
  const std::string g = testing::shell_quote(testing::gpudoctor_binary());
  auto run = testing::run_shell(
      "d=$(mktemp -d); " + g + " --root " + testing::shell_quote(fixture + "/root") + " --env-file " +
      testing::shell_quote(fixture + "/env") +
      " serve --listen 127.0.0.1:0 --interval 5 --report-interval 3600 >$d/out 2>$d/err & p=$!; "
      "for i in $(seq 300); do grep -q 'listening on' $d/out 2>/dev/null && break; sleep 0.1; done; "
      "sed -n 's|.*listening on http://\\([^ ]*\\)/metrics|\\1|p' $d/out >$d/hosts; cat $d/err >&2; " +
      g + " fleet --from $d/hosts --host-deadline 40 --json; echo \"fleet-rc=$?\" >&2; kill $p; wait $p; rm -rf $d");
  if (run.err.find("not in the build") != std::string::npos) GTEST_SKIP() << "no HTTP server in this build";
  ASSERT_TRUE(run.json.is_object()) << run.out << run.err;
  EXPECT_NE(run.err.find("fleet-rc=1"), std::string::npos) << "a node with an error-level finding: " << run.err;
  ASSERT_EQ(run.json["nodes"].size(), 1u);
  EXPECT_EQ(run.json["nodes"][0]["status"], "ok") << run.json["nodes"][0];
  EXPECT_EQ(run.json["nodes"][0]["errors"], doctor.json["summary"]["errors"]);
  EXPECT_EQ(run.json["nodes"][0]["warnings"], doctor.json["summary"]["warnings"]);
  bool driver_error = false;
  for (const auto& f : run.json["findings"])
    driver_error |= f["severity"] == "error" && f["id"] == "driver-too-old-for-framework";
  EXPECT_TRUE(driver_error) << run.json["findings"];
}

TEST(FleetCompare, EccErrorsAndRetiredPagesAreNamed) {
  FleetReport r;
  for (int i = 0; i < 4; ++i) r.nodes.push_back(healthy("n" + std::to_string(i)));
  r.nodes[2].facts.gpus[1].ecc_uncorrected_volatile = 3;
  r.nodes[3].facts.gpus[0].retired_pages = 2;
  r.nodes[1].facts.gpus[0].ecc_uncorrected_volatile.reset();  // no ECC: unknown, not an error
  compare_fleet(r);
  EXPECT_TRUE(named(r, "n2", "GPU 1 (NVIDIA H100, GPU-b): 3 uncorrected ECC error(s)"));
  EXPECT_TRUE(named(r, "n3", "GPU 0 (NVIDIA H100, GPU-a): 2 memory page(s) retired"));
  EXPECT_FALSE(named(r, "n0", "")) << "a healthy node is no outlier";
  EXPECT_FALSE(named(r, "n1", ""));
  auto text = render_fleet_text(r);
  EXPECT_NE(text.find("n2: GPU 1"), std::string::npos) << text;
}

TEST(FleetCompare, ABenchFigureFarFromTheMedianByMadIsNamed) {
  FleetReport r;
  const double gemm[] = {100, 101, 99, 100.5, 70};  // n4 is 30 % slow
  const double copy[] = {50, 50, 50, 50, 47};       // 6 %: within what is not worth naming
  for (int i = 0; i < 5; ++i) {
    FleetNode n = healthy("n" + std::to_string(i));
    n.bench = {.ran = true,
               .status = FleetRunStatus::passed,
               .figures = {{"gpu0.gemm_bf16.tflops", gemm[i]}, {"gpu0.d2d.gbps", copy[i]}}};
    r.nodes.push_back(std::move(n));
  }
  r.nodes[0].bench.figures.emplace_back("gpu1.gemm_bf16.tflops", 1);  // on one node only
  compare_fleet(r);
  EXPECT_TRUE(named(r, "n4", "bench gpu0.gemm_bf16.tflops 70 is 30 % below the fleet's median 100"));
  EXPECT_FALSE(named(r, "n4", "gpu0.d2d")) << "6 % off a flat fleet is not an outlier";
  for (const char* n : {"n0", "n1", "n2", "n3"}) EXPECT_FALSE(named(r, n, "bench")) << n;
  ASSERT_EQ(r.bench.size(), 2u) << "a figure on one node has no fleet to compare with";
  EXPECT_EQ(r.bench[0].key, "gpu0.gemm_bf16.tflops");
  EXPECT_DOUBLE_EQ(r.bench[0].median, 100);
  EXPECT_DOUBLE_EQ(r.bench[0].mad, 1);
  EXPECT_DOUBLE_EQ(r.bench[0].min, 70);
  // A single wild node in a fleet of two is not "far from the fleet": no majority.
  FleetReport two;
  two.nodes = {r.nodes[0], r.nodes[4]};
  compare_fleet(two);
  EXPECT_FALSE(named(two, "n4", "bench"));
  auto doc = nlohmann::json::parse(render_fleet_json(r));
  EXPECT_EQ(doc["bench"][0]["median"], 100);
  EXPECT_EQ(doc["nodes"][4]["bench"]["figures"]["gpu0.gemm_bf16.tflops"], 70);
  EXPECT_TRUE(doc["nodes"][0]["verify"].is_null());
}

// `fleet --from` reads each host's last bench (/bench.json): a full run beside quick ones, or a
// run a month old, measures something else than the fleet's runs and is named, not compared.
TEST(FleetCompare, ABenchOfAnotherModeOrAMonthOldIsNotCompared) {
  FleetReport r;
  for (int i = 0; i < 6; ++i) {
    FleetNode n = healthy("n" + std::to_string(i));
    n.bench = {.ran = true,
               .status = FleetRunStatus::passed,
               .figures = {{"gpu0.gemm_bf16.tflops", 100.0 + i % 2}},
               .mode = "quick",
               .started_utc = "2026-12-01T10:0" + std::to_string(i) + ":00Z"};
    r.nodes.push_back(std::move(n));
  }
  r.nodes[4].bench.mode = "full";
  r.nodes[4].bench.figures[0].second = 60;
  r.nodes[5].bench.started_utc = "2026-10-31T09:00:00Z";
  r.nodes[5].bench.figures[0].second = 50;
  compare_fleet(r);
  EXPECT_TRUE(named(r, "n4", "bench figures from a full run, not compared with the quick runs of 5 node(s)"));
  // Held against the middle of the quick runs (10:00-10:03 and n5's), not n4's newer full run.
  EXPECT_TRUE(named(r, "n5",
                    "bench from 2026-10-31T09:00:00Z, 31 days before most nodes' runs (their median: "
                    "2026-12-01T10:01:00Z): not compared"));
  EXPECT_FALSE(named(r, "n4", "below the fleet's median"));
  EXPECT_FALSE(named(r, "n5", "below the fleet's median"));
  ASSERT_EQ(r.bench.size(), 1u);
  EXPECT_EQ(r.bench[0].nodes, 4u) << "only the fresh quick runs";
  EXPECT_DOUBLE_EQ(r.bench[0].min, 100);
  // Without a mode or a time (an older gpudoctor's report), figures are compared as before.
  for (auto& n : r.nodes) n.bench.mode = n.bench.started_utc = "";
  compare_fleet(r);
  EXPECT_EQ(r.bench[0].nodes, 6u);
  EXPECT_TRUE(named(r, "n5", "below the fleet's median"));
}

// The reference time is the middle of the comparable runs, not the newest of all: one node with
// a clock in the future, or a fresh run of another mode, must not shut every other node out.
TEST(FleetCompare, OneSkewedClockOrAnotherModesRunDoesNotShutTheFleetOut) {
  FleetReport r;
  for (int i = 0; i < 6; ++i) {
    FleetNode n = healthy("n" + std::to_string(i));
    n.bench = {.ran = true,
               .status = FleetRunStatus::passed,
               .figures = {{"gpu0.gemm_bf16.tflops", 100.0}},
               .mode = "quick",
               .started_utc = "2026-12-01T10:00:00Z"};
    r.nodes.push_back(std::move(n));
  }
  r.nodes[5].bench.started_utc = "2027-06-01T00:00:00Z";  // a clock half a year ahead
  compare_fleet(r);
  for (const char* n : {"n0", "n1", "n2", "n3", "n4"}) EXPECT_FALSE(named(r, n, "not compared")) << n;
  EXPECT_TRUE(named(r, "n5", "bench from 2027-06-01T00:00:00Z, 181 days after most nodes' runs"));
  ASSERT_EQ(r.bench.size(), 1u);
  EXPECT_EQ(r.bench[0].nodes, 5u);
  // Quick runs 8 days old and one fresh full run: the full run is set apart for its mode, and
  // the quick runs are held against each other, not against it.
  for (auto& n : r.nodes) n.bench.started_utc = "2026-11-23T10:00:00Z";
  r.nodes[5].bench.mode = "full";
  r.nodes[5].bench.started_utc = "2026-12-01T10:00:00Z";
  compare_fleet(r);
  EXPECT_TRUE(named(r, "n5", "bench figures from a full run"));
  for (const char* n : {"n0", "n1", "n2", "n3", "n4"}) EXPECT_FALSE(named(r, n, "not compared")) << n;
  ASSERT_EQ(r.bench.size(), 1u);
  EXPECT_EQ(r.bench[0].nodes, 5u);
}

TEST(FleetNode, VerifyAndBenchRunsReadBack) {
  nlohmann::ordered_json msg = {{"node", "n1"}, {"rank", 1}, {"status", "failed"}, {"error", "doctor gone"}};
  msg["verify"] = {{"schema_version", 1},
                   {"steps",
                    {{{"name", "driver"}, {"status", "passed"}, {"elapsed_ms", 3}},
                     {{"name", "sgemm"}, {"device", 1}, {"status", "failed"}, {"detail", "max error 3.1 > 1e-3"}}}},
                   {"problems", nlohmann::ordered_json::array()}};
  msg["bench"] = {{"status", "timeout"}, {"error", "killed after 40 s"}};
  FleetNode n = fleet_node_from_message(msg.dump(), 1);
  ASSERT_TRUE(n.verify.ran);
  EXPECT_EQ(n.verify.status, FleetRunStatus::failed);
  EXPECT_EQ(n.verify.detail, "sgemm on GPU 1 failed: max error 3.1 > 1e-3");
  EXPECT_EQ(n.bench.status, FleetRunStatus::timeout);
  EXPECT_EQ(n.bench.detail, "killed after 40 s");
  msg["verify"] = "junk";
  msg["bench"] = {
      {"measurements",
       {{{"key", "cpu.sgemm_fp32"}, {"unit", "gflops"}, {"status", "ok"}, {"value", 41.5}, {"check_passed", true}}}}};
  n = fleet_node_from_message(msg.dump(), 1);
  EXPECT_EQ(n.verify.status, FleetRunStatus::no_result);
  ASSERT_EQ(n.bench.figures.size(), 1u);
  EXPECT_EQ(n.bench.figures[0].first, "cpu.sgemm_fp32.gflops");
  EXPECT_DOUBLE_EQ(n.bench.figures[0].second, 41.5);
  EXPECT_FALSE(fleet_node_from_message(R"({"node":"x","status":"ok"})", 1).verify.ran) << "not asked: not run";
  // What a serve answers instead of a run keeps its word; a word not ours is no result.
  EXPECT_EQ(verify_run_from_json({{"status", "not-offered"}, {"error", "started without --allow-verify"}}).status,
            FleetRunStatus::not_offered);
  EXPECT_EQ(verify_run_from_json({{"status", "passed!"}}).status, FleetRunStatus::no_result);
  FleetReport r;
  r.nodes = {healthy("a"), healthy("b")};
  r.nodes[1].verify = {.ran = true, .status = FleetRunStatus::failed, .detail = "sgemm on GPU 1 failed"};
  compare_fleet(r);
  EXPECT_TRUE(named(r, "b", "verify failed: sgemm on GPU 1 failed"));
  EXPECT_NE(render_fleet_text(r).find("verify --quick on each node: 1 failed"), std::string::npos);
}

TEST(FleetNccl, TheSlowestNodeAndLinkAreNamed) {
  FleetReport r;
  for (int i = 0; i < 4; ++i) {
    FleetNode n = healthy("n" + std::to_string(i));
    n.nccl = {.ran = true,
              .status = FleetRunStatus::passed,
              .seconds = 0.01,
              .busbw_gbps = 40,
              .transport = "InfiniBand (NET/IB)"};
    r.nodes.push_back(std::move(n));
  }
  r.nodes[2].nccl.busbw_gbps = 3.5;
  r.nodes[2].nccl.transport = "sockets (NET/Socket)";
  r.nccl = {.ran = true, .gpus = 8, .bytes = 64 << 20};
  compare_fleet(r);
  EXPECT_EQ(r.nccl.status, FleetRunStatus::passed);
  EXPECT_DOUBLE_EQ(r.nccl.busbw_gbps, 3.5) << "the collective is as fast as its slowest node";
  EXPECT_EQ(r.nccl.slowest_node, "n2");
  EXPECT_EQ(r.nccl.slowest_transport, "sockets (NET/Socket)");
  EXPECT_EQ(r.nccl.slowest_transport_nodes, std::vector<std::string>{"n2"});
  EXPECT_TRUE(named(r, "n2", "NCCL chose sockets (NET/Socket) here, where 3 of 4 node(s) use InfiniBand (NET/IB)"));
  EXPECT_FALSE(named(r, "n0", "NCCL"));
  auto text = render_fleet_text(r);
  EXPECT_NE(text.find("bus bandwidth 3.5 GB/s"), std::string::npos) << text;
  // A node whose part failed fails the whole, and is named.
  r.nodes[1].nccl = {.ran = true, .status = FleetRunStatus::timeout, .detail = "killed at 80 s in ncclCommInitRank"};
  r.nccl = {.ran = true, .gpus = 8, .bytes = 64 << 20};
  compare_fleet(r);
  EXPECT_EQ(r.nccl.status, FleetRunStatus::failed);
  EXPECT_TRUE(named(r, "n1", "NCCL all-reduce timeout: killed at 80 s in ncclCommInitRank"));
  auto doc = nlohmann::json::parse(render_fleet_json(r));
  EXPECT_EQ(doc["nccl"]["status"], "failed");
  EXPECT_EQ(doc["nodes"][2]["nccl"]["transport"], "sockets (NET/Socket)");
}

TEST(FleetNccl, ANodesResultReadsBack) {
  auto n = nccl_run_from_message(
      R"j({"status":"passed","detail":"ok","notes":["seconds=0.002 algbw_gbps=33.5 busbw_gbps=50.25",)j"
      R"j("transport=InfiniBand (NET/IB)","connections=InfiniBand (NET/IB):4","gdr=1"]})j");
  EXPECT_TRUE(n.ran);
  EXPECT_EQ(n.status, FleetRunStatus::passed);
  EXPECT_DOUBLE_EQ(n.seconds, 0.002);
  EXPECT_DOUBLE_EQ(n.busbw_gbps, 50.25);
  EXPECT_EQ(n.transport, "InfiniBand (NET/IB)");
  ASSERT_EQ(n.connections.size(), 1u);
  EXPECT_EQ(n.connections[0].second, 4);
  EXPECT_EQ(nccl_run_from_message("garbage").status, FleetRunStatus::failed);
  EXPECT_EQ(
      nccl_run_from_message(R"({"status":"passed","notes":["seconds=nan algbw_gbps=1 busbw_gbps=inf"]})").busbw_gbps, 0)
      << "figures that are not numbers are not taken";
}

TEST(FleetSources, TheSourceIsItsNameInJsonAndJunkReadsAsMpi) {
  FleetReport r;
  r.source = FleetSource::serve;
  r.nodes = {healthy("a")};
  auto doc = fleet_report_to_json(r);
  ASSERT_TRUE(doc["source"].is_string()) << doc.dump();
  EXPECT_EQ(doc["source"], "serve");
  FleetReport back;
  ASSERT_TRUE(fleet_report_from_json(doc, back));
  EXPECT_EQ(back.source, FleetSource::serve);
  // The text names where the reports came from.
  EXPECT_NE(render_fleet_text(back).find("serve endpoint(s)"), std::string::npos);
  for (const char* junk : {"SERVE", "http", ""}) {
    doc["source"] = junk;
    FleetReport j;
    ASSERT_TRUE(fleet_report_from_json(doc, j));
    EXPECT_EQ(j.source, FleetSource::mpi) << junk;
  }
}

}  // namespace
}  // namespace gpudoctor
