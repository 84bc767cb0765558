#pragma once

#include "workspace_session.h"

#include <QObject>
#include <QString>

#include <memory>

namespace inflight::workspace {

// The workspace the app runs on, and switching to another inside the running app: the window and
// the endpoint stay, and rebind to the new session when sessionChanged() says so.
//
// A switch opens the new workspace first, so a workspace that cannot be opened leaves the current
// one as it was. Then it waits until everything the current session did is on disk — what came in
// during that wait is committed at once, and from there to the swap no event loop runs, so
// nothing acknowledged is left behind; if it cannot be stored, the switch is refused and the
// current workspace stays — then emits sessionChanging() (let go of session(): windows, control
// APIs, open long polls), saves and closes the current workspace, and emits sessionChanged()
// with the new one in session().
class WorkspaceHost : public QObject {
    Q_OBJECT
public:
    explicit WorkspaceHost(SessionSettings settings = {}, QObject* parent = nullptr);
    ~WorkspaceHost() override;

    // Opens the first workspace (created if missing; an empty path runs in memory). On failure
    // nothing is open.
    Status open(const QString& path);
    bool isOpen() const { return m_current != nullptr; }
    // The open workspace's session (isOpen() only).
    session::Session& session() { return m_current->session(); }
    // The open workspace's file; empty in memory.
    QString path() const { return m_current ? m_current->path() : QString(); }
    // The open workspace held nothing when it was opened (a new file, or in memory).
    bool isNew() const { return m_current && m_current->isNew(); }
    // The open workspace's sync mode (WorkspaceSession::syncMode); Save As keeps it.
    store::SyncMode syncMode() const { return m_current->syncMode(); }
    Status setSyncMode(store::SyncMode mode) { return m_current->setSyncMode(mode); }

    // Makes `path` (created if missing) the open workspace, as the class comment says. Refused
    // for the workspace already open. Remembered among the recent workspaces.
    Status switchTo(const QString& path);
    // Save As: a copy of everything the open workspace holds at `path` (replacing a file there),
    // made once the open workspace is stored, then switched to as switchTo() does. Nothing done
    // meanwhile is left in the old file only.
    Status switchToCopy(const QString& path);

Q_SIGNALS:
    // session() is about to go: drop every reference to it now.
    void sessionChanging();
    // session() is the new workspace's.
    void sessionChanged();

private:
    // The current session stored to the last event (see the class comment).
    Status storeCurrent();
    // Makes `next` the open workspace (sessionChanging, swap, sessionChanged).
    void replaceWith(std::unique_ptr<WorkspaceSession> next, const QString& path);
    bool isOpenWorkspace(const QString& path) const;

    SessionSettings m_settings;
    std::unique_ptr<WorkspaceSession> m_current;
};

} // namespace inflight::workspace
