#pragma once
/// The words and marks every view of the doctor's findings shares (text, HTML).
#include "model/finding.hpp"

namespace gpudoctor {

/// A report section's heading: "NVIDIA driver", "cuDNN, NCCL, TensorRT".
const char* area_title(FindingArea a);
/// ✓ ok, • info, ! warning, ✗ error.
const char* severity_mark(Severity s);

}  // namespace gpudoctor
