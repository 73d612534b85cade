#include "fake_scenario.hpp"

#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>
#endif
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "fake_runtime.hpp"

namespace fake_driver {
namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split_series(const std::string& value) {
  std::vector<std::string> out;
  std::stringstream in(value);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(trim(item));
  return out;
}

Scenario load() {
  Scenario s;
  const char* path = std::getenv("GPUDOCTOR_FAKE_DRIVER");
  if (path == nullptr) return s;
  std::ifstream in(path);
  if (!in) return s;
  s.loaded = true;
  std::string line;
  std::string section;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      section = line.substr(1, line.size() - 2);
      if (section == "device") s.devices.emplace_back();
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = trim(line.substr(0, eq));
    std::string value = trim(line.substr(eq + 1));
    if (section == "nvml") {
      s.nvml[key] = value;
    } else if (section == "cuda") {
      s.cuda[key] = value;
    } else if (section == "calls") {
      s.calls[key] = value;
    } else if (section != "device") {
      s.sections[section][key] = value;
    } else if (section == "device" && !s.devices.empty()) {
      Device& d = s.devices.back();
      if (key == "name")
        d.name = value;
      else if (key == "uuid")
        d.uuid = value;
      else if (key == "cc")
        std::sscanf(value.c_str(), "%d.%d", &d.cc_major, &d.cc_minor);
      else if (key == "memory_total_bytes")
        d.memory_total_bytes = std::stoull(value);
      else if (key == "pci_bus_id")
        d.pci_bus_id = value;
      else if (key == "pci_device_id")
        d.pci_device_id = static_cast<unsigned>(std::stoul(value, nullptr, 0));
      else if (key == "persistence_mode")
        d.persistence_mode = std::stoi(value);
      else
        d.series[key] = split_series(value);
    }
  }
  return s;
}

const std::map<std::string, int>& known_codes() {
  static const std::map<std::string, int> codes = {
      {"NVML_SUCCESS", 0},
      {"NVML_ERROR_UNINITIALIZED", 1},
      {"NVML_ERROR_INVALID_ARGUMENT", 2},
      {"NVML_ERROR_NOT_SUPPORTED", 3},
      {"NVML_ERROR_NO_PERMISSION", 4},
      {"NVML_ERROR_NOT_FOUND", 6},
      {"NVML_ERROR_DRIVER_NOT_LOADED", 9},
      {"NVML_ERROR_TIMEOUT", 10},
      {"NVML_ERROR_LIBRARY_NOT_FOUND", 12},
      {"NVML_ERROR_FUNCTION_NOT_FOUND", 13},
      {"NVML_ERROR_GPU_IS_LOST", 15},
      {"NVML_ERROR_LIB_RM_VERSION_MISMATCH", 18},
      {"NVML_ERROR_ARGUMENT_VERSION_MISMATCH", 25},
      {"NVML_ERROR_UNKNOWN", 999},
      {"CUDA_SUCCESS", 0},
      {"CUDA_ERROR_INVALID_VALUE", 1},
      {"CUDA_ERROR_NOT_INITIALIZED", 3},
      {"CUDA_ERROR_STUB_LIBRARY", 34},
      {"CUDA_ERROR_NO_DEVICE", 100},
      {"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", 803},
      {"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", 804},
      {"CUDA_ERROR_UNKNOWN", 999},
  };
  return codes;
}

}  // namespace

const Scenario& scenario() {
  static const Scenario s = load();
  return s;
}

std::string setting(const std::string& section, const std::string& key, const std::string& fallback) {
  auto sec = scenario().sections.find(section);
  if (sec == scenario().sections.end()) return fallback;
  auto it = sec->second.find(key);
  return it == sec->second.end() ? fallback : it->second;
}

long long number(const std::string& section, const std::string& key, long long fallback) {
  std::string text = setting(section, key);
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 0);
  return text.empty() || *end != '\0' ? fallback : v;
}

bool wrong_result(const std::string& section) {
  return setting(section, "result") == "wrong";
}

int code_from_text(const std::string& text, int fallback) {
  auto it = known_codes().find(text);
  if (it != known_codes().end()) return it->second;
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 0);
  if (end != text.c_str() && *end == '\0') return static_cast<int>(v);
  return fallback;
}

std::optional<int> override_for(const char* symbol, int device) {
  const auto& calls = scenario().calls;
  auto it = calls.end();
  if (device >= 0) it = calls.find(std::string(symbol) + "@" + std::to_string(device));
  if (it == calls.end()) it = calls.find(symbol);
  if (it == calls.end()) return std::nullopt;
  if (it->second == "hang") hang_forever();
  if (it->second == "crash") {
    ::raise(SIGSEGV);
    std::_Exit(139);  // not reached: SIGSEGV's default action ends the process
  }
  return code_from_text(it->second, 999);
}

void hang_forever() {
  for (;;) {
#ifdef _WIN32
    ::Sleep(INFINITE);
#else
    ::pause();
#endif
  }
}

}  // namespace fake_driver
