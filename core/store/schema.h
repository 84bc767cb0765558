#pragma once

#include "store/sqlite.h"
#include "store/store_error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace inflight::store {

// `PRAGMA application_id` of every workspace ("IFLT"): tells a workspace from other SQLite files.
inline constexpr std::int32_t kApplicationId = 0x49464c54;
// `PRAGMA user_version`: the schema this build writes. Older files are migrated step by step on
// open; newer ones are refused.
inline constexpr int kSchemaVersion = 7;

// What the first 100 bytes of a file say, read without SQLite (so a foreign file is never opened,
// let alone changed, by SQLite).
struct FileHeader {
    bool empty = false;  // zero bytes: a workspace that was never written
    bool sqlite = false; // starts with "SQLite format 3"
    std::int32_t applicationId = 0;
    std::int32_t userVersion = 0;
};

// nullopt when the file cannot be read.
std::optional<FileHeader> readFileHeader(const std::string& path);

// Brings a connection's schema to kSchemaVersion inside one transaction: creates every table on an
// empty file, or runs the migration steps after the file's version, recording each in the
// `migrations` table. Requires an open, writable connection. Returns the SQLite code.
int migrate(Database& db, int fromVersion, std::int64_t now);

} // namespace inflight::store
