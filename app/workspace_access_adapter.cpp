#include "workspace_access_adapter.h"

#include "workspace/recent_workspaces.h"
#include "workspace/workspace_files.h"
#include "workspace/workspace_host.h"

namespace inflight::app {

namespace {

ui::WorkspaceAccess::Status status(const workspace::Status& done)
{
    if (!done)
        return QString::fromStdString(done.error().message);
    return engine::Done{};
}

} // namespace

session::Session& WorkspaceAccessAdapter::session() const
{
    return m_host ? m_host->session() : *m_session;
}

QString WorkspaceAccessAdapter::path() const
{
    return m_host ? m_host->path() : m_path;
}

ui::WorkspaceAccess::Status WorkspaceAccessAdapter::createEmpty(const QString& path)
{
    return status(workspace::createEmpty(path));
}

ui::WorkspaceAccess::Status WorkspaceAccessAdapter::saveCopy(const QString& path)
{
    return status(workspace::saveCopy(session(), path));
}

ui::WorkspaceAccess::Status WorkspaceAccessAdapter::exportQueue(const QString& queue,
                                                                const QStringList& messageIds,
                                                                const QString& file,
                                                                Progress progress)
{
    store::ExportRequest request;
    request.queues.push_back(queue.toStdString());
    for (const QString& id : messageIds)
        request.messageIds.push_back(id.toStdString());
    request.progress = std::move(progress);
    return status(workspace::exportToFile(session().broker(), request, file));
}

ui::WorkspaceAccess::Result<ui::WorkspaceAccess::Imported> WorkspaceAccessAdapter::importFile(
    const QString& file, const QString& queue, bool regenerateIds, Progress progress)
{
    store::ImportRequest request;
    request.intoQueue = queue.toStdString();
    request.regenerateIds = regenerateIds;
    request.progress = std::move(progress);
    auto imported = workspace::importFromFile(session().broker(), file, request);
    if (!imported)
        return QString::fromStdString(imported.error().message);
    Imported result{imported->messages, imported->queuesCreated, {}, imported->stopped};
    for (const std::string& refused : imported->refused)
        result.refused.append(QString::fromStdString(refused));
    return result;
}

QStringList WorkspaceAccessAdapter::recentWorkspaces() const
{
    return workspace::recentWorkspaces();
}

bool WorkspaceAccessAdapter::syncsEveryCommit() const
{
    // A test's session without a host has no store: nothing is synced at all.
    return m_host && m_host->isOpen() && m_host->syncMode() == store::SyncMode::Full;
}

ui::WorkspaceAccess::Status WorkspaceAccessAdapter::setSyncsEveryCommit(bool everyCommit)
{
    if (!m_host || !m_host->isOpen() || m_host->path().isEmpty())
        return QStringLiteral(
            "In memory there is nothing to sync: open or save a workspace first.");
    return status(
        m_host->setSyncMode(everyCommit ? store::SyncMode::Full : store::SyncMode::Normal));
}

} // namespace inflight::app
