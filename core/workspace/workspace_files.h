#pragma once

#include "store/queue_transfer.h"
#include "workspace_session.h"

#include <QString>

namespace inflight::workspace {

// Workspace files and queue files, for the window's File menu and the command line alike.

// A new, empty workspace at `path`, replacing a file there (with SQLite's -wal and -shm files).
Status createEmpty(const QString& path);

// Everything `session` holds — queues, messages, counters, its clock and its simulation — into a
// new workspace at `path`, replacing a file there. `session`'s own workspace is not touched.
Status saveCopy(session::Session& session, const QString& path,
                store::SyncMode sync = store::kDefaultSyncMode);

// The queues (and messages) of `request` as JSON (store/queue_transfer.h) written to `file`,
// whole or not at all (a file there is replaced only once the export is written).
Status exportToFile(engine::Broker& broker, const store::ExportRequest& request,
                    const QString& file);

// Imports `file` ("-": standard input) by `request`. Bad JSON or a malformed entry imports
// nothing: the error (StoreErrorKind::InvalidContent) names the line and column.
Result<store::Imported> importFromFile(engine::Broker& broker, const QString& file,
                                       const store::ImportRequest& request);

} // namespace inflight::workspace
