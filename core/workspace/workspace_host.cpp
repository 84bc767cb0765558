#include "workspace_host.h"

#include "recent_workspaces.h"

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

Status WorkspaceHost::switchTo(const QString& path)
{
    if (m_current && !path.isEmpty() && !m_current->path().isEmpty()
        && QFileInfo(path).absoluteFilePath() == QFileInfo(m_current->path()).absoluteFilePath())
        return store::StoreError{
            store::StoreErrorKind::InUse,
            QStringLiteral("%1 is the open workspace.").arg(path).toStdString()};
    auto next = WorkspaceSession::open(path, store::OpenMode::OpenOrCreate, m_settings);
    if (!next)
        return next.error();
    if (m_current) {
        waitDurable(m_current->session());
        Q_EMIT sessionChanging();
    }
    m_current = std::move(*next); // the old one is saved and closed here
    rememberWorkspace(path);
    Q_EMIT sessionChanged();
    return engine::Done{};
}

} // namespace inflight::workspace
