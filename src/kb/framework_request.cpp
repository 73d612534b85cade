#include "kb/framework_request.hpp"

#include <algorithm>

#include "core/text.hpp"
#include "kb/data_files.hpp"
#include "kb/knowledge_base.hpp"

namespace gpudoctor {

std::optional<Version> exact_pin(const FrameworkRequest& fr) {
  // ==0.9.* is a series, ~=0.9.0 a range whose bounds compare equal on their widths (the re-read).
  if (!fr.spec || !trim(fr.spec->text()).starts_with("==") ||
      fr.spec->text().find_first_of("*,") != std::string::npos) {
    return std::nullopt;
  }
  std::optional<Version> lo = fr.spec->lowest(), hi = fr.spec->highest();
  if (lo && hi && *lo == *hi && fr.spec->contains(*lo)) return lo;
  return std::nullopt;
}

std::vector<Version> SeriesRequest::of_series(const Version& series) const {
  std::vector<Version> out;
  for (const Version& r : released) {
    if (r.same_series(series, 2)) out.push_back(r);
  }
  return out;
}

bool SeriesRequest::asks_for(const Version& series) const {
  if (!fr->spec || fr->name == Framework::jax) return true;
  const std::vector<Version> rs = of_series(series);
  if (rs.empty()) return fr->spec->admits_series(series);
  if (pin) return pin->same_series(series, 2);
  return std::any_of(rs.begin(), rs.end(), [&](const Version& r) { return fr->spec->contains(r); });
}

bool SeriesRequest::admits_released(const Version& series) const {
  if (!asks_for(series)) return false;
  if (!pin || !pin->pre().empty()) return true;
  const std::vector<Version> rs = of_series(series);
  return rs.empty() || std::find(rs.begin(), rs.end(), *pin) != rs.end();  // PEP 440: 2.5.1.0 is 2.5.1
}

std::optional<Version> SeriesRequest::target(const Version& series) const {
  if (!fr->spec || fr->name == Framework::jax) return std::nullopt;
  if (pin) return pin->same_series(series, 2) ? pin : std::nullopt;
  const std::vector<Version> rs = of_series(series);
  std::vector<Version> in;
  for (const Version& r : rs) {
    if (fr->spec->contains(r)) in.push_back(r);
  }
  if (in.empty()) return std::nullopt;
  // The whole series, and the releases it may still get: ".*". A range that stops inside the
  // series (<=2.13 is <=2.13.0) pins its newest release even when the harvest saw no later one.
  const Version later = Version::of({series.major(), series.minor(), 999999});
  if (in.size() == rs.size() && fr->spec->contains(later)) return std::nullopt;
  return in.back();
}

SeriesRequest series_request(const FrameworkRequest& fr) {
  SeriesRequest sr;
  sr.fr = &fr;
  if (fr.name == Framework::jax) return sr;
  sr.released = builtin_released_versions(fr.name == Framework::pytorch ? "torch" : "tensorflow");
  // "==2.5" names the series here (the tables' unit, and what the docs' examples mean); "~=2.5.0"
  // and "==2.5.*" are ranges. A pin with a patch component names a release.
  if (std::optional<Version> v = exact_pin(fr); v && v->parts().size() >= 3) sr.pin = v;
  return sr;
}

std::optional<std::string> extra_variant(Framework framework, const std::string& extra, const KnowledgeBase& kb) {
  if (framework == Framework::tensorflow) return extra == "and-cuda" ? std::optional<std::string>(extra) : std::nullopt;
  if (framework != Framework::jax) return std::nullopt;
  if (kb.jax_variant(extra) != nullptr || extra == "cpu" || extra == "tpu") return extra;
  // JAX's "-local" extras take CUDA and cuDNN from the system instead of pip wheels.
  if (extra.size() > 6 && extra.ends_with("-local") && kb.jax_variant(extra.substr(0, extra.size() - 6)) != nullptr) {
    return extra.substr(0, extra.size() - 6);
  }
  return std::nullopt;
}

}  // namespace gpudoctor
