#include "probe/python/tfp_import_checks.hpp"

#include "core/text.hpp"
#include "probe/python/python_literal.hpp"

namespace gpudoctor {
namespace {

/// `name` followed by the end of the statement, a comment or a separator: `import tf_keras`
/// and `import tf_keras  # pylint: ...`, not `import tf_keras_extra`.
bool names_module(std::string_view rest, std::string_view name) {
  if (!rest.starts_with(name)) return false;
  rest.remove_prefix(name.size());
  return rest.empty() || rest.front() == ' ' || rest.front() == '\t' || rest.front() == '#' || rest.front() == ',' ||
         rest.front() == '.' || rest.front() == '\r';
}

}  // namespace

TfpImportChecks read_tfp_import_checks(std::string_view init_py) {
  TfpImportChecks out;
  if (pyfile::looks_binary(init_py)) return out;
  constexpr std::string_view kFloor = "required_tensorflow_version";
  size_t pos = 0;
  while (pos < init_py.size()) {
    size_t end = init_py.find('\n', pos);
    if (end == std::string_view::npos) end = init_py.size();
    std::string_view line = trim(init_py.substr(pos, end - pos));
    pos = end + 1;
    // A comment (`#   required_tensorflow_version = '1.15'`) starts with neither name.
    if (names_module(line, "import tf_keras") || names_module(line, "from tf_keras")) {
      out.imports_tf_keras = true;
      continue;
    }
    if (out.tensorflow_floor || !line.starts_with(kFloor)) continue;
    std::string_view rest = trim(line.substr(kFloor.size()));
    // An assignment, not a comparison (`required_tensorflow_version == ...`).
    if (!rest.starts_with('=') || rest.starts_with("==")) continue;
    rest = trim(rest.substr(1));
    size_t used = 0;
    pyfile::PyValue value = pyfile::parse_literal(rest, used);
    if (value.kind != pyfile::PyValue::Kind::string) continue;
    if (auto v = Version::parse(value.text); v && !v->parts().empty()) out.tensorflow_floor = *v;
  }
  return out;
}

}  // namespace gpudoctor
