#include "platform/bench_history.hpp"

#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "model/json_codec.hpp"

namespace gpudoctor {
namespace {

Error db_error(sqlite3* db, const std::string& what, const std::string& path) {
  return Error{ErrorKind::io_error, what + ": " + (db != nullptr ? sqlite3_errmsg(db) : "out of memory"), path,
               db != nullptr ? sqlite3_errcode(db) : SQLITE_NOMEM};
}

/// A prepared statement, finalized on every path.
struct Statement {
  sqlite3_stmt* s = nullptr;
  Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement() { sqlite3_finalize(s); }
};

constexpr const char* kSchema = R"SQL(
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  started_utc TEXT NOT NULL,
  mode TEXT NOT NULL,
  host TEXT NOT NULL,
  report_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS figures (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  key TEXT NOT NULL,
  value REAL,
  spread_pct REAL NOT NULL,
  status TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS figures_key ON figures(key);
)SQL";

/// The mark bench sets on its own file: SQLite's application_id, the 32-bit integer at offset 68
/// of the database header (https://www.sqlite.org/pragma.html#pragma_application_id), "GPDB".
constexpr long long kApplicationId = 0x47504442;

/// One integer a statement answers; nullopt with SQLite's message in `error`.
std::optional<long long> query_int(sqlite3* db, const char* sql, std::string& error) {
  Statement st;
  if (sqlite3_prepare_v2(db, sql, -1, &st.s, nullptr) != SQLITE_OK || sqlite3_step(st.s) != SQLITE_ROW) {
    error = sqlite3_errmsg(db);
    return std::nullopt;
  }
  return static_cast<long long>(sqlite3_column_int64(st.s, 0));
}

/// Why the database at `db` is not bench's, "" when it is: marked as bench's, or unmarked with no
/// table but bench's own (new, or written by a release from before the mark). Another program's
/// database is never written into (a typo in --history must not add tables to it).
std::string foreign_database(sqlite3* db, std::string& error) {
  const auto id = query_int(db, "PRAGMA application_id", error);
  if (!id) return "";
  if (*id == kApplicationId) return "";
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%08llx", static_cast<unsigned long long>(*id) & 0xFFFFFFFFULL);
  if (*id != 0) return std::string("it is another program's database (SQLite application_id ") + hex + ")";
  Statement st;
  if (sqlite3_prepare_v2(db,
                         "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' "
                         "AND name NOT IN ('runs', 'figures') ORDER BY name LIMIT 4",
                         -1, &st.s, nullptr) != SQLITE_OK) {
    error = sqlite3_errmsg(db);
    return "";
  }
  std::string others;
  int rc = SQLITE_ROW;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW) {
    const auto* name = reinterpret_cast<const char*>(sqlite3_column_text(st.s, 0));
    others += (others.empty() ? "" : ", ") + std::string(name != nullptr ? name : "");
  }
  if (rc != SQLITE_DONE) {
    error = sqlite3_errmsg(db);
    return "";
  }
  if (others.empty()) return "";
  return "it is another program's database (it holds " + others + ", which bench never makes)";
}

}  // namespace

void BenchHistory::Close::operator()(sqlite3* db) const {
  sqlite3_close(db);
}

std::string BenchHistory::default_path(const char* xdg_data_home, const char* home) {
  if (xdg_data_home != nullptr && *xdg_data_home == '/') return std::string(xdg_data_home) + "/gpudoctor/bench.sqlite";
  if (home != nullptr && *home == '/') return std::string(home) + "/.local/share/gpudoctor/bench.sqlite";
  return "";
}

