#include "core/pci_ids.hpp"

#include "core/text.hpp"

namespace gpudoctor {

std::map<std::string, std::string> parse_pci_ids_nvidia(std::string_view text) {
  std::map<std::string, std::string> out;
  bool in_nvidia = false;
  for (std::string_view line : lines(text)) {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] != '\t') {
      if (in_nvidia) break;  // the next vendor
      in_nvidia = line.starts_with("10de ");
      continue;
    }
    if (!in_nvidia || line.size() < 7 || line[1] == '\t') continue;  // skip subsystems
    std::string id = to_lower(line.substr(1, 4));
    out.emplace(id, printable(trim(line.substr(5)), 120));
  }
  return out;
}

}  // namespace gpudoctor
