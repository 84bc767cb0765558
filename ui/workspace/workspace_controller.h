#pragma once

#include "ui/workspace/workspace_access.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QAction;
class QMainWindow;
class QMenu;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// The workspace half of the File menu, added to a window: New…, Open…, Save As…, Recent
// workspaces, Export queue…, Import…, over a WorkspaceAccess. New, Open, Save As and a recent
// workspace ask for a switch (switchRequested): the app opens the chosen file and puts a new
// window on it in the same process, the endpoint staying where it is (app/window_app.h). Export
// and import run with a progress dialog. Sync Every Change to Disk (checkable) is the workspace's
// sync mode. Actions are named newWorkspaceAction, openWorkspaceAction, saveWorkspaceAsAction,
// syncEveryChangeAction, exportQueueAction, importMessagesAction; the menu recentWorkspacesMenu.
class WorkspaceController : public QObject {
    Q_OBJECT

public:
    enum class Choice { NewWorkspace, OpenWorkspace, SaveWorkspaceAs, ExportFile, ImportFile };
    // Returns a path, or empty when the user cancelled.
    using PathChooser = std::function<QString(Choice, const QString& suggestion)>;

    // `access` is the open workspace's files (it must outlive the controller); `session` its
    // session. The actions go first into the window's File menu (created if missing).
    WorkspaceController(WorkspaceAccess& access, session::Session& session, QMainWindow* window);

    // Where the queue to export or import into, and the selected messages, come from.
    void setSelection(std::function<QString()> currentQueue,
                      std::function<QStringList()> selectedMessageIds);
    // Replaces the file dialogs (tests); the default uses QFileDialog.
    void setPathChooser(PathChooser chooser) { m_chooser = std::move(chooser); }

    QString workspacePath() const { return m_path; }
    QAction* action(const QString& objectName) const;
    QMenu* recentMenu() const { return m_recent; }
    // "Open in a new workspace…" of a lesson: File ▸ New Workspace's choice of a file, then
    // switchForLessonRequested.
    void newWorkspaceForLesson(const QString& lesson);

    // Copies everything the session holds into a new workspace at `path` (replacing a file that
    // is there); refused for the open workspace.
    WorkspaceAccess::Status saveCopy(const QString& path);
    // Writes `queue`'s messages (only `messageIds` if not empty) to `file`, with a progress
    // dialog.
    WorkspaceAccess::Status exportQueue(const QString& queue, const QStringList& messageIds,
                                        const QString& file);
    // Imports `file` into `queue` (empty: each queue of the file into its own, created when
    // missing), with a progress dialog; an error ("line L, column C: …" for bad JSON) imports
    // nothing. Refused messages and a stop are in the result, and in importSummary().
    WorkspaceAccess::Result<WorkspaceAccess::Imported> importFile(const QString& file,
                                                                  const QString& queue,
                                                                  bool regenerateIds);
    // "12 messages imported; 1 refused, the first: …", or empty when all went in.
    static QString importProblems(const WorkspaceAccess::Imported& imported);

Q_SIGNALS:
    // The user chose another workspace (New, Open, Save As, recent): put the window on it.
    // `withExamples`: a new workspace that starts with the example queues (New Workspace with
    // Examples); otherwise a new one starts empty and an existing one opens as it is.
    void switchRequested(const QString& path, bool withExamples);
    // A new workspace was chosen for a lesson: switch to it, then open `lesson` there.
    void switchForLessonRequested(const QString& path, const QString& lesson);
    // Save As: the user chose `path` for a copy of the open workspace, to be switched to (the app
    // makes the copy once the open workspace is stored, so nothing done meanwhile is missed).
    void saveAsRequested(const QString& path);
    // After an export or import: a sentence for the user.
    void finished(const QString& message, bool ok);

private:
    // Asks for a new workspace's file and creates it empty; its path, or empty (cancelled, or
    // refused: reported).
    QString createNewWorkspace();
    void newWorkspace(bool withExamples);
    void openWorkspace();
    void saveAs();
    void setSyncEveryChange(bool on);
    void exportCurrent();
    void importInto();
    void fillRecent();
    void requestSwitch(const QString& path, bool withExamples = false);
    QString choose(Choice choice, const QString& suggestion);
    void report(const QString& message, bool ok);

    WorkspaceAccess& m_access;
    session::Session& m_session;
    QString m_path;
    QMainWindow* m_window;
    QMenu* m_recent = nullptr;
    PathChooser m_chooser;
    std::function<QString()> m_currentQueue;
    std::function<QStringList()> m_selectedIds;
};

} // namespace inflight::ui