Result<BenchHistory> BenchHistory::open(const std::string& path) {
  std::error_code ec;
  std::filesystem::path file = path;
  std::filesystem::path parent = file.parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  // SQLite's no-follow flag refuses a link anywhere in the path: the directories are the user's
  // own (a $HOME reached through /home -> /var/home), so they are resolved first, and only the
  // file itself must not be a link.
  if (!parent.empty()) {
    std::filesystem::path real = std::filesystem::canonical(parent, ec);
    if (!ec) file = real / file.filename();
  }
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(file.string().c_str(), &raw,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, nullptr);
  BenchHistory h;
  h.db_.reset(raw);
  h.path_ = path;
  if (rc != SQLITE_OK && std::filesystem::is_symlink(file, ec)) {
    return Error{ErrorKind::invalid_data,
                 "the bench history is a symbolic link, and is never written through one (give --history the file "
                 "itself)",
                 path, 0};
  }
  if (rc != SQLITE_OK) return db_error(raw, "cannot open the bench history", path);
  // Another bench writing at the same moment waits rather than failing.
  sqlite3_busy_timeout(raw, 5000);
  std::string error;
  const std::string foreign = foreign_database(raw, error);
  if (!error.empty()) return Error{ErrorKind::invalid_data, "the bench history is not usable: " + error, path, 0};
  if (!foreign.empty()) {
    return Error{ErrorKind::invalid_data,
                 "the bench history " + path + " is not bench's: " + foreign +
                     "; nothing was written to it (give --history a file of its own)",
                 path, 0};
  }
  char* message = nullptr;
  if (sqlite3_exec(raw, kSchema, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    return Error{ErrorKind::invalid_data, "the bench history is not usable: " + text, path, 0};
  }
  // Marked as bench's from now on; a read-only history stays readable unmarked. Only once: the
  // mark is a write, which would wait on a concurrent bench's transaction at every open.
  std::string unread;
  if (query_int(raw, "PRAGMA application_id", unread) != std::optional<long long>(kApplicationId)) {
    const std::string mark = "PRAGMA application_id = " + std::to_string(kApplicationId);
    (void)sqlite3_exec(raw, mark.c_str(), nullptr, nullptr, nullptr);
  }
  return h;
}

Result<long long> BenchHistory::add(const BenchReport& report) {
  sqlite3* db = db_.get();
  const std::string text =
      bench_report_to_json(report).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) return db_error(db, "begin", path_);
  auto rollback = [&](const char* what) {
    Error e = db_error(db, what, path_);
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    return e;
  };
  long long id = 0;
  {
    Statement st;
    if (sqlite3_prepare_v2(db, "INSERT INTO runs (started_utc, mode, host, report_json) VALUES (?, ?, ?, ?)", -1, &st.s,
                           nullptr) != SQLITE_OK) {
      return rollback("prepare");
    }
    sqlite3_bind_text(st.s, 1, report.started_utc.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st.s, 2, report.mode.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st.s, 3, report.host.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st.s, 4, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    if (sqlite3_step(st.s) != SQLITE_DONE) return rollback("insert run");
    id = sqlite3_last_insert_rowid(db);
  }
  for (const auto& m : report.measurements) {
    Statement st;
    if (sqlite3_prepare_v2(db, "INSERT INTO figures (run_id, key, value, spread_pct, status) VALUES (?, ?, ?, ?, ?)",
                           -1, &st.s, nullptr) != SQLITE_OK) {
      return rollback("prepare");
    }
    const std::string key = m.json_key();
    sqlite3_bind_int64(st.s, 1, id);
    sqlite3_bind_text(st.s, 2, key.c_str(), -1, SQLITE_TRANSIENT);
    if (m.ok())
      sqlite3_bind_double(st.s, 3, *m.value);
    else
      sqlite3_bind_null(st.s, 3);
    sqlite3_bind_double(st.s, 4, m.spread_pct);
    sqlite3_bind_text(st.s, 5, to_string(m.status), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st.s) != SQLITE_DONE) return rollback("insert figure");
  }
  if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) return rollback("commit");
  return id;
}

Result<std::optional<BenchReport>> BenchHistory::last(const std::string& mode, const std::string& host) {
  auto runs = read_runs(mode, host, 1, false);
  if (!runs) return runs.error();
  if (runs->empty()) return std::optional<BenchReport>();
  return std::optional<BenchReport>(std::move(runs->front()));
}

Result<std::vector<BenchReport>> BenchHistory::recent(const std::string& mode, const std::string& host, int n) {
  return read_runs(mode, host, n, true);
}

Result<std::vector<BenchReport>> BenchHistory::read_runs(const std::string& mode, const std::string& host, int n,
                                                         bool skip_unreadable) {
  sqlite3* db = db_.get();
  Statement st;
  if (sqlite3_prepare_v2(db, "SELECT report_json FROM runs WHERE mode = ? AND host = ? ORDER BY id DESC LIMIT ?", -1,
                         &st.s, nullptr) != SQLITE_OK) {
    return db_error(db, "prepare", path_);
  }
  sqlite3_bind_text(st.s, 1, mode.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.s, 2, host.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st.s, 3, n);
  std::vector<BenchReport> runs;
  int rc = SQLITE_ROW;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st.s, 0));
    auto doc = nlohmann::ordered_json::parse(text != nullptr ? text : "", nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
      if (skip_unreadable) continue;
      return Error{ErrorKind::invalid_data, "the last run in the bench history is not readable JSON", path_, 0};
    }
    BenchReport report;
    bench_report_from_json(doc, report);
    runs.push_back(std::move(report));
  }
  if (rc != SQLITE_DONE) return db_error(db, "read the earlier runs", path_);
  return runs;
}

Result<long long> BenchHistory::count() {
  Statement st;
  if (sqlite3_prepare_v2(db_.get(), "SELECT COUNT(*) FROM runs", -1, &st.s, nullptr) != SQLITE_OK ||
      sqlite3_step(st.s) != SQLITE_ROW) {
    return db_error(db_.get(), "count runs", path_);
  }
  return static_cast<long long>(sqlite3_column_int64(st.s, 0));
}

}  // namespace gpudoctor
