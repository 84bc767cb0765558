#pragma once

#include "session/session.h"
#include "store/workspace_store.h"

#include <QString>

#include <memory>
#include <optional>

namespace inflight::app {

// A Session on a workspace: the store restored into the session's broker, the session's clock
// started at the resume time with the saved pause and speed, and every event batch committed
// through Session::setPersistence before anyone sees it. Without a path: in memory, nothing kept.
class WorkspaceSession {
public:
    // Opens `path` (OpenOrCreate unless `mode` says otherwise); an empty path runs in memory.
    // Returns null and sets `error` (a sentence for the user) when the workspace is refused.
    // `broker` sets the engine's options (its seed, for one) where the workspace holds no state of
    // its own yet; `start` the engine time of a session that starts afresh (the wall clock
    // without it). A workspace that was saved resumes at its own time (docs/BEHAVIOUR.md, "Time").
    static std::unique_ptr<WorkspaceSession> open(const QString& path, store::OpenMode mode,
                                                  QString* error, store::StoreOptions options = {},
                                                  engine::BrokerOptions broker = {},
                                                  std::optional<engine::Millis> start = {},
                                                  bool frozen = false);
    // Saves the clock (the rest is saved batch by batch) and closes the file.
    ~WorkspaceSession();

    session::Session& session() { return *m_session; }
    // The workspace file; empty when in memory.
    QString path() const { return m_path; }
    store::WorkspaceStore* store() { return m_store.get(); }
    // True when the workspace held no state yet (a new file): callers may fill it with examples.
    bool isNew() const { return m_isNew; }

private:
    WorkspaceSession() = default;
    store::ClockRecord clockRecord() const;

    QString m_path;
    bool m_isNew = true;
    std::unique_ptr<store::WorkspaceStore> m_store;
    std::unique_ptr<session::Session> m_session;
};

} // namespace inflight::app
