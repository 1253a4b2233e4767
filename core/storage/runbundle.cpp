#include "core/storage/runbundle.h"

#include "core/storage/runcopier.h"
#include "core/storage/schema.h"
#include "core/storage/sqlitedb.h"

#include <QFile>
#include <QFileInfo>

namespace Throughline {

namespace {

std::string quoted(const std::string &s)
{
    std::string out = "'";
    for (char c : s) {
        out += c;
        if (c == '\'')
            out += '\'';
    }
    return out + "'";
}

Status rollbackWith(SqliteDb &db, Error e)
{
    (void)db.exec("ROLLBACK");
    return e;
}

} // namespace

bool RunBundle::looksLikeSqlite(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    return f.read(16) == QByteArray("SQLite format 3\0", 16);
}

Status RunBundle::createEmpty(const std::string &bundlePath)
{
    const QString qp = QString::fromStdString(bundlePath);
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
        QFile::remove(qp + QString::fromLatin1(suffix));
    SqliteDb db;
    if (auto s = db.open(bundlePath); !s)
        return s;
    if (auto s = db.exec("PRAGMA journal_mode=DELETE; PRAGMA foreign_keys=ON;"); !s)
        return s;
    if (auto s = Schema::migrate(db); !s)
        return s;
    return db.exec(std::string("INSERT INTO meta(key, value) VALUES('format', '") + kFormat + "')");
}

Status RunBundle::finalize(const std::string &bundlePath)
{
    SqliteDb db;
    if (auto s = db.open(bundlePath, SqliteDb::Mode::ReadWrite); !s)
        return s;
    return db.exec("PRAGMA journal_mode=DELETE");
}

Status RunBundle::exportRun(const std::string &historyPath, const std::string &uuid,
                            const std::string &bundlePath)
{
    if (QFileInfo(QString::fromStdString(bundlePath)).absoluteFilePath() ==
        QFileInfo(QString::fromStdString(historyPath)).absoluteFilePath())
        return makeError(ErrorCode::InvalidInput,
                         "bundle path " + bundlePath + " is the history database itself");
    if (auto s = createEmpty(bundlePath); !s)
        return s;
    SqliteDb db;
    if (auto s = db.open(bundlePath, SqliteDb::Mode::ReadWrite); !s)
        return s;
    if (auto s = db.exec("ATTACH DATABASE " + quoted("file:" + historyPath + "?mode=ro") + " AS src"); !s) {
        // Older builds may lack URI support for ATTACH: fall back to a plain path.
        if (auto s2 = db.exec("ATTACH DATABASE " + quoted(historyPath) + " AS src"); !s2)
            return s2;
    }
    auto id = db.prepare("SELECT id FROM src.runs WHERE uuid = ?");
    if (!id)
        return id.error();
    id->bind(1, uuid);
    if (id->step() != 100)
        return makeError(ErrorCode::NotFound, "run " + uuid + " is not in " + historyPath);
    const std::int64_t runId = id->colInt(0);
    id->reset();
    if (auto s = db.exec("BEGIN"); !s)
        return s;
    if (auto r = RunCopier::copyRun(db, "src", "main", runId); !r)
        return rollbackWith(db, r.error());
    if (auto s = db.exec("COMMIT"); !s)
        return s;
    (void)db.exec("DETACH DATABASE src");
    return Ok{};
}

Result<std::string> RunBundle::runUuid(const std::string &bundlePath)
{
    if (!QFileInfo::exists(QString::fromStdString(bundlePath)))
        return makeError(ErrorCode::NotFound, "bundle " + bundlePath + " does not exist");
    if (!looksLikeSqlite(bundlePath))
        return makeError(ErrorCode::InvalidInput, bundlePath + " is not a run bundle (not an SQLite file)");
    SqliteDb db;
    if (auto s = db.open(bundlePath, SqliteDb::Mode::ReadOnly); !s)
        return s.error();
    auto v = Schema::version(db);
    if (!v)
        return v.error();
    if (*v < Schema::kOldestImportableBundle || *v > Schema::kVersion)
        return makeError(*v > Schema::kVersion ? ErrorCode::Unsupported : ErrorCode::InvalidInput,
                         bundlePath + " has schema version " + std::to_string(*v) + ", expected " +
                             std::to_string(Schema::kOldestImportableBundle) + " to " +
                             std::to_string(Schema::kVersion));
    auto n = db.queryInt("SELECT count(*) FROM runs");
    if (!n)
        return n.error();
    if (*n != 1)
        return makeError(ErrorCode::InvalidInput,
                         bundlePath + " holds " + std::to_string(*n) + " runs; a bundle holds exactly one");
    return db.queryText("SELECT uuid FROM runs");
}

Result<std::string> RunBundle::importBundle(const std::string &bundlePath, const std::string &historyPath)
{
    auto uuid = runUuid(bundlePath);
    if (!uuid)
        return uuid.error();
    SqliteDb db;
    if (auto s = db.open(historyPath); !s)
        return s.error();
    if (auto s = Schema::configureWriter(db); !s)
        return s.error();
    if (auto s = Schema::migrate(db); !s)
        return s.error();
    if (auto s = db.exec("ATTACH DATABASE " + quoted(bundlePath) + " AS src"); !s)
        return s.error();
    auto exists = db.prepare("SELECT count(*) FROM main.runs WHERE uuid = ?");
    if (!exists)
        return exists.error();
    exists->bind(1, *uuid);
    exists->step();
    if (exists->colInt(0) > 0)
        return makeError(ErrorCode::InvalidInput,
                         "run " + *uuid + " from " + bundlePath + " is already in " + historyPath);
    exists->reset();
    auto srcId = db.queryInt("SELECT id FROM src.runs");
    if (!srcId)
        return srcId.error();
    if (auto s = db.exec("BEGIN IMMEDIATE"); !s)
        return s.error();
    if (auto r = RunCopier::copyRun(db, "src", "main", *srcId); !r) {
        (void)db.exec("ROLLBACK");
        return r.error();
    }
    if (auto s = db.exec("COMMIT"); !s)
        return s.error();
    (void)db.exec("DETACH DATABASE src");
    return *uuid;
}

} // namespace Throughline
