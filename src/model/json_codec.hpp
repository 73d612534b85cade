#pragma once
/// JSON forms of the model (facts and findings), shared by every JSON renderer. Unknown values
/// are null, numbers are numbers, units are in the key names.
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

nlohmann::ordered_json facts_to_json(const Facts& facts);
nlohmann::ordered_json finding_to_json(const Finding& finding);
nlohmann::ordered_json findings_to_json(const std::vector<Finding>& findings);

}  // namespace gpudoctor
