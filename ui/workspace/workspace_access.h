#pragma once

#include "engine/error.h"

#include <QString>
#include <QStringList>

#include <functional>

namespace inflight::ui {

// What the window's File menu does with workspace and queue files, without the store: the app
// implements it over workspace::WorkspaceHost (app/workspace_access_adapter.h), so that ui does
// not link the store. Errors are a sentence for the user. Switching to another workspace is not
// here: the window asks for it (WorkspaceController::switchRequested) and the app replaces the
// window.
class WorkspaceAccess {
public:
    template <class T>
    using Result = engine::Result<T, QString>;
    using Status = Result<engine::Done>;
    // Called now and then with how many messages are done of `total` (0: unknown); false stops.
    using Progress = std::function<bool(qint64 done, qint64 total)>;
    struct Imported {
        qint64 messages = 0;
        qint64 queuesCreated = 0;
        QStringList refused; // the messages the engine refused, with the reason
        bool stopped = false;
    };

    virtual ~WorkspaceAccess() = default;

    // The open workspace's file; empty in memory.
    virtual QString path() const = 0;
    // A new, empty workspace at `path`, replacing a file there.
    virtual Status createEmpty(const QString& path) = 0;
    // A copy of everything the open workspace holds at `path`, replacing a file there.
    virtual Status saveCopy(const QString& path) = 0;
    // `queue`'s messages (only `messageIds` if not empty) as JSON in `file`.
    virtual Status exportQueue(const QString& queue, const QStringList& messageIds,
                               const QString& file, Progress progress)
        = 0;
    // `file` imported into `queue` (empty: each queue of the file into its own, created when
    // missing). Bad JSON imports nothing and names the line.
    virtual Result<Imported> importFile(const QString& file, const QString& queue,
                                        bool regenerateIds, Progress progress)
        = 0;
    // The workspaces opened lately, newest first.
    virtual QStringList recentWorkspaces() const = 0;
    // The open workspace's sync mode (a setting saved in it; README "Workspaces"): true for every
    // commit on the disk before its answer (survives power cuts), false for the WAL synced once a
    // second (survives crashes of the app; a power cut may lose the last second).
    virtual bool syncsEveryCommit() const = 0;
    virtual Status setSyncsEveryCommit(bool everyCommit) = 0;
};

} // namespace inflight::ui
