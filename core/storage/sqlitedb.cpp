#include "core/storage/sqlitedb.h"

#include <sqlite3.h>

#include <utility>

namespace Throughline {

SqliteDb::~SqliteDb()
{
    close();
}

SqliteDb::SqliteDb(SqliteDb &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_path(std::move(other.m_path))
{
}

SqliteDb &SqliteDb::operator=(SqliteDb &&other) noexcept
{
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

Status SqliteDb::open(const std::string &path, Mode mode, int busyTimeoutMs)
{
    close();
    // Once per process, before SQLite initialises: no global memory statistics (a mutex per allocation).
    static const bool configured = [] { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK; }();
    (void)configured;
    m_path = path;
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
    case Mode::ReadWriteCreate:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    case Mode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    }
    sqlite3 *db = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg =
            "cannot open database " + path + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        if (db)
            sqlite3_close_v2(db);
        return makeError(ErrorCode::Storage, msg);
    }
    m_db = db;
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, busyTimeoutMs);
    return Ok{};
}

void SqliteDb::close()
{
    if (m_db) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
    }
}

Status SqliteDb::exec(std::string_view sql)
{
    std::string s(sql);
    char *err = nullptr;
    const int rc = sqlite3_exec(m_db, s.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        std::string msg = "SQLite error in " + m_path + ": " + (err ? err : sqlite3_errstr(rc)) + " (code " +
                          std::to_string(rc) + ")";
        sqlite3_free(err);
        return makeError(ErrorCode::Storage, msg);
    }
    return Ok{};
}

Result<SqliteStmt> SqliteDb::prepare(std::string_view sql)
{
    sqlite3_stmt *stmt = nullptr;
    const int rc = sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc != SQLITE_OK)
        return lastError("prepare '" + std::string(sql.substr(0, 60)) + "'");
    return SqliteStmt(stmt, m_db);
}

Result<std::int64_t> SqliteDb::queryInt(std::string_view sql, std::int64_t fallback)
{
    auto st = prepare(sql);
    if (!st)
        return st.error();
    const int rc = st->step();
    if (rc == SQLITE_ROW)
        return st->colIsNull(0) ? fallback : st->colInt(0);
    if (rc == SQLITE_DONE)
        return fallback;
    return lastError("query");
}

Result<std::string> SqliteDb::queryText(std::string_view sql, std::string fallback)
{
    auto st = prepare(sql);
    if (!st)
        return st.error();
    const int rc = st->step();
    if (rc == SQLITE_ROW)
        return st->colIsNull(0) ? fallback : st->colText(0);
    if (rc == SQLITE_DONE)
        return fallback;
    return lastError("query");
}

std::int64_t SqliteDb::lastInsertId() const
{
    return sqlite3_last_insert_rowid(m_db);
}
int SqliteDb::changes() const
{
    return sqlite3_changes(m_db);
}

Error SqliteDb::lastError(std::string_view what) const
{
    const int code = m_db ? sqlite3_extended_errcode(m_db) : SQLITE_MISUSE;
    std::string msg = "SQLite error in " + m_path + " (" + std::string(what) +
                      "): " + (m_db ? sqlite3_errmsg(m_db) : "not open") + " (code " + std::to_string(code) +
                      ")";
    return makeError(ErrorCode::Storage, msg);
}

SqliteStmt::~SqliteStmt()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

SqliteStmt::SqliteStmt(SqliteStmt &&other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr))
    , m_db(other.m_db)
{
}

SqliteStmt &SqliteStmt::operator=(SqliteStmt &&other) noexcept
{
    if (this != &other) {
        if (m_stmt)
            sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_db = other.m_db;
    }
    return *this;
}

SqliteStmt &SqliteStmt::bind(int i, std::int64_t v)
{
    sqlite3_bind_int64(m_stmt, i, v);
    return *this;
}

SqliteStmt &SqliteStmt::bind(int i, double v)
{
    sqlite3_bind_double(m_stmt, i, v);
    return *this;
}

SqliteStmt &SqliteStmt::bind(int i, std::string_view v)
{
    sqlite3_bind_text(m_stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStmt &SqliteStmt::bindBlob(int i, const void *data, int size)
{
    sqlite3_bind_blob(m_stmt, i, data, size, SQLITE_TRANSIENT);
    return *this;
}

SqliteStmt &SqliteStmt::bindBlobNoCopy(int i, const void *data, int size)
{
    sqlite3_bind_blob(m_stmt, i, data, size, SQLITE_STATIC);
    return *this;
}

SqliteStmt &SqliteStmt::bindNull(int i)
{
    sqlite3_bind_null(m_stmt, i);
    return *this;
}

SqliteStmt &SqliteStmt::bindOrNull(int i, std::int64_t v, std::int64_t nullValue)
{
    if (v == nullValue)
        sqlite3_bind_null(m_stmt, i);
    else
        sqlite3_bind_int64(m_stmt, i, v);
    return *this;
}

int SqliteStmt::step()
{
    return sqlite3_step(m_stmt);
}

bool SqliteStmt::run()
{
    const int rc = sqlite3_step(m_stmt);
    sqlite3_reset(m_stmt);
    return rc == SQLITE_DONE || rc == SQLITE_ROW;
}

void SqliteStmt::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::int64_t SqliteStmt::colInt(int i) const
{
    return sqlite3_column_int64(m_stmt, i);
}
double SqliteStmt::colDouble(int i) const
{
    return sqlite3_column_double(m_stmt, i);
}

std::string SqliteStmt::colText(int i) const
{
    const auto *p = sqlite3_column_text(m_stmt, i);
    const int n = sqlite3_column_bytes(m_stmt, i);
    return p ? std::string(reinterpret_cast<const char *>(p), static_cast<std::size_t>(n)) : std::string();
}

bool SqliteStmt::colIsNull(int i) const
{
    return sqlite3_column_type(m_stmt, i) == SQLITE_NULL;
}

const void *SqliteStmt::colBlob(int i, int &size) const
{
    const void *p = sqlite3_column_blob(m_stmt, i);
    size = sqlite3_column_bytes(m_stmt, i);
    return p;
}

int SqliteStmt::columnCount() const
{
    return sqlite3_column_count(m_stmt);
}

} // namespace Throughline
