#include "gpu/child_lines.hpp"

namespace gpudoctor::gpu {

using json = nlohmann::ordered_json;

void send_json_line(ChildChannel& out, const json& j) {
  out.write_line(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

void send_call_line(ChildChannel& out, const std::string& call) {
  send_json_line(out, json{{"call", call}});
}

std::string for_each_child_object(const ChildOutcome& outcome, const std::function<void(json&)>& on_object) {
  std::string junk;
  const std::string& text = outcome.output;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    bool complete = end != std::string::npos;
    std::string_view line(text.data() + begin, (complete ? end : text.size()) - begin);
    begin = complete ? end + 1 : text.size();
    if (line.empty()) continue;
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) {
      if ((complete || !outcome.error) && junk.empty()) junk = std::string(line.substr(0, 80));
      continue;
    }
    on_object(j);
  }
  return junk;
}

ChildLines parse_child_lines(const ChildOutcome& outcome) {
  ChildLines lines;
  lines.junk = for_each_child_object(outcome, [&lines](json& j) {
    if (auto it = j.find("call"); it != j.end() && it->is_string()) {
      lines.last_call = it->get<std::string>();
      return;
    }
    lines.last_call.clear();
    lines.objects.push_back(std::move(j));
  });
  return lines;
}

}  // namespace gpudoctor::gpu
