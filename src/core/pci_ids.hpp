#pragma once
/// The PCI ID database (pci.ids, as in /usr/share/misc): the machine's own copy names the
/// devices the probe finds, the copy embedded in the knowledge base names them otherwise.
#include <map>
#include <string>
#include <string_view>

namespace gpudoctor {

/// The NVIDIA part of the PCI ID database (pci.ids): device id (4 hex digits, lower case) ->
/// name, e.g. "2503" -> "GA106 [GeForce RTX 3060]".
std::map<std::string, std::string> parse_pci_ids_nvidia(std::string_view text);

}  // namespace gpudoctor
