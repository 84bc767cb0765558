#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace inflight::store {

// Thin RAII wrappers over the SQLite C API: a connection and prepared statements that are reset
// and reused. Calls report SQLite result codes; the workspace store turns them into StoreErrors.

class Statement {
public:
    Statement() = default;
    Statement(sqlite3* db, std::string_view sql); // check ok() / code()
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool ok() const { return m_stmt != nullptr; }
    int code() const { return m_code; }

    // Parameters are 1-based, as in SQL ("?1"). Text and blobs are copied only when `copy`.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, double value);
    Statement& bindText(int index, std::string_view text);
    Statement& bindBlob(int index, std::string_view bytes);
    Statement& bindNull(int index);

    // One step: SQLITE_ROW (a row to read), SQLITE_DONE, or an error code.
    int step();
    // Steps to the end (for statements without results) and resets; SQLITE_DONE or an error.
    int run();
    void reset();

    std::int64_t int64(int column) const;
    double real(int column) const;
    // Text or blob bytes of a column; valid until the next step or reset.
    std::string_view bytes(int column) const;
    std::string string(int column) const { return std::string(bytes(column)); }
    bool isNull(int column) const;

private:
    sqlite3_stmt* m_stmt = nullptr;
    int m_code = 0;
};

class Database {
public:
    Database() = default;
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // sqlite3_open_v2 with these flags; on failure the connection is closed again.
    int open(const std::string& path, int flags);
    void close();
    bool isOpen() const { return m_db != nullptr; }
    sqlite3* handle() const { return m_db; }

    // Runs one or more statements without results.
    int exec(std::string_view sql);
    Statement prepare(std::string_view sql) const { return Statement(m_db, sql); }
    // The connection's last error text.
    std::string message() const;
    int extendedCode() const;

private:
    sqlite3* m_db = nullptr;
};

} // namespace inflight::store
