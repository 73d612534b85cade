#pragma once
/// bench's local history: every run kept in an SQLite database (Debian's libsqlite3), so that
/// `bench --compare` can name what changed since the last run of the same mode (after a driver
/// update, say). One row per run with its whole report as JSON, and one row per figure, so the
/// history can be queried with the sqlite3 shell:
///
///   SELECT r.started_utc, f.value FROM figures f JOIN runs r ON r.id = f.run_id
///   WHERE f.key = 'cpu.sgemm_fp32.gflops';
#include <memory>
#include <optional>
#include <string>

#include "core/result.hpp"
#include "model/bench_report.hpp"

struct sqlite3;

namespace gpudoctor {

class BenchHistory {
 public:
  /// Opens (creating the file and its parent folder when absent) the history at `path`.
  static Result<BenchHistory> open(const std::string& path);
  /// $XDG_DATA_HOME/gpudoctor/bench.sqlite, else ~/.local/share/gpudoctor/bench.sqlite; "" when
  /// neither variable is set.
  static std::string default_path(const char* xdg_data_home, const char* home);

  /// Keeps the run; returns its id.
  Result<long long> add(const BenchReport& report);
  /// The latest run of `mode` (quick, default, full) on `host`, nullopt when there is none: a
  /// history shared by several machines never compares one with another.
  Result<std::optional<BenchReport>> last(const std::string& mode, const std::string& host);
  /// Up to `n` runs of that mode and host, newest first; rows that are not readable are left out.
  Result<std::vector<BenchReport>> recent(const std::string& mode, const std::string& host, int n);
  /// How many runs are kept.
  Result<long long> count();

  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  /// Up to `n` runs, newest first; an unreadable row is skipped or is the error.
  Result<std::vector<BenchReport>> read_runs(const std::string& mode, const std::string& host, int n,
                                             bool skip_unreadable);
  struct Close {
    void operator()(sqlite3* db) const;
  };
  std::unique_ptr<sqlite3, Close> db_;
  std::string path_;
};

}  // namespace gpudoctor
