#pragma once
/// JSON forms of the model (facts, findings, GPU reports): the one codec, shared by every JSON
/// renderer and by the processes that hand reports to each other. Unknown values
/// are null, numbers are numbers, units are in the key names.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "model/bench_report.hpp"
#include "model/facts.hpp"
#include "model/finding.hpp"
#include "model/fleet.hpp"
#include "model/gpu_reports.hpp"
#include "model/monitor_snapshot.hpp"
#include "model/verify_report.hpp"

namespace gpudoctor {

/// While one lives (on this thread), reading notes every field whose JSON had another type than
/// the field, and every list element dropped for it, by its path ("measurements[2].value"):
/// reading stays lenient for what another process wrote, but a file a user hands over
/// (`report --html --bench FILE`) is refused rather than drawn without a figure.
class MistypedFields {
 public:
  MistypedFields();
  ~MistypedFields();
  MistypedFields(const MistypedFields&) = delete;
  MistypedFields& operator=(const MistypedFields&) = delete;
  /// The first paths noted (at most 20), in reading order.
  [[nodiscard]] const std::vector<std::string>& paths() const { return paths_; }

 private:
  std::vector<std::string> paths_;
  std::vector<std::string>* outer_ = nullptr;  ///< the collector this one stands in for
};

nlohmann::ordered_json facts_to_json(const Facts& facts);
nlohmann::ordered_json finding_to_json(const Finding& finding);
nlohmann::ordered_json findings_to_json(const std::vector<Finding>& findings);

/// The GPU reports both ways: a child writes them, its parent (and later fleet) reads them
/// back. Reading is lenient: a missing or mistyped key leaves the field at its default, since
/// the text comes from another process that may have died half-way.
nlohmann::ordered_json report_to_json(const NvmlReport& report);
nlohmann::ordered_json report_to_json(const CudaDriverReport& report);
void report_from_json(const nlohmann::ordered_json& j, NvmlReport& report);
void report_from_json(const nlohmann::ordered_json& j, CudaDriverReport& report);

/// verify's parts (model/verify_report.hpp), both ways for the same reason; verify --json
/// prints verify_report_to_json.
nlohmann::ordered_json report_to_json(const RuntimeLibraryReport& report);
void report_from_json(const nlohmann::ordered_json& j, RuntimeLibraryReport& report);
nlohmann::ordered_json step_to_json(const VerifyStep& step);
void step_from_json(const nlohmann::ordered_json& j, VerifyStep& step);
nlohmann::ordered_json verify_report_to_json(const VerifyReport& report);
/// `verify --json` read back (`report --html --verify`); false when j is not an object with a
/// "steps" array.
bool verify_report_from_json(const nlohmann::ordered_json& j, VerifyReport& report);
/// The doctor's report read back (`report --html --from-json`, fleet's rank 0 reading every
/// node's report): the inverse of facts_to_json and findings_to_json, as lenient as the GPU
/// readers. A finding's unknown severity or area is read as info / system.
void facts_from_json(const nlohmann::ordered_json& j, Facts& facts);
std::vector<Finding> findings_from_json(const nlohmann::ordered_json& j);
/// A whole `doctor --json` document: facts and findings. False (outputs untouched) when doc is
/// not an object with a "facts" object and a "findings" array.
bool doctor_report_from_json(const nlohmann::ordered_json& doc, Facts& facts, std::vector<Finding>& findings);
/// A monitor snapshot, as `watch --jsonl` writes one per line (unknown fields are null).
nlohmann::ordered_json snapshot_to_json(const Snapshot& snapshot);
/// One line of `watch --jsonl` read back (`report --html --watch`); false when j is not an object
/// with a "time_ms" number and a "gpus" array.
bool snapshot_from_json(const nlohmann::ordered_json& j, Snapshot& snapshot);
/// The GPU part both ways: the GPU agent's "sample" op writes it, the sampler reads it back
/// (leniently, as the reports above).
nlohmann::ordered_json gpu_samples_to_json(const std::vector<GpuSample>& gpus);
void gpu_samples_from_json(const nlohmann::ordered_json& j, std::vector<GpuSample>& gpus);

/// bench's parts (model/bench_report.hpp), both ways: a child writes a measurement, the parent
/// reads it back; the history keeps whole reports and reads them back for --compare. Reading is
/// lenient, as for the GPU reports.
nlohmann::ordered_json measurement_to_json(const BenchMeasurement& m);
void measurement_from_json(const nlohmann::ordered_json& j, BenchMeasurement& m);
/// The whole report: "results" maps each JSON key ("cpu.sgemm_fp32.gflops") to its median (null
/// when it did not run), "measurements" holds every figure in full.
nlohmann::ordered_json bench_report_to_json(const BenchReport& report);
void bench_report_from_json(const nlohmann::ordered_json& j, BenchReport& report);
/// The multi-GPU child's topology line; false for junk.
nlohmann::ordered_json bench_topology_to_json(const BenchTopology& topology);
bool bench_topology_from_json(const nlohmann::ordered_json& j, BenchTopology& topology);

/// The fleet's report (docs/fleet.md): every node in rank order with its runs and GPU memory
/// health, the groups, what differs, the collapsed findings, outliers, NCCL and bench summaries.
/// render_fleet_json puts the schema version and the tool in front of it.
nlohmann::ordered_json fleet_report_to_json(const FleetReport& report);
/// A fleet JSON document (render/fleet_report.hpp's render_fleet_json) read back,
/// for `report --html --fleet`: every part the fleet printed, as leniently as the readers above
/// (the file is the user's). A node's facts are only what the document holds (its GPUs' memory
/// health), and its findings only the warnings and errors the fleet collapsed. False when doc is
/// not an object with a "nodes" array, or when reading it would make more than 65,536 nodes or
/// 262,144 GPUs (junk: no fleet is that large, and a small file could ask for gigabytes).
bool fleet_report_from_json(const nlohmann::ordered_json& doc, FleetReport& report);

}  // namespace gpudoctor
