#pragma once

#include <QString>
#include <QStringList>

namespace inflight::workspace {

// The workspaces opened lately, newest first, at most 8 (QSettings "workspace/recent"), and the
// last one opened ("workspace/last"), which the window opens at its next start.
QStringList recentWorkspaces();
// Puts `path` (made absolute) first in the list and makes it the last one opened.
void rememberWorkspace(const QString& path);
// The last workspace opened, if it still exists; empty otherwise.
QString lastWorkspace();

} // namespace inflight::workspace
