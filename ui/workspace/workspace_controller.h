#pragma once

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
// workspaces, Export queue…, Import…. A running Session cannot change its store, so New, Open,
// Save As and a recent workspace ask for a switch (switchRequested): the app quits and starts
// again on the chosen file (app/main.cpp). Export and import run on the session's broker with a
// progress dialog. Actions are named newWorkspaceAction, openWorkspaceAction,
// saveWorkspaceAsAction, exportQueueAction, importMessagesAction; the menu recentWorkspacesMenu.
class WorkspaceController : public QObject {
    Q_OBJECT

public:
    enum class Choice { NewWorkspace, OpenWorkspace, SaveWorkspaceAs, ExportFile, ImportFile };
    // Returns a path, or empty when the user cancelled.
    using PathChooser = std::function<QString(Choice, const QString& suggestion)>;

    // `workspacePath` is the open workspace (empty: in memory). The actions go first into the
    // window's File menu (created if missing).
    WorkspaceController(session::Session& session, const QString& workspacePath,
                        QMainWindow* window);

    // Where the queue to export or import into, and the selected messages, come from.
    void setSelection(std::function<QString()> currentQueue,
                      std::function<QStringList()> selectedMessageIds);
    // Replaces the file dialogs (tests); the default uses QFileDialog.
    void setPathChooser(PathChooser chooser) { m_chooser = std::move(chooser); }

    QString workspacePath() const { return m_path; }
    QAction* action(const QString& objectName) const;
    QMenu* recentMenu() const { return m_recent; }

    // The recent workspaces, newest first (QSettings "workspace/recent", at most 8).
    static QStringList recentWorkspaces();
    static void rememberWorkspace(const QString& path);

    // Copies everything the session holds into a new workspace at `path` (replacing a file that
    // is there). Empty on success, else the reason.
    QString saveCopy(const QString& path);
    // Writes `queue`'s messages (only `messageIds` if not empty) to `file`, with a progress
    // dialog. Empty on success, else the reason.
    QString exportQueue(const QString& queue, const QStringList& messageIds, const QString& file);
    // Imports `file` into `queue` (empty: each queue of the file into its own, created when
    // missing), with a progress dialog. Empty on success, else the reason ("line L, column C: …"
    // for bad JSON: nothing imported). `imported` gets the number of messages sent.
    QString importFile(const QString& file, const QString& queue, bool regenerateIds,
                       qint64* imported = nullptr);

Q_SIGNALS:
    // The user chose another workspace (New, Open, Save As, recent): reopen the app on it.
    // `withExamples`: a new workspace that starts with the example queues (New Workspace with
    // Examples); otherwise a new one starts empty and an existing one opens as it is.
    void switchRequested(const QString& path, bool withExamples);
    // After an export or import: a sentence for the user.
    void finished(const QString& message, bool ok);

private:
    void newWorkspace(bool withExamples);
    void openWorkspace();
    void saveAs();
    void exportCurrent();
    void importInto();
    void fillRecent();
    void requestSwitch(const QString& path, bool withExamples = false);
    QString choose(Choice choice, const QString& suggestion);
    void report(const QString& message, bool ok);

    session::Session& m_session;
    QString m_path;
    QMainWindow* m_window;
    QMenu* m_recent = nullptr;
    PathChooser m_chooser;
    std::function<QString()> m_currentQueue;
    std::function<QStringList()> m_selectedIds;
};

} // namespace inflight::ui
