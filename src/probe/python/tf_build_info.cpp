#include "probe/python/tf_build_info.hpp"

#include <algorithm>
#include <cctype>

#include "core/text.hpp"
#include "probe/python/python_literal.hpp"

namespace gpudoctor {
namespace {

using pyfile::PyValue;

std::string scalar_text(const PyValue& v) {
  if (v.kind == PyValue::Kind::string || v.kind == PyValue::Kind::number) return v.text;
  return {};
}

void apply(TfBuildInfo& info, const std::string& key, const PyValue& v) {
  auto as_bool = [&](std::optional<bool>& dst) {
    if (v.kind == PyValue::Kind::boolean) {
      dst = v.boolean;
    } else if (v.kind == PyValue::Kind::string && (v.text == "True" || v.text == "False")) {
      dst = v.text == "True";
    } else {
      info.problems.push_back(key + " is not True/False");
    }
  };
  if (key == "is_cuda_build") {
    as_bool(info.is_cuda_build);
  } else if (key == "is_rocm_build") {
    as_bool(info.is_rocm_build);
  } else if (key == "is_tensorrt_build") {
    as_bool(info.is_tensorrt_build);
  } else if (key == "cuda_version" || key == "cuda_version_number") {
    info.cuda_version = scalar_text(v);
  } else if (key == "cudnn_version" || key == "cudnn_version_number") {
    info.cudnn_version = scalar_text(v);
  } else if (key == "cudart_dll_name") {
    info.cudart_dll_name = scalar_text(v);
  } else if (key == "cudnn_dll_name") {
    info.cudnn_dll_name = scalar_text(v);
  } else if (key == "cuda_compute_capabilities") {
    if (v.kind == PyValue::Kind::list) {
      for (const PyValue& item : v.items) {
        if (item.kind == PyValue::Kind::string) info.compute_capabilities.push_back(item.text);
      }
    } else if (v.kind == PyValue::Kind::string) {
      // Some builds write one comma-separated string.
      for (auto piece : split(v.text, ',')) {
        if (!trim(piece).empty()) info.compute_capabilities.emplace_back(trim(piece));
      }
    }
  }
}

/// The argument of OrderedDict(...) or the {...} of a dict display.
bool read_pairs(std::string_view text, TfBuildInfo& info) {
  size_t consumed = 0;
  PyValue list = pyfile::parse_literal(text, consumed);
  if (list.kind != PyValue::Kind::list) return false;
  for (const PyValue& pair : list.items) {
    if (pair.kind != PyValue::Kind::list || pair.items.size() != 2 || pair.items[0].kind != PyValue::Kind::string) {
      info.problems.push_back("build_info entry is not a (key, value) pair");
      continue;
    }
    apply(info, pair.items[0].text, pair.items[1]);
  }
  return true;
}

/// A `{'k': v, ...}` display rewritten into pairs, read entry by entry.
bool read_dict(std::string_view text, TfBuildInfo& info) {
  if (text.empty() || text[0] != '{') return false;
  size_t pos = 1;
  while (pos < text.size()) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos < text.size() && text[pos] == '}') return true;
    size_t used = 0;
    PyValue key = pyfile::parse_literal(text.substr(pos), used);
    if (key.kind != PyValue::Kind::string) return false;
    pos += used;
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos >= text.size() || text[pos] != ':') return false;
    ++pos;
    PyValue value = pyfile::parse_literal(text.substr(pos), used);
    if (value.kind == PyValue::Kind::unknown) return false;
    pos += used;
    apply(info, key.text, value);
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos < text.size() && text[pos] == ',') ++pos;
  }
  return false;
}

}  // namespace

std::string decode_windows_dll_version(std::string_view text) {
  if (!text.starts_with("64_")) return std::string(text);
  std::string_view d = text.substr(3);
  if (d.empty() || d.size() > 3 || !std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::string(text);
  }
  if (d.size() == 3) return std::string(d.substr(0, 2)) + "." + std::string(d.substr(2));
  // Two digits: CUDA 9.x wrote "90"/"92"; from CUDA 10 on a leading 1 is the major alone.
  if (d.size() == 2 && d[0] != '1') return std::string(d.substr(0, 1)) + "." + std::string(d.substr(1));
  return std::string(d);
}

TfBuildInfo parse_tf_build_info(std::string_view text) {
  TfBuildInfo info;
  if (pyfile::refuse_binary(text, "not a Python source file (binary content)", info.problems)) return info;
  if (size_t at = text.find("build_info"); at != std::string_view::npos) {
    size_t od = text.find("OrderedDict(", at);
    size_t line_end = text.find('\n', at);
    size_t brace = text.find('{', at);
    if (od != std::string_view::npos) {
      if (read_pairs(text.substr(od + 12), info)) {
        info.form = "ordered-dict";
      } else {
        info.problems.push_back("build_info = OrderedDict(...) is cut off or malformed");
      }
    } else if (brace != std::string_view::npos && brace < line_end) {
      if (read_dict(text.substr(brace), info)) {
        info.form = "dict";
      } else {
        info.problems.push_back("build_info = {...} is cut off or malformed");
      }
    }
  }
  if (info.form.empty()) {
    // Older TensorFlow: plain module attributes.
    auto assigned = pyfile::parse_assignments(text);
    bool any = false;
    for (const auto& [name, value] : assigned.values) {
      if (name == "is_cuda_build" || name == "is_rocm_build" || name == "cuda_version_number" ||
          name == "cudnn_version_number" || name == "is_tensorrt_build" || name == "cuda_version" ||
          name == "cudnn_version" || name == "cudart_dll_name" || name == "cudnn_dll_name" ||
          name == "cuda_compute_capabilities") {
        apply(info, name, value);
        any = true;
      }
    }
    for (auto& p : assigned.problems) info.problems.push_back(std::move(p));
    if (any) {
      info.form = "module-attributes";
    } else if (info.problems.empty()) {
      info.problems.push_back(
          "no build information found (neither build_info = ... nor "
          "is_cuda_build / cuda_version_number)");
    }
  }
  // Windows builds write DLL suffixes ("64_112" = CUDA 11.2); decoded after both forms are read.
  for (std::string* v : {&info.cuda_version, &info.cudnn_version}) {
    std::string decoded = decode_windows_dll_version(*v);
    if (decoded != *v) {
      info.dll_suffix_form = true;
      *v = decoded;
    }
  }
  return info;
}

}  // namespace gpudoctor
