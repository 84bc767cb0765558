#include "store/store_error.h"

#include <sqlite3.h>

namespace inflight::store {

StoreError storeErrorFromSqlite(int code, const std::string& path, const std::string& doing,
                                const std::string& detail)
{
    const std::string tail = detail.empty() ? std::string() : " (SQLite: " + detail + ")";
    switch (code & 0xff) {
    case SQLITE_FULL:
        return {StoreErrorKind::DiskFull,
                "The disk holding the workspace " + path + " is full: the last change was not "
                    + "saved and was not acknowledged. Free some space; Inflight saves again with "
                      "the next change."
                    + tail};
    case SQLITE_READONLY:
    case SQLITE_PERM:
        return {StoreErrorKind::ReadOnly,
                "The workspace " + path + " cannot be written (read-only file, folder or disk) "
                    + "while " + doing + ". Open a copy with Save As, or allow writing." + tail};
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return {StoreErrorKind::InUse,
                "The workspace " + path + " is open in another Inflight (a window or "
                    + "`inflight --headless`). Close it there, or open another workspace." + tail};
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return {StoreErrorKind::Damaged,
                "The workspace " + path + " is damaged and cannot be read while " + doing
                    + ". It was left as it is; open a backup or create a new workspace." + tail};
    case SQLITE_CANTOPEN:
        return {StoreErrorKind::Io,
                "The workspace " + path + " cannot be opened while " + doing
                    + " (missing folder, or no permission)." + tail};
    default:
        return {StoreErrorKind::Io,
                "The workspace " + path + " could not be used while " + doing + "." + tail};
    }
}

} // namespace inflight::store
