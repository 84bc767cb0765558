#pragma once

#include "engine/error.h"
#include "session/session.h"
#include "store/store_error.h"
#include "store/workspace_store.h"

#include <QString>
#include <QTimer>

#include <memory>
#include <optional>

namespace inflight::workspace {

// What can go wrong with a workspace: the store's error (a sentence for the user, and its kind).
template <class T>
using Result = engine::Result<T, store::StoreError>;
using Status = Result<engine::Done>;

// How sessions start: the engine's options (its seed, for one) where a workspace holds no state of
// its own yet; `start` the engine time of a session that starts afresh (the wall clock without
// it); `frozen` a clock that starts paused and stays so until told.
struct SessionSettings {
    engine::BrokerOptions broker;
    std::optional<engine::Millis> start;
    bool frozen = false;
    store::StoreOptions store;
};

// A Session on a workspace: the store restored into the session's broker, the session's clock
// started at the resume time with the saved pause and speed, and every event batch committed
// through Session::setPersistence before anyone sees it. Without a path: in memory, nothing kept.
class WorkspaceSession {
public:
    // Opens `path` (OpenOrCreate unless `mode` says otherwise); an empty path runs in memory.
    // A workspace that was saved resumes at its own time (docs/BEHAVIOUR.md, "Time").
    static Result<std::unique_ptr<WorkspaceSession>> open(const QString& path, store::OpenMode mode,
                                                          const SessionSettings& settings = {});
    // Saves the clock and the simulation (the rest is saved batch by batch) and closes the file.
    ~WorkspaceSession();

    session::Session& session() { return *m_session; }
    // The workspace file; empty when in memory.
    QString path() const { return m_path; }
    // True when the workspace held no state yet (a new file, or in memory): the window may fill
    // it with the example queues. A workspace opened once is not new again, even left empty.
    bool isNew() const { return m_isNew; }
    // The workspace's sync mode (store::SyncMode; saved in the file; in memory, where there is
    // nothing to sync, the default). Under Normal, the WAL reaches the disk a second after the
    // first change not synced yet. Changing it stores what is batched first.
    store::SyncMode syncMode() const;
    Status setSyncMode(store::SyncMode mode);

private:
    WorkspaceSession() = default;
    store::ClockRecord clockRecord() const;

    QString m_path;
    bool m_isNew = true;
    std::unique_ptr<store::WorkspaceStore> m_store;
    std::unique_ptr<session::Session> m_session;
    QTimer m_sync; // SyncMode::Normal: the checkpoint a second after a commit
};

} // namespace inflight::workspace
