// bench's pure parts for FP8 GEMM and the GPU topology: the E4M3 conversion the FP8 GEMM's
// inputs and reference use, the link ceilings, NVML's topology vocabulary, the topology's JSON
// and its nvidia-smi-like text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "exact_gemm.hpp"
#include "gpu/bench_math.hpp"
#include "gpu/gpu_topology.hpp"
#include "gpu/verify_math.hpp"
#include "model/json_codec.hpp"
#include "render/bench_render.hpp"

namespace gpudoctor::gpu {
namespace {

TEST(BenchFp8, E4m3EncodesRoundsToEvenAndSaturates) {
  EXPECT_EQ(float_to_e4m3(1.0F), 0x38);  // exponent 7 (bias 7), mantissa 0
  EXPECT_EQ(float_to_e4m3(-2.0F), 0xC0);
  EXPECT_EQ(float_to_e4m3(448.0F), 0x7E);       // the largest finite value
  EXPECT_EQ(float_to_e4m3(1000.0F), 0x7E);      // saturates, never NaN
  EXPECT_EQ(float_to_e4m3(1.0F / 512), 0x01);   // the smallest subnormal, 2^-9
  EXPECT_EQ(float_to_e4m3(1.0F / 2048), 0x00);  // below half of it: zero
  EXPECT_EQ(float_to_e4m3(NAN), 0x7F);
  // Halfway cases go to the even mantissa: 1.0625 between 1.0 (m 0) and 1.125 (m 1) -> 1.0;
  // 1.1875 between 1.125 (m 1) and 1.25 (m 2) -> 1.25.
  EXPECT_EQ(float_to_e4m3(1.0625F), 0x38);
  EXPECT_EQ(float_to_e4m3(1.1875F), 0x3A);
  EXPECT_FLOAT_EQ(e4m3_to_float(0x7E), 448.0F);
  EXPECT_FLOAT_EQ(e4m3_to_float(0x01), 1.0F / 512);
  EXPECT_TRUE(std::isnan(e4m3_to_float(0x7F)));
  // Every finite code survives the round trip.
  int finite = 0;
  for (int v = 0; v < 256; ++v) {
    auto code = static_cast<std::uint8_t>(v);
    if ((code & 0x7F) == 0x7F) continue;
    ++finite;
    float f = e4m3_to_float(code);
    if (f == 0) continue;  // +0 and -0
    EXPECT_EQ(float_to_e4m3(f), code) << v;
  }
  EXPECT_EQ(finite, 254);
}

// The encoder works on the bits; the reference here finds the nearest of the 127 non-negative
// finite values by search (ties to the even code, beyond 448 saturating), over a sweep of float
// patterns and around every midpoint between neighbouring codes.
TEST(BenchFp8, E4m3EncodingIsTheNearestCodeEverywhere) {
  std::vector<double> values;  // code c's value at values[c]
  for (int c = 0; c <= 0x7E; ++c)
    values.push_back(c < 8 ? std::ldexp(c, -9) : std::ldexp(1.0 + (c & 7) / 8.0, (c >> 3) - 7));
  auto nearest = [&](float f) {
    const double x = std::fabs(static_cast<double>(f));
    if (x >= 448) return 0x7E;
    const auto hi = static_cast<int>(std::lower_bound(values.begin(), values.end(), x) - values.begin());
    if (values[static_cast<size_t>(hi)] == x || hi == 0) return hi;
    const double down = x - values[static_cast<size_t>(hi - 1)];
    const double up = values[static_cast<size_t>(hi)] - x;
    return down < up ? hi - 1 : up < down ? hi : (hi % 2 == 0 ? hi : hi - 1);
  };
  auto expect_nearest = [&](float f) {
    const int want = nearest(f) | (std::signbit(f) ? 0x80 : 0);
    ASSERT_EQ(float_to_e4m3(f), want) << "float " << f;
  };
  std::vector<float> probes;
  for (std::uint32_t bits = 0; bits < 0x44000000U; bits += 1021) {
    float f = 0;
    std::memcpy(&f, &bits, 4);
    probes.push_back(f);
  }
  for (size_t c = 0; c + 1 < values.size(); ++c) {
    const auto mid = static_cast<float>((values[c] + values[c + 1]) / 2);  // exact: a few bits
    probes.insert(probes.end(), {mid, std::nextafter(mid, 0.0F), std::nextafter(mid, 1e9F)});
  }
  probes.insert(probes.end(), {448.0F, 464.0F, 1e30F, INFINITY, 0.0F});
  for (float f : probes) {
    expect_nearest(f);
    expect_nearest(-f);
  }
  EXPECT_EQ(float_to_e4m3(-0.0F), 0x80);
  EXPECT_EQ(float_to_e4m3(-NAN), 0x7F);
  for (int c = 0; c <= 0x7E; ++c)
    EXPECT_EQ(e4m3_to_float(static_cast<std::uint8_t>(c)), values[static_cast<size_t>(c)]);
}

// The per-element bound with a 14-bit accumulator grows with K faster than a random-sign result:
// at K = 8192 it passes a zero matrix. The relative 2-norm error over the samples does not.
TEST(BenchFp8, ARelativeErrorCheckCatchesWhatTheLooseBoundPasses) {
  const int m = 4, n = 4, k = 8192;
  auto a = test_values(static_cast<size_t>(m) * k, 7);
  auto b = test_values(static_cast<size_t>(k) * n, 9);
  std::vector<float> right = exact_row_major_product(a, b, m, n, k);
  std::vector<float> zero(right.size(), 0.0F);
  const size_t all = right.size();
  // What the FP8 figure calls: the bound check and the relative error over one pass of the samples.
  auto relative_error = [&](const std::vector<float>& c) {
    double relative = -1;
    BoundCheck both = check_gemm_sampled_with_relative_error(a.data(), b.data(), c.data(), m, n, k, all,
                                                             kFp8AccumulateUnitRoundoff, 2.0, relative);
    BoundCheck alone = check_gemm_sampled(a.data(), b.data(), c.data(), m, n, k, all, kFp8AccumulateUnitRoundoff, 2.0);
    EXPECT_EQ(both.passed, alone.passed);
    EXPECT_EQ(both.worst_error, alone.worst_error);
    EXPECT_EQ(relative, gemm_sampled_relative_error(a.data(), b.data(), c.data(), m, n, k, all));
    return std::pair{both.passed, relative};
  };
  auto [zero_passes, zero_error] = relative_error(zero);
  EXPECT_TRUE(zero_passes) << "the worst-case bound alone is vacuous here";
  EXPECT_NEAR(zero_error, 1.0, 1e-12);
  EXPECT_LT(relative_error(right).second, 1e-6);
  std::vector<float> off = right;
  for (float& v : off) v *= 1.1F;  // 10 % off everywhere
  EXPECT_GT(relative_error(off).second, kFp8MaxRelativeError);
}

TEST(BenchLinks, CeilingsPerLinkKind) {
  EXPECT_NEAR(pcie_link_gbps(3, 16), 15.75, 0.01);  // 8 GT/s x 128/130 / 8 x 16
  EXPECT_NEAR(pcie_link_gbps(4, 16), 31.51, 0.01);
  EXPECT_NEAR(pcie_link_gbps(5, 16), 63.02, 0.01);
  EXPECT_NEAR(pcie_link_gbps(2, 8), 4.0, 1e-9);  // 5 GT/s x 8b/10b
  EXPECT_EQ(pcie_link_gbps(0, 16), 0);
  EXPECT_NEAR(pcie_link_gbps(6, 16), 121.0, 0.01);  // 64 GT/s x 242/256 (flit less CRC, FEC) / 8 x 16
  EXPECT_EQ(pcie_link_gbps(7, 16), 0);
  // NVML answers its enum, not the generation: an A100 (CC 8.0) and an RTX 3090 (CC 8.6) both
  // answer 5 (NVLink 3.1), an H100 6 (4.0), a B200 7 (5.0).
  EXPECT_EQ(nvlink_gbps_per_link(5, 8, 0), 25);       // A100: 600 GB/s both ways over 12 links
  EXPECT_EQ(nvlink_gbps_per_link(5, 8, 6), 14.0625);  // GA102: 112.5 GB/s both ways over 4 links
  EXPECT_EQ(nvlink_gbps_per_link(6, 9, 0), 25);       // H100: 900 GB/s both ways over 18 links
  EXPECT_EQ(nvlink_gbps_per_link(7, 10, 0), 50);      // B200: 1800 over 18
  EXPECT_EQ(nvlink_gbps_per_link(2, 7, 0), 25);       // V100: 300 over 6
  EXPECT_EQ(nvlink_gbps_per_link(1, 6, 0), 20);       // P100: 160 over 4
  EXPECT_EQ(nvlink_gbps_per_link(0, 9, 0), 0);
  EXPECT_EQ(nvlink_gbps_per_link(99, 9, 0), 0);
  EXPECT_EQ(nvlink_version_name(5), "3.1");
  EXPECT_EQ(nvlink_version_name(6), "4.0");
  EXPECT_EQ(nvlink_version_name(7), "5.0");
  EXPECT_EQ(nvlink_version_name(8), "");
}

TEST(BenchTopology, NvmlVocabularyAsNvidiaSmiPrintsIt) {
  EXPECT_EQ(normalize_bus_id("00000000:18:00.0"), "0000:18:00");
  EXPECT_EQ(normalize_bus_id("0000:AB:00.0"), "0000:ab:00");
  EXPECT_EQ(normalize_bus_id("junk"), "");
  EXPECT_EQ(bus_id_of(0, 0x18, 0), "0000:18:00");
  EXPECT_EQ(bus_id_of(0, 300, 0), "");
  EXPECT_EQ(topology_level_text(10), "PIX");
  EXPECT_EQ(topology_level_text(20), "PXB");
  EXPECT_EQ(topology_level_text(30), "PHB");
  EXPECT_EQ(topology_level_text(40), "NODE");
  EXPECT_EQ(topology_level_text(50), "SYS");
  EXPECT_EQ(topology_level_text(-1), "?");
  EXPECT_EQ(p2p_status_text(0), "OK");
  EXPECT_EQ(p2p_status_text(1), "CNS");
  EXPECT_EQ(p2p_status_text(42), "U");
}

TEST(BenchTopology, JsonReadsBackAndTextLooksLikeTopoM) {
  BenchTopology t;
  t.bus_ids = {"0000:18:00", "0000:2a:00"};
  t.links = {{"X", "NV4"}, {"NV4", "X"}};
  t.p2p_read = {{"X", "OK"}, {"OK", "X"}};
  t.link_gbps = {{0, 100}, {100, 0}};
  t.link_basis = {{"", "4 NVLink 4 link(s) x 25 GB/s one way"}, {"4 NVLink 4 link(s) x 25 GB/s one way", ""}};
  t.note = "CUDA ordinals matched to NVML's devices by PCI bus id";
  BenchTopology back;
  ASSERT_TRUE(bench_topology_from_json(bench_topology_to_json(t), back));
  EXPECT_EQ(back, t);
  BenchTopology junk;
  EXPECT_FALSE(bench_topology_from_json(nlohmann::ordered_json::array(), junk));
  // In a whole report too.
  BenchReport r;
  r.topology = t;
  BenchReport r_back;
  bench_report_from_json(bench_report_to_json(r), r_back);
  EXPECT_EQ(r_back.topology, t);
  const std::string text = render_bench_topology(t);
  EXPECT_NE(text.find("        GPU0   GPU1"), std::string::npos) << text;
  EXPECT_NE(text.find("  GPU0  X      NV4     0000:18:00"), std::string::npos) << text;
  EXPECT_NE(text.find("NV# # bonded NVLinks"), std::string::npos);
  EXPECT_NE(render_bench_text(r, false).find("GPU topology"), std::string::npos);
  // No NVML: the note stands in for the matrix.
  BenchTopology none;
  none.note = "no topology matrix: NVML: not found";
  EXPECT_NE(render_bench_topology(none).find("no topology matrix"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor::gpu
