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

}  // namespace
}  // namespace gpudoctor
