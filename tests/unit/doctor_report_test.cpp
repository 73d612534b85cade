// The doctor's text report: what reaches the terminal.
#include "render/doctor_report.hpp"

#include <gtest/gtest.h>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

// Found in review.
TEST(ReviewRegression, EscapeCodesInNamesNeverReachTheTerminal) {
  Facts f;
  std::vector<Finding> fs = {Finding{.id = "python-env",
                                     .severity = Severity::ok,
                                     .area = FindingArea::python,
                                     .title = "x\x1b]0;pwned\a\x1b[2J\nFAKE [✓] All good",
                                     .detail = "a\rb"}};
  std::string text = render_doctor_text(f, fs, TextStyle{.color = false, .verbose = true});
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\a'), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text.find("\nFAKE"), std::string::npos);
  EXPECT_NE(text.find("\\x1b]0;pwned"), std::string::npos);
  EXPECT_EQ(terminal_safe("tab\tok"), "tab\tok");
}

// A ✓ over an area says something in it was checked and is fine. An area of notes alone (a K80
// that the installed driver does not drive, whose line points at the driver's ✗) was headed ✓.
TEST(DoctorText, AnAreaOfNotesAloneIsNotHeadedByATick) {
  Facts f;
  auto item = [](Severity s, FindingArea a, std::string title) {
    return Finding{.id = "gpu", .severity = s, .area = a, .title = std::move(title)};
  };
  std::vector<Finding> fs = {
      item(Severity::info, FindingArea::gpu, "Tesla K80 — see ✗ Driver 535 does not drive the Tesla K80"),
      item(Severity::ok, FindingArea::driver, "NVIDIA driver 535.261.03"),
      item(Severity::info, FindingArea::driver, "nvidia-smi not found"),
      item(Severity::error, FindingArea::driver, "Driver 535 does not drive the Tesla K80"),
      item(Severity::ok, FindingArea::cuda, "CUDA 12.2"),
      item(Severity::info, FindingArea::cuda, "a second toolkit"),
  };
  std::string text = render_doctor_text(f, fs, TextStyle{.color = false});
  EXPECT_NE(text.find("[•] NVIDIA GPU\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[✗] NVIDIA driver\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[✓] CUDA toolkit\n"), std::string::npos) << text;
  EXPECT_NE(text.find("1 area(s) with errors, 0 with warnings"), std::string::npos) << text;
}

}  // namespace
}  // namespace gpudoctor
