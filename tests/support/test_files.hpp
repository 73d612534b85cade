#pragma once
/// A test's own scratch folder, and reading what a test's program wrote.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace gpudoctor::testing {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// <tmp>/<prefix>-<pid>-<test name>: one per test process. A parameterised test's name holds a
/// '/' ("FailsTheStepThatMadeTheCall/3"), which would make the folder a subfolder and leave its
/// parent behind after remove_all; it becomes '_'.
inline std::filesystem::path scratch_dir_for_test(const std::string& prefix) {
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(name.begin(), name.end(), '/', '_');
  return std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(::getpid()) + "-" + name);
}

}  // namespace gpudoctor::testing
