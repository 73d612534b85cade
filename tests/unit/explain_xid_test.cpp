// The NVIDIA kernel module's Xid lines (data/explain/xid.toml), as users paste them from `dmesg`,
// `dmesg -T` and `journalctl -k`. The lines are real ones from public issues (named per test);
// meanings and actions come from NVIDIA's Xid catalog as leptonai/gpud carries it.
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

/// How many answers came from the Xid rules (ids starting with "xid-", alternatives included).
size_t xid_answers(const ExplainReport& r) {
  size_t n = 0;
  for (const auto& m : r.matches) n += m.rule.rfind("xid-", 0) == 0 && !m.alternative ? 1 : 0;
  return n;
}

TEST(ExplainXid, FallenOffTheBusIsTheMachineNotTheProgram) {
  // NVIDIA/NVSentinel#155 (the Xid line) and the brief's pid= form.
  for (const char* line : {
           "NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus",
           "[ 4567.123456] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.",
           "Dec  2 11:38:47 worker4 kernel: NVRM: Xid (PCI:0000:05:00): 79, pid='<unknown>', name=<unknown>, GPU "
           "has fallen off the bus.",
       }) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "xid-79-fallen-off-bus")) << line;
    const auto& m = r.matches.front();
    EXPECT_TRUE(contains(m.cause, "Xid 79")) << m.cause;
    EXPECT_TRUE(contains(m.cause, "PCIe")) << m.cause;
    EXPECT_TRUE(contains(m.fix, "Reboot the machine")) << m.fix;
    EXPECT_EQ(xid_answers(r), 1u) << line;
  }
}

TEST(ExplainXid, TheMultiLineFallenOffTheBusMessageWithoutAnXidIsTheSameAnswer) {
  // NVIDIA/NVSentinel#155: newer drivers print this without an Xid line.
  const auto r = explain_no_facts(
      "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
      "               NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
      "               NVRM: fallen off the bus and is not responding to commands.\n");
  ASSERT_TRUE(leads_with(r, "xid-79-fallen-off-bus"));
}

TEST(ExplainXid, GraphicsExceptionIsTheProgramsFaultAndNamesTheException) {
  // leptonai/gpud#46 (dmesg -T), 3dem/relion#436 (journal), vllm-project/vllm#5901 (dmesg).
  const auto r = explain_no_facts(
      "[Fri Aug 30 11:43:09 2024] NVRM: Xid (PCI:0000:cb:00): 13, pid='<unknown>', name=<unknown>, Graphics SM "
      "Warp Exception on (GPC 7, TPC 1, SM 0): Out Of Range Address\n"
      "[Fri Aug 30 11:43:09 2024] NVRM: Xid (PCI:0000:cb:00): 13, pid='<unknown>', name=<unknown>, Graphics SM "
      "Global Exception on (GPC 7, TPC 7, SM 0): Multiple Warp Errors\n"
      "[93297.027938] NVRM: Xid (PCI:0000:43:00): 13, pid='<unknown>', name=<unknown>, Graphics Exception: ESR "
      "0x52e7b0=0x101000e 0x52e7b4=0x4 0x52e7a8=0xc81eb60 0x52e7ac=0x1174\n");
  ASSERT_TRUE(leads_with(r, "xid-application-fault"));
  const auto& m = r.matches.front();
  EXPECT_TRUE(contains(m.cause, "Xid 13")) << m.cause;
  EXPECT_TRUE(contains(m.cause, "Out Of Range Address")) << m.cause;
  EXPECT_TRUE(contains(m.cause, "program's own")) << m.cause;
  EXPECT_FALSE(contains(m.cause, "hardware fault")) << m.cause;
  EXPECT_TRUE(contains(m.fix, "compute-sanitizer")) << m.fix;
  EXPECT_EQ(m.count, 3u);
  EXPECT_EQ(xid_answers(r), 1u);
}

