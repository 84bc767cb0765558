#pragma once

#include "engine/error.h"

#include <string>

namespace inflight::store {

// Why a workspace could not be opened, read or written. `message` is a full sentence for the
// user, naming the file and what to do; `kind` lets callers and tests tell the cases apart.
enum class StoreErrorKind {
    NotAWorkspace,  // not a SQLite file, or a SQLite file of another application
    Damaged,        // an Inflight workspace that SQLite cannot read (corrupt pages, truncated)
    NewerVersion,   // written by a newer Inflight: schema version above what this one knows
    ReadOnly,       // the file or its folder cannot be written
    DiskFull,       // no space left (or the size limit reached)
    InUse,          // open in another Inflight process (or another window of this one)
    NotFound,       // no such file (opening an existing workspace)
    Io,             // any other I/O failure
    InvalidContent, // the file opened but holds records the engine refuses
};

struct StoreError {
    StoreErrorKind kind = StoreErrorKind::Io;
    std::string message;
};

// The store's results, in the codebase's one shape (engine::Result): a value, or Done, or why not.
template <class T>
using StoreResult = engine::Result<T, StoreError>;
using StoreStatus = StoreResult<engine::Done>;

// Maps an SQLite (extended) result code to a StoreError about `path`, with SQLite's own text as
// the detail. `doing` says what was being done ("opening", "saving", "reading").
StoreError storeErrorFromSqlite(int code, const std::string& path, const std::string& doing,
                                const std::string& detail);

} // namespace inflight::store
