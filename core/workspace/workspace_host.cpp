#include "workspace_host.h"

#include "recent_workspaces.h"
#include "workspace_files.h"

#include <QEventLoop>
#include <QFileInfo>

namespace inflight::workspace {

namespace {

// Runs the event loop until what `session` acknowledged is stored (or its commit failed).
void waitDurable(session::Session& session)
{
    if (session.isDurable())
        return;
    QEventLoop loop;
    session.whenDurable(&loop, [&loop](bool) { loop.quit(); });
    if (!session.isDurable())
        loop.exec();
}

} // namespace

WorkspaceHost::WorkspaceHost(SessionSettings settings, QObject* parent)
    : QObject(parent), m_settings(std::move(settings))
{
}

WorkspaceHost::~WorkspaceHost() = default;

Status WorkspaceHost::open(const QString& path)
{
    auto opened = WorkspaceSession::open(path, store::OpenMode::OpenOrCreate, m_settings);
    if (!opened)
        return opened.error();
    m_current = std::move(*opened);
    rememberWorkspace(path);
    return engine::Done{};
}

bool WorkspaceHost::isOpenWorkspace(const QString& path) const
{
    return m_current && !path.isEmpty() && !m_current->path().isEmpty()
        && QFileInfo(path).absoluteFilePath() == QFileInfo(m_current->path()).absoluteFilePath();
}

Status WorkspaceHost::storeCurrent()
{
    if (!m_current)
        return engine::Done{};
    session::Session& session = m_current->session();
    waitDurable(session);
    // The wait ran the event loop: what came in meanwhile is stored now, synchronously.
    if (!session.commitNow())
        return store::StoreError{
            store::StoreErrorKind::Io,
            QStringLiteral("The open workspace could not be saved (%1), so it stays open.")
                .arg(session.persistenceError())
                .toStdString()};
    return engine::Done{};
}

void WorkspaceHost::replaceWith(std::unique_ptr<WorkspaceSession> next, const QString& path)
{
    if (m_current)
        Q_EMIT sessionChanging();
    m_current = std::move(next); // the old one is saved and closed here
    rememberWorkspace(path);
    Q_EMIT sessionChanged();
}

Status WorkspaceHost::switchTo(const QString& path)
{
    if (isOpenWorkspace(path))
        return store::StoreError{
            store::StoreErrorKind::InUse,
            QStringLiteral("%1 is the open workspace.").arg(path).toStdString()};
    auto next = WorkspaceSession::open(path, store::OpenMode::OpenOrCreate, m_settings);
    if (!next)
        return next.error();
    if (auto stored = storeCurrent(); !stored)
        return stored.error();
    replaceWith(std::move(*next), path);
    return engine::Done{};
}

Status WorkspaceHost::switchToCopy(const QString& path)
{
    if (!m_current)
        return switchTo(path);
    if (isOpenWorkspace(path))
        return store::StoreError{
            store::StoreErrorKind::InUse,
            QStringLiteral("%1 is the open workspace.").arg(path).toStdString()};
    if (auto stored = storeCurrent(); !stored)
        return stored.error();
    if (auto copied = saveCopy(m_current->session(), path, m_current->syncMode()); !copied)
        return copied.error();
    auto next = WorkspaceSession::open(path, store::OpenMode::OpenExisting, m_settings);
    if (!next)
        return next.error();
    replaceWith(std::move(*next), path);
    return engine::Done{};
}

} // namespace inflight::workspace
