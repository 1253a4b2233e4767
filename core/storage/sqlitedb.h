#pragma once
// Thin RAII wrapper over one sqlite3 connection (C API; nothing from QtSql).
// Thread affinity: a connection is used by one thread at a time (the writer thread owns its own,
// every HistoryReader opens its own).

#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace Throughline {

class SqliteStmt;

class SqliteDb
{
public:
    enum class Mode { ReadWriteCreate, ReadWrite, ReadOnly };

    SqliteDb() = default;
    ~SqliteDb();
    SqliteDb(const SqliteDb &) = delete;
    SqliteDb &operator=(const SqliteDb &) = delete;
    SqliteDb(SqliteDb &&other) noexcept;
    SqliteDb &operator=(SqliteDb &&other) noexcept;

    // Opens `path` and sets busy_timeout (ms). Error messages name the path.
    Status open(const std::string &path, Mode mode = Mode::ReadWriteCreate, int busyTimeoutMs = 5000);
    void close();
    bool isOpen() const { return m_db != nullptr; }
    sqlite3 *handle() const { return m_db; }
    const std::string &path() const { return m_path; }

    // Runs one or more statements without results.
    Status exec(std::string_view sql);
    Result<SqliteStmt> prepare(std::string_view sql);
    // First column of the first row as integer / text (fallback when there is no row).
    Result<std::int64_t> queryInt(std::string_view sql, std::int64_t fallback = 0);
    Result<std::string> queryText(std::string_view sql, std::string fallback = {});

    std::int64_t lastInsertId() const;
    int changes() const;
    // "SQLite error in <path>: <message> (code N)" — names the file so the user knows which one.
    Error lastError(std::string_view what) const;

private:
    sqlite3 *m_db = nullptr;
    std::string m_path;
};

// Prepared statement; bind indexes are 1-based as in SQLite.
class SqliteStmt
{
public:
    SqliteStmt() = default;
    SqliteStmt(sqlite3_stmt *stmt, sqlite3 *db)
        : m_stmt(stmt)
        , m_db(db)
    {
    }
    ~SqliteStmt();
    SqliteStmt(const SqliteStmt &) = delete;
    SqliteStmt &operator=(const SqliteStmt &) = delete;
    SqliteStmt(SqliteStmt &&other) noexcept;
    SqliteStmt &operator=(SqliteStmt &&other) noexcept;

    bool valid() const { return m_stmt != nullptr; }
    SqliteStmt &bind(int i, std::int64_t v);
    SqliteStmt &bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
    SqliteStmt &bind(int i, double v);
    SqliteStmt &bind(int i, std::string_view v); // copied (SQLITE_TRANSIENT)
    SqliteStmt &bind(int i, const char *v) { return bind(i, std::string_view(v)); }
    SqliteStmt &bind(int i, const std::string &v) { return bind(i, std::string_view(v)); }
    SqliteStmt &bindBlob(int i, const void *data, int size); // copied
    // Not copied (SQLITE_STATIC): `data` must stay unchanged until the statement has been stepped and reset.
    SqliteStmt &bindBlobNoCopy(int i, const void *data, int size);
    SqliteStmt &bindNull(int i);
    // Binds NULL when v == nullValue (e.g. kNoTime, -1).
    SqliteStmt &bindOrNull(int i, std::int64_t v, std::int64_t nullValue);

    // Returns SQLITE_ROW / SQLITE_DONE or an error code (see SqliteDb::lastError).
    int step();
    // Steps a statement that must finish (INSERT/UPDATE); resets it afterwards.
    bool run();
    void reset();

    std::int64_t colInt(int i) const;
    double colDouble(int i) const;
    std::string colText(int i) const;
    bool colIsNull(int i) const;
    // Pointer valid until the next step/reset.
    const void *colBlob(int i, int &size) const;
    int columnCount() const;

private:
    sqlite3_stmt *m_stmt = nullptr;
    sqlite3 *m_db = nullptr;
};

} // namespace Throughline
