#pragma once
/// Every JSON document leaves through here: indented, with invalid UTF-8 from untrusted files
/// (a METADATA full of binary junk) replaced rather than thrown on.
#include <nlohmann/json.hpp>
#include <string>

namespace gpudoctor {

template <class Json>
std::string json_text(const Json& doc) {
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gpudoctor
