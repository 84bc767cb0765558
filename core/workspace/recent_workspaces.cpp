#include "recent_workspaces.h"

#include <QFileInfo>
#include <QSettings>

namespace inflight::workspace {

namespace {
constexpr int kRecentLimit = 8;
const QString kRecentKey = QStringLiteral("workspace/recent");
const QString kLastKey = QStringLiteral("workspace/last");
} // namespace

QStringList recentWorkspaces()
{
    return QSettings().value(kRecentKey).toStringList();
}

void rememberWorkspace(const QString& path)
{
    if (path.isEmpty())
        return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList recent = recentWorkspaces();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kRecentLimit)
        recent.removeLast();
    QSettings settings;
    settings.setValue(kRecentKey, recent);
    settings.setValue(kLastKey, absolute);
}

QString lastWorkspace()
{
    const QString last = QSettings().value(kLastKey).toString();
    return !last.isEmpty() && QFileInfo::exists(last) ? last : QString();
}

} // namespace inflight::workspace