TEST(ExplainXid, PageFaultIsTheProgramsFaultAndNamesTheProcessAndFaultType) {
  // NVIDIA/open-gpu-kernel-modules#363, with the "NVRM: GPU at PCI:" line the driver prints first.
  const auto r = explain_no_facts(
      "NVRM: GPU at PCI:0000:08:00: GPU-8a47641b-dff6-f09f-618c-c3eb58fb430d\n"
      "NVRM: Xid (PCI:0000:08:00): 31, pid=169800, name=chrome, Ch 00000023, intr 00000000. MMU Fault: ENGINE "
      "CE0 HUBCLIENT_HSCE0 faulted @ 0x0_0abe0000. Fault is of type FAULT_PTE ACCESS_TYPE_VIRT_READ\n");
  ASSERT_TRUE(leads_with(r, "xid-application-fault"));
  const auto& m = r.matches.front();
  EXPECT_TRUE(contains(m.cause, "Xid 31")) << m.cause;
  EXPECT_TRUE(contains(m.cause, "chrome")) << m.cause;
  EXPECT_TRUE(contains(m.cause, "FAULT_PTE ACCESS_TYPE_VIRT_READ")) << m.cause;
  EXPECT_TRUE(contains(m.cause, "program's own")) << m.cause;
  // The context line is no answer of its own.
  EXPECT_EQ(xid_answers(r), 1u);
  // A repeating fault on one GPU may still be hardware: said, after the program.
  ASSERT_GE(r.matches.size(), 2u);
  EXPECT_TRUE(r.matches[1].alternative);
  EXPECT_EQ(r.matches[1].rule, "xid-application-fault/same-gpu-repeats");
}

TEST(ExplainXid, DoubleBitEccIsAHardwareMemoryError) {
  // NVIDIA/gpu-operator#1146 (journalctl -k): Xid 48 followed by the failed page retirement, 64.
  const auto r = explain_no_facts(
      "Dec  2 11:38:47 worker4 kernel: [  219.470994] NVRM: Xid (PCI:0000:07:00): 48, pid='<unknown>', "
      "name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at "
      "physAddr 0x7fffa8860 partition 7, subpartition 1.\n"
      "Dec  2 11:38:47 worker4 kernel: [  219.471050] NVRM: Xid (PCI:0000:07:00): 64, pid='<unknown>', "
      "name=<unknown>, Dynamic Page Retirement: Blacklisting failed.  Page should have been blacklisted on "
      "boot(0x00000000007fffa8).\n");
  ASSERT_TRUE(leads_with(r, "xid-48-double-bit-ecc"));
  EXPECT_TRUE(contains(r.matches.front().cause, "Xid 48"));
  EXPECT_TRUE(contains(r.matches.front().cause, "double-bit"));
  const auto* failure = find_rule(r, "xid-64-remap-failure");
  ASSERT_NE(failure, nullptr);
  EXPECT_TRUE(contains(failure->cause, "Xid 64"));
  EXPECT_EQ(xid_answers(r), 2u);
}

TEST(ExplainXid, RowRemappingEventAsksForAResetNotAnRma) {
  const auto r = explain_no_facts(
      "NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked for remapping, reset gpu to "
      "activate.\n");
  ASSERT_TRUE(leads_with(r, "xid-memory-error-recorded"));
  const auto& m = r.matches.front();
  EXPECT_TRUE(contains(m.cause, "Xid 63")) << m.cause;
  EXPECT_TRUE(contains(m.fix, "nvidia-smi -r")) << m.fix;
  EXPECT_EQ(m.severity, RuleSeverity::warning);
}

