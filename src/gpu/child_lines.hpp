#pragma once
/// The line protocol of verify's children (runtime_libraries.hpp, verify_steps.hpp): one JSON
/// object per line, {"call": "cuMemAlloc_v2"} before every vendor call, and result objects.
/// A child killed mid-way leaves whole lines, so the parent knows the call it died in.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpu/isolated_child.hpp"

namespace gpudoctor::gpu {

/// Writes one object as a line; vendor strings with invalid UTF-8 are replaced, not thrown on.
void send_json_line(ChildChannel& out, const nlohmann::ordered_json& j);
/// {"call": call}: the vendor call about to be made.
void send_call_line(ChildChannel& out, const std::string& call);

struct ChildLines {
  std::vector<nlohmann::ordered_json> objects;  ///< every line that was an object but not a call
  std::string last_call;                        ///< the last call announced after the last object
  std::string junk;                             ///< the first unreadable whole line, cut to 80 bytes
};

/// Calls `on_object` for every line of the child's output that is a JSON object, in order, and
/// returns the first whole line that is not one (cut to 80 bytes), "" when there is none: a
/// last line cut short by a kill is not junk.
std::string for_each_child_object(const ChildOutcome& outcome,
                                  const std::function<void(nlohmann::ordered_json&)>& on_object);

/// The objects, the last call and the junk of a child's output (for_each_child_object).
ChildLines parse_child_lines(const ChildOutcome& outcome);

}  // namespace gpudoctor::gpu
