#include "core/storage/historymaintenance.h"

#include "core/storage/runowner.h"
#include "core/storage/schema.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"

#include <QDateTime>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <csignal>

namespace Throughline {

namespace {

Status openRw(SqliteDb &db, const std::string &path)
{
    if (auto s = db.open(path, SqliteDb::Mode::ReadWrite); !s)
        return s;
    if (auto s = Schema::configureWriter(db); !s)
        return s;
    return Schema::migrate(db);
}

} // namespace

Result<std::vector<std::string>> HistoryMaintenance::recoverCrashedRuns(SqliteDb &db)
{
    std::vector<std::string> crashed;
    auto st = db.prepare(std::string("SELECT uuid, ") + RunOwnership::kColumns +
                         " FROM runs WHERE status = 'running'");
    if (!st)
        return st.error();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    while (st->step() == 100) {
        if (RunOwnership::ownerGone(RunOwnership::read(*st, 1), now))
            crashed.push_back(st->colText(0));
    }
    st->reset();
    for (const std::string &uuid : crashed) {
        auto up = db.prepare("UPDATE runs SET status = 'crashed' WHERE uuid = ? AND status = 'running'");
        if (!up)
            return up.error();
        if (!up->bind(1, uuid).run())
            return db.lastError("mark run crashed");
    }
    return crashed;
}

Result<HistoryMaintenance::SizeInfo> HistoryMaintenance::size(const std::string &path)
{
    SqliteDb db;
    if (auto s = db.open(path, SqliteDb::Mode::ReadOnly); !s)
        return s.error();
    SizeInfo info;
    info.fileBytes = QFileInfo(QString::fromStdString(path)).size() +
                     QFileInfo(QString::fromStdString(path + "-wal")).size();
    auto q = [&](const char *sql, std::int64_t &into) -> Status {
        auto v = db.queryInt(sql);
        if (!v)
            return v.error();
        into = *v;
        return Ok{};
    };
    for (auto [sql, into] : std::initializer_list<std::pair<const char *, std::int64_t *>>{
             {"PRAGMA page_count", &info.pageCount},
             {"PRAGMA freelist_count", &info.freePages},
             {"PRAGMA page_size", &info.pageSize},
             {"SELECT count(*) FROM runs", &info.runs},
             {"SELECT max(rowid) FROM requests", &info.requests},
             {"SELECT count(*) FROM request_events", &info.eventBlobs},
             {"SELECT COALESCE(sum(length(blob)), 0) FROM request_events", &info.eventBytes}}) {
        if (auto s = q(sql, *into); !s)
            return s.error();
    }
    // max(rowid) is O(1); report the exact count only when it is cheap to be exact.
    if (auto exact = db.queryInt("SELECT count(*) FROM requests"); exact)
        info.requests = *exact;
    return info;
}

Result<std::int64_t> HistoryMaintenance::pruneEvents(const std::string &path, int days)
{
    SqliteDb db;
    if (auto s = openRw(db, path); !s)
        return s.error();
    const std::string cutoff =
        QDateTime::currentDateTimeUtc().addDays(-days).toString(Qt::ISODateWithMs).toStdString();
    const std::string sub = "(SELECT q.id FROM requests q JOIN points p ON p.id = q.point_id JOIN runs r ON "
                            "r.id = p.run_id WHERE r.started_utc < ? AND r.status != 'running')";
    if (auto s = db.exec("BEGIN IMMEDIATE"); !s)
        return s.error();
    std::int64_t removed = 0;
    for (const char *table : {"request_events", "request_text"}) {
        auto st = db.prepare(std::string("DELETE FROM ") + table + " WHERE request_id IN " + sub);
        if (!st) {
            (void)db.exec("ROLLBACK");
            return st.error();
        }
        if (!st->bind(1, cutoff).run()) {
            auto e = db.lastError("prune events");
            (void)db.exec("ROLLBACK");
            return e;
        }
        if (std::string(table) == "request_events")
            removed = db.changes();
    }
    if (auto s = db.exec("COMMIT"); !s)
        return s.error();
    return removed;
}

Status HistoryMaintenance::deleteRequestRows(SqliteDb &db, const std::string &pointIds)
{
    const std::string sub = "(SELECT id FROM requests WHERE point_id IN " + pointIds + ")";
    return db.exec("DELETE FROM request_events WHERE request_id IN " + sub +
                   ";"
                   "DELETE FROM request_text WHERE request_id IN " +
                   sub +
                   ";"
                   "DELETE FROM request_errors WHERE request_id IN " +
                   sub +
                   ";"
                   "DELETE FROM requests WHERE point_id IN " +
                   pointIds + ";DELETE FROM request_metric_chunks WHERE point_id IN " + pointIds +
                   ";DELETE FROM request_breakdowns WHERE point_id IN " + pointIds + ";");
}

Status HistoryMaintenance::deleteRunRows(SqliteDb &db, std::int64_t runId)
{
    const std::string id = std::to_string(runId);
    if (auto s = deleteRequestRows(db, "(SELECT id FROM points WHERE run_id = " + id + ")"); !s)
        return s;
    return db.exec("DELETE FROM points WHERE run_id = " + id +
                   ";"
                   "DELETE FROM scenarios WHERE run_id = " +
                   id +
                   ";"
                   "DELETE FROM run_tags WHERE run_id = " +
                   id +
                   ";"
                   "DELETE FROM targets_used WHERE run_id = " +
                   id +
                   ";"
                   "DELETE FROM telemetry_series WHERE run_id = " +
                   id +
                   ";"
                   "DELETE FROM telemetry_sources WHERE run_id = " +
                   id +
                   ";"
                   "DELETE FROM point_telemetry WHERE run_id = " +
                   id +
                   ";"
                   "DELETE FROM runs WHERE id = " +
                   id +
                   ";"
                   "DELETE FROM campaigns WHERE id NOT IN (SELECT campaign_id FROM runs WHERE campaign_id IS "
                   "NOT NULL);");
}

Status HistoryMaintenance::deleteRuns(const std::string &path, const std::vector<std::string> &uuids)
{
    SqliteDb db;
    if (auto s = openRw(db, path); !s)
        return s;
    if (auto s = db.exec("BEGIN IMMEDIATE"); !s)
        return s;
    for (const std::string &uuid : uuids) {
        auto st = db.prepare("SELECT id FROM runs WHERE uuid = ?");
        if (!st)
            return st.error();
        st->bind(1, uuid);
        if (st->step() != 100) {
            (void)db.exec("ROLLBACK");
            return makeError(ErrorCode::NotFound, "run " + uuid + " is not in " + path);
        }
        const std::int64_t id = st->colInt(0);
        st->reset();
        if (auto s = deleteRunRows(db, id); !s) {
            (void)db.exec("ROLLBACK");
            return s;
        }
    }
    return db.exec("COMMIT");
}

namespace {

// Row id of a run inside the caller's transaction; NotFound names the run and the file.
Result<std::int64_t> runRowId(SqliteDb &db, const std::string &uuid)
{
    auto st = db.prepare("SELECT id FROM runs WHERE uuid = ?");
    if (!st)
        return st.error();
    st->bind(1, uuid);
    if (st->step() != 100)
        return makeError(ErrorCode::NotFound, "run " + uuid + " is not in " + db.path());
    return st->colInt(0);
}

std::string trimmed(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// Runs `body` inside BEGIN IMMEDIATE … COMMIT; rolls back when it fails. Errors get `what` in front.
template <typename F>
Status inWriteTransaction(SqliteDb &db, const std::string &what, F &&body)
{
    if (auto s = db.exec("BEGIN IMMEDIATE"); !s)
        return makeError(s.error().code, what + ": " + s.error().message);
    Status s = body();
    if (!s) {
        (void)db.exec("ROLLBACK");
        return s;
    }
    if (auto c = db.exec("COMMIT"); !c) {
        (void)db.exec("ROLLBACK");
        return makeError(c.error().code, what + ": " + c.error().message);
    }
    return Ok{};
}

} // namespace

Status HistoryMaintenance::setTags(const std::string &path, const std::string &uuid,
                                   const std::vector<std::string> &tags)
{
    std::vector<std::string> clean;
    for (const std::string &t : tags) {
        std::string tag = trimmed(t);
        if (tag.empty())
            continue;
        if (tag.find(',') != std::string::npos)
            return makeError(ErrorCode::InvalidInput,
                             "tag '" + tag + "' of run " + uuid + " contains a comma (one tag per entry)");
        if (std::find(clean.begin(), clean.end(), tag) == clean.end())
            clean.push_back(std::move(tag));
    }
    SqliteDb db;
    if (auto s = openRw(db, path); !s)
        return makeError(s.error().code, "set tags of run " + uuid + ": " + s.error().message);
    return inWriteTransaction(db, "set tags of run " + uuid, [&]() -> Status {
        auto id = runRowId(db, uuid);
        if (!id)
            return id.error();
        auto del = db.prepare("DELETE FROM run_tags WHERE run_id = ?");
        if (!del)
            return del.error();
        if (!del->bind(1, *id).run())
            return db.lastError("delete tags of run " + uuid);
        auto ins = db.prepare("INSERT OR IGNORE INTO run_tags(run_id, tag) VALUES(?, ?)");
        if (!ins)
            return ins.error();
        for (const std::string &tag : clean) {
            if (!ins->bind(1, *id).bind(2, tag).run())
                return db.lastError("insert tag '" + tag + "' of run " + uuid);
        }
        return Ok{};
    });
}

Status HistoryMaintenance::setNotes(const std::string &path, const std::string &uuid,
                                    const std::string &notes)
{
    SqliteDb db;
    if (auto s = openRw(db, path); !s)
        return makeError(s.error().code, "set notes of run " + uuid + ": " + s.error().message);
    return inWriteTransaction(db, "set notes of run " + uuid, [&]() -> Status {
        auto id = runRowId(db, uuid);
        if (!id)
            return id.error();
        auto up = db.prepare("UPDATE runs SET notes = ? WHERE id = ?");
        if (!up)
            return up.error();
        if (!up->bind(1, notes).bind(2, *id).run())
            return db.lastError("update notes of run " + uuid);
        return Ok{};
    });
}

Status HistoryMaintenance::vacuum(const std::string &path)
{
    SqliteDb db;
    if (auto s = openRw(db, path); !s)
        return s;
    if (auto s = db.exec("VACUUM"); !s)
        return s;
    return db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

} // namespace Throughline