TEST(ExplainXid, GspTimeoutIsADriverFirmwareProblemFirst) {
  // leptonai/gpud components/accelerator/nvidia/xid/testdata/dmesg-with-xid-119.log.
  const auto r = explain_no_facts(
      "[Sun Feb 23 16:24:18 2025] NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, name=nvidia-smi, Timeout after "
      "6s of waiting for RPC response from GPU4 GSP! Expected function 103 (GSP_RM_ALLOC) (0x2081 0x4).\n");
  ASSERT_TRUE(leads_with(r, "xid-gsp-error"));
  EXPECT_TRUE(contains(r.matches.front().cause, "Xid 119"));
  EXPECT_TRUE(contains(r.matches.front().cause, "GSP"));
}

TEST(ExplainXid, CleanupAfterAnotherXidPointsAtTheEarlierOne) {
  // NVIDIA/open-gpu-kernel-modules#1150 (journalctl -k).
  const auto r = explain_no_facts(
      "kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by previous Xid 149\n");
  ASSERT_TRUE(leads_with(r, "xid-45-preemptive-cleanup"));
  const auto& m = r.matches.front();
  EXPECT_TRUE(contains(m.cause, "Xid 45")) << m.cause;
  EXPECT_TRUE(contains(m.cause, "Xid 149")) << m.cause;
  EXPECT_TRUE(contains(m.cause, "not a cause")) << m.cause;
}

TEST(ExplainXid, ARealErrorRanksAboveTheCleanupItCaused) {
  const auto r = explain_no_facts(
      "NVRM: Xid (PCI:0000:07:00): 45, pid=1234, name=python3, Ch 00000010\n"
      "NVRM: Xid (PCI:0000:07:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n");
  ASSERT_TRUE(leads_with(r, "xid-79-fallen-off-bus"));
  EXPECT_NE(find_rule(r, "xid-45-preemptive-cleanup"), nullptr);
}

TEST(ExplainXid, AnXidWithoutItsOwnRuleGetsTheGenericAnswerWithItsNumberAndText) {
  // Xid 32 (NVIDIA's catalog: invalid or corrupted push buffer stream), Bumblebee-Project/Bumblebee#677;
  // the older "Xid (0000:...)" form without "PCI:".
  const auto r = explain_no_facts("[24128.828315] NVRM: Xid (PCI:0000:01:00): 32, Channel ID 00000000 intr 00004000\n");
  ASSERT_TRUE(leads_with(r, "xid-logged"));
  const auto& m = r.matches.front();
  EXPECT_TRUE(contains(m.cause, "Xid 32")) << m.cause;
  EXPECT_TRUE(contains(m.cause, "Channel ID 00000000 intr 00004000")) << m.cause;
  EXPECT_TRUE(contains(m.fix, "nvidia-smi -q")) << m.fix;
  EXPECT_TRUE(leads_with(explain_no_facts("NVRM: Xid (0000:03:00): 14, Channel 00000001\n"), "xid-logged"));
}

TEST(ExplainXid, EveryXidNumberGetsExactlyOneXidAnswer) {
  // The generic rule leaves the numbers with their own rule to that rule: one answer per line.
  for (int xid = 1; xid <= 200; ++xid) {
    const auto r = explain_no_facts("NVRM: Xid (PCI:0000:3b:00): " + std::to_string(xid) + ", pid=1, name=x, text\n");
    EXPECT_EQ(xid_answers(r), 1u) << "Xid " << xid;
    ASSERT_FALSE(r.matches.empty()) << "Xid " << xid;
    EXPECT_TRUE(contains(r.matches.front().cause, "Xid " + std::to_string(xid))) << r.matches.front().cause;
  }
}

TEST(ExplainXid, ProseAboutXidsIsNoXidLine) {
  for (const char* prose : {
           "We keep getting Xid 79 errors on node 3 after the BIOS update.",
           "Xid 13 is usually an application error, see the Xid catalog.",
           "XID 79(GPU has fallen off the bus) detected on PCI:0000:ae:00",
           "grep -i xid /var/log/kern.log",
       }) {
    EXPECT_EQ(xid_answers(explain_no_facts(prose)), 0u) << prose;
  }
}

}  // namespace
}  // namespace gpudoctor
