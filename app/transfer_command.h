#pragma once

#include <QString>

class QCoreApplication;

namespace inflight::app {

// `inflight export --workspace FILE [--queue NAME]... [--message ID]... [--output F]` and
// `inflight import --workspace FILE [--queue NAME] [--regenerate-ids] F` (`command` is "export"
// or "import"), through the same workspace/workspace_files.h calls as the window's File menu.
// Returns the process's exit status: 0 done, 1 failed, 2 usage, 3 the workspace refused.
int runTransfer(QCoreApplication& app, const QString& command);

} // namespace inflight::app
