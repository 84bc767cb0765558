#pragma once

#include "ui/workspace/workspace_access.h"

namespace inflight::session {
class Session;
}
namespace inflight::workspace {
class WorkspaceHost;
}

namespace inflight::app {

// The window's view of the workspace files: ui::WorkspaceAccess over workspace::WorkspaceHost
// and workspace/workspace_files.h, so that ui never includes the store.
class WorkspaceAccessAdapter : public ui::WorkspaceAccess {
public:
    // Over the host's open workspace, whichever it is; the host must outlive the adapter.
    explicit WorkspaceAccessAdapter(workspace::WorkspaceHost& host) : m_host(&host) {}
    // Over `session` on the workspace at `path` (empty: in memory), e.g. a test's session.
    WorkspaceAccessAdapter(session::Session& session, QString path)
        : m_session(&session), m_path(std::move(path))
    {
    }

    QString path() const override;
    Status createEmpty(const QString& path) override;
    Status saveCopy(const QString& path) override;
    Status exportQueue(const QString& queue, const QStringList& messageIds, const QString& file,
                       Progress progress) override;
    Result<Imported> importFile(const QString& file, const QString& queue, bool regenerateIds,
                                Progress progress) override;
    QStringList recentWorkspaces() const override;
    bool syncsEveryCommit() const override;
    Status setSyncsEveryCommit(bool everyCommit) override;

private:
    session::Session& session() const;

    workspace::WorkspaceHost* m_host = nullptr;
    session::Session* m_session = nullptr;
    QString m_path;
};

} // namespace inflight::app
