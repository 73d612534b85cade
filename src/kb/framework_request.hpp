#pragma once
/// What a framework request ("torch>2.5,<2.6", "jax[cuda13]") asks of the tables, shared by `plan`
/// and `matrix` so both read it alike.
///
/// Which PyTorch/TensorFlow series its range asks for: The tables hold series (2.5); the harvest read
/// every release (torch 2.5: 2.5.0, 2.5.1): a series is asked for when one of its releases is in
/// the range (`torch>=2.5.3,<2.6` asks for none), and a release pin ("==2.5.1") also names the
/// series of a release PyPI never had, for the plan to show it blocked. A series the harvest has
/// no release of is judged by the range alone (VersionSpec::admits_series).
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"
#include "model/plan.hpp"

namespace gpudoctor {

class KnowledgeBase;

/// The one version a request pins exactly ("jax==0.9.0"); empty for a range or no version.
std::optional<Version> exact_pin(const FrameworkRequest& fr);

struct SeriesRequest {
  std::vector<Version> released;  ///< the package's releases, oldest first; empty for JAX
  std::optional<Version> pin;     ///< "==2.5.1": one release (a patch component, no * or ,)
  const FrameworkRequest* fr = nullptr;

  [[nodiscard]] std::vector<Version> of_series(const Version& series) const;
  [[nodiscard]] bool asks_for(const Version& series) const;
  /// asks_for, less a pin to a release PyPI never had (`torch==2.5.7`): what `matrix` lists.
  [[nodiscard]] bool admits_released(const Version& series) const;
  /// The release to install for this series: the pin, else the newest release in the range when
  /// the range leaves some of the series out; nullopt: the series' newest (".*").
  [[nodiscard]] std::optional<Version> target(const Version& series) const;
};

/// `fr` must outlive the result.
SeriesRequest series_request(const FrameworkRequest& fr);

/// The wheel variant one of a request's extras names (PEP 685-normalised, as FrameworkRequest
/// keeps them): jax's "cuda13" (and "cuda13-local", whose CUDA comes from the system), "cpu" and
/// "tpu" (no NVIDIA GPU build: no row has them); tensorflow's "and-cuda". nullopt: the extra does
/// not choose a build (torch's extras, unknown ones).
std::optional<std::string> extra_variant(Framework framework, const std::string& extra, const KnowledgeBase& kb);

}  // namespace gpudoctor
