#pragma once
/// The fix for an onnxruntime-gpu whose CUDA provider cannot load its CUDA and cuDNN libraries.
/// What exists depends on the release: the `[cuda,cudnn]` extras (nvidia-* wheels) and
/// onnxruntime.preload_dlls() came in 1.21.0 (1.20.2's METADATA has no Provides-Extra, its
/// __init__.py no preload_dlls; 1.21.0's has both), so an older release is told the wheels by name
/// and the search path, or the upgrade.
#include <string>

#include "model/facts.hpp"
#include "model/framework.hpp"

namespace gpudoctor {

/// The whole fix sentence for `fw` (an onnxruntime CUDA build) on `platform`: the wheels or the
/// toolkit and where the loader must find them; `pip` the environment's (env_pip).
std::string onnxruntime_libraries_fix(const FrameworkFacts& fw, Platform platform, const std::string& pip);

}  // namespace gpudoctor
