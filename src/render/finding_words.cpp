#include "render/finding_words.hpp"

namespace gpudoctor {

const char* area_title(FindingArea a) {
  switch (a) {
    case FindingArea::system:
      return "System";
    case FindingArea::gpu:
      return "NVIDIA GPU";
    case FindingArea::driver:
      return "NVIDIA driver";
    case FindingArea::cuda:
      return "CUDA toolkit";
    case FindingArea::libraries:
      return "cuDNN, NCCL, TensorRT";
    case FindingArea::python:
      return "Python environments and frameworks";
    case FindingArea::env:
      return "Environment variables";
  }
  return "";
}

const char* severity_mark(Severity s) {
  switch (s) {
    case Severity::ok:
      return "✓";
    case Severity::info:
      return "•";
    case Severity::warning:
      return "!";
    case Severity::error:
      return "✗";
  }
  return "•";
}

}  // namespace gpudoctor
