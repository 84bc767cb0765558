#include "workspace_controller.h"

#include "session/session.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSignalBlocker>
#include <QStandardPaths>
#include <QStatusBar>

#include <string>
#include <vector>

namespace inflight::ui {

namespace {

const QString kWorkspaceFilter = QStringLiteral("Inflight workspaces (*.inflight);;All files (*)");
const QString kJsonFilter = QStringLiteral("JSON (*.json);;All files (*)");

// A progress dialog for a transfer: shown after 200 ms, its bar follows the callback.
class TransferProgress {
public:
    TransferProgress(QWidget* parent, const QString& label)
        : m_dialog(label, QObject::tr("Cancel"), 0, 100, parent)
    {
        m_dialog.setObjectName(QStringLiteral("transferProgress"));
        m_dialog.setWindowModality(Qt::WindowModal);
        m_dialog.setMinimumDuration(200);
        m_dialog.setValue(0);
    }
    WorkspaceAccess::Progress callback()
    {
        return [this](qint64 done, qint64 total) {
            if (total > 0) {
                m_dialog.setMaximum(100);
                m_dialog.setValue(static_cast<int>(done * 100 / total));
            }
            return !m_dialog.wasCanceled();
        };
    }

private:
    QProgressDialog m_dialog;
};

} // namespace

WorkspaceController::WorkspaceController(WorkspaceAccess& access, session::Session& session,
                                         QMainWindow* window)
    : QObject(window), m_access(access), m_session(session), m_path(access.path()), m_window(window)
{
    QMenu* file = nullptr;
    for (QAction* a : window->menuBar()->actions()) {
        if (a->menu() && a->text().remove(QLatin1Char('&')) == tr("File")) {
            file = a->menu();
            break;
        }
    }
    if (!file)
        file = window->menuBar()->addMenu(tr("&File"));
    QAction* before = file->actions().isEmpty() ? nullptr : file->actions().first();

    auto add = [&](const QString& name, const QString& text, QKeySequence key, auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        file->insertAction(before, a);
        return a;
    };
    add(QStringLiteral("newWorkspaceAction"), tr("&New Empty Workspace…"), QKeySequence::New,
        [this] { newWorkspace(false); });
    add(QStringLiteral("newExamplesWorkspaceAction"), tr("New Workspace with E&xamples…"),
        QKeySequence(), [this] { newWorkspace(true); });
    add(QStringLiteral("openWorkspaceAction"), tr("&Open Workspace…"), QKeySequence::Open,
        &WorkspaceController::openWorkspace);
    m_recent = new QMenu(tr("Open &Recent"), window);
    m_recent->setObjectName(QStringLiteral("recentWorkspacesMenu"));
    file->insertMenu(before, m_recent);
    connect(m_recent, &QMenu::aboutToShow, this, &WorkspaceController::fillRecent);
    fillRecent();
    // Not QKeySequence::SaveAs: some platforms (X11 without a desktop's theme) give it no keys.
    add(QStringLiteral("saveWorkspaceAsAction"), tr("Save Workspace &As…"),
        QKeySequence(tr("Ctrl+Shift+S")), &WorkspaceController::saveAs);
    // The workspace's sync mode (saved in it): README "Workspaces" says what each keeps.
    QAction* sync = add(QStringLiteral("syncEveryChangeAction"), tr("&Sync Every Change to Disk"),
                        QKeySequence(), [this](bool on) { setSyncEveryChange(on); });
    sync->setCheckable(true);
    sync->setChecked(m_access.syncsEveryCommit());
    sync->setEnabled(!m_path.isEmpty());
    sync->setStatusTip(tr("On: each change is on the disk before it is answered, and survives a "
                          "power cut. Off (the default, faster): changes reach the disk within a "
                          "second; a crash of the app loses nothing, a power cut at most the last "
                          "second."));
    file->insertSeparator(before);
    add(QStringLiteral("exportQueueAction"), tr("&Export Queue…"), QKeySequence(),
        &WorkspaceController::exportCurrent);
    add(QStringLiteral("importMessagesAction"), tr("&Import Messages…"), QKeySequence(),
        &WorkspaceController::importInto);
    if (before)
        file->insertSeparator(before);

    // A commit that failed: nothing since is acknowledged; say so until a commit succeeds again.
    connect(&m_session, &session::Session::persistenceFailed, this, [this](const QString& why) {
        m_window->statusBar()->showMessage(
            tr("Not saved to the workspace: %1. Changes are not acknowledged until saving works "
               "again.")
                .arg(why));
    });
    connect(&m_session, &session::Session::persistenceRecovered, this, [this] {
        m_window->statusBar()->showMessage(tr("Saved to the workspace again."), 10000);
    });
}

void WorkspaceController::setSyncEveryChange(bool on)
{
    QAction* sync = action(QStringLiteral("syncEveryChangeAction"));
    if (auto changed = m_access.setSyncsEveryCommit(on); !changed) {
        const QSignalBlocker blocker(sync);
        sync->setChecked(m_access.syncsEveryCommit());
        m_window->statusBar()->showMessage(changed.error(), 15000);
        return;
    }
    m_window->statusBar()->showMessage(
        on ? tr("Every change is now on the disk before it is answered.")
           : tr("Changes now reach the disk within a second (faster; a power cut may lose the "
                "last second)."),
        10000);
}

void WorkspaceController::setSelection(std::function<QString()> currentQueue,
                                       std::function<QStringList()> selectedMessageIds)
{
    m_currentQueue = std::move(currentQueue);
    m_selectedIds = std::move(selectedMessageIds);
}

QAction* WorkspaceController::action(const QString& objectName) const
{
    return findChild<QAction*>(objectName);
}

void WorkspaceController::fillRecent()
{
    m_recent->clear();
    const QString current = m_path.isEmpty() ? QString() : QFileInfo(m_path).absoluteFilePath();
    for (const QString& path : m_access.recentWorkspaces()) {
        if (path == current || !QFileInfo::exists(path))
            continue;
        QAction* a = m_recent->addAction(QFileInfo(path).completeBaseName() + QStringLiteral("  (")
                                         + QDir::toNativeSeparators(path) + QLatin1Char(')'));
        a->setData(path);
        connect(a, &QAction::triggered, this, [this, path] { requestSwitch(path); });
    }
    m_recent->setEnabled(!m_recent->actions().isEmpty());
}

QString WorkspaceController::choose(Choice choice, const QString& suggestion)
{
    if (m_chooser)
        return m_chooser(choice, suggestion);
    switch (choice) {
    case Choice::NewWorkspace:
        return QFileDialog::getSaveFileName(m_window, tr("New Workspace"), suggestion,
                                            kWorkspaceFilter);
    case Choice::SaveWorkspaceAs:
        return QFileDialog::getSaveFileName(m_window, tr("Save Workspace As"), suggestion,
                                            kWorkspaceFilter);
    case Choice::OpenWorkspace:
        return QFileDialog::getOpenFileName(m_window, tr("Open Workspace"), suggestion,
                                            kWorkspaceFilter);
    case Choice::ExportFile:
        return QFileDialog::getSaveFileName(m_window, tr("Export Queue"), suggestion, kJsonFilter);
    case Choice::ImportFile:
        return QFileDialog::getOpenFileName(m_window, tr("Import Messages"), suggestion,
                                            kJsonFilter);
    }
    return {};
}

void WorkspaceController::report(const QString& message, bool ok)
{
    if (m_window->statusBar())
        m_window->statusBar()->showMessage(message, 10000);
    if (!ok && !m_chooser) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Inflight"), message, QMessageBox::Ok,
                                    m_window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    Q_EMIT finished(message, ok);
}

static QString folderOf(const QString& path)
{
    return path.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                          : QFileInfo(path).absolutePath();
}

void WorkspaceController::requestSwitch(const QString& path, bool withExamples)
{
    Q_EMIT switchRequested(QFileInfo(path).absoluteFilePath(), withExamples);
}

QString WorkspaceController::createNewWorkspace()
{
    QString path
        = choose(Choice::NewWorkspace, folderOf(m_path) + QStringLiteral("/untitled.inflight"));
    if (path.isEmpty())
        return {};
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".inflight");
    if (QFileInfo(path).absoluteFilePath() == QFileInfo(m_path).absoluteFilePath()) {
        report(tr("%1 is the open workspace.").arg(path), false);
        return {};
    }
    // A new workspace is an empty file (the file dialog asked before replacing one).
    if (auto created = m_access.createEmpty(path); !created) {
        report(created.error(), false);
        return {};
    }
    return path;
}

void WorkspaceController::newWorkspace(bool withExamples)
{
    if (const QString path = createNewWorkspace(); !path.isEmpty())
        requestSwitch(path, withExamples);
}

void WorkspaceController::newWorkspaceForLesson(const QString& lesson)
{
    if (const QString path = createNewWorkspace(); !path.isEmpty())
        Q_EMIT switchForLessonRequested(path, lesson);
}

void WorkspaceController::openWorkspace()
{
    const QString path = choose(Choice::OpenWorkspace, folderOf(m_path));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).absoluteFilePath() == QFileInfo(m_path).absoluteFilePath())
        return;
    requestSwitch(path);
}

WorkspaceAccess::Status WorkspaceController::saveCopy(const QString& path)
{
    if (!m_path.isEmpty()
        && QFileInfo(path).absoluteFilePath() == QFileInfo(m_path).absoluteFilePath())
        return tr("%1 is the open workspace.").arg(path);
    return m_access.saveCopy(path);
}

void WorkspaceController::saveAs()
{
    QString path = choose(Choice::SaveWorkspaceAs,
                          folderOf(m_path) + QLatin1Char('/')
                              + (m_path.isEmpty() ? QStringLiteral("workspace")
                                                  : QFileInfo(m_path).completeBaseName())
                              + QStringLiteral(" copy.inflight"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".inflight");
    if (!m_path.isEmpty()
        && QFileInfo(path).absoluteFilePath() == QFileInfo(m_path).absoluteFilePath()) {
        report(tr("%1 is the open workspace.").arg(path), false);
        return;
    }
    Q_EMIT saveAsRequested(QFileInfo(path).absoluteFilePath());
}

WorkspaceAccess::Status WorkspaceController::exportQueue(const QString& queue,
                                                         const QStringList& messageIds,
                                                         const QString& file)
{
    TransferProgress progress(m_window, tr("Exporting %1…").arg(queue));
    return m_access.exportQueue(queue, messageIds, file, progress.callback());
}

WorkspaceAccess::Result<WorkspaceAccess::Imported> WorkspaceController::importFile(
    const QString& file, const QString& queue, bool regenerateIds)
{
    TransferProgress progress(m_window, tr("Importing %1…").arg(QFileInfo(file).fileName()));
    return m_access.importFile(file, queue, regenerateIds, progress.callback());
}

QString WorkspaceController::importProblems(const WorkspaceAccess::Imported& imported)
{
    if (!imported.refused.isEmpty())
        return tr("%1 messages imported; %2 refused, the first: %3")
            .arg(imported.messages)
            .arg(imported.refused.size())
            .arg(imported.refused.front());
    if (imported.stopped)
        return tr("Import stopped after %1 messages.").arg(imported.messages);
    return {};
}

void WorkspaceController::exportCurrent()
{
    const QString queue = m_currentQueue ? m_currentQueue() : QString();
    if (queue.isEmpty()) {
        report(tr("Select a queue to export."), false);
        return;
    }
    const QStringList ids = m_selectedIds ? m_selectedIds() : QStringList();
    const QString file = choose(
        Choice::ExportFile, folderOf(m_path) + QLatin1Char('/') + queue + QStringLiteral(".json"));
    if (file.isEmpty())
        return;
    if (auto exported = exportQueue(queue, ids.size() > 1 ? ids : QStringList(), file); !exported)
        report(exported.error(), false);
    else
        report(ids.size() > 1 ? tr("Exported %1 selected messages of %2 to %3")
                                    .arg(ids.size())
                                    .arg(queue, QDir::toNativeSeparators(file))
                              : tr("Exported %1 to %2").arg(queue, QDir::toNativeSeparators(file)),
               true);
}

void WorkspaceController::importInto()
{
    const QString file = choose(Choice::ImportFile, folderOf(m_path));
    if (file.isEmpty())
        return;
    const QString queue = m_currentQueue ? m_currentQueue() : QString();
    const auto result = importFile(file, queue, false);
    if (!result) {
        report(result.error(), false);
        return;
    }
    if (const QString problems = importProblems(*result); !problems.isEmpty()) {
        report(problems, false);
        return;
    }
    const qint64 imported = result->messages;
    // Done is said once the messages are on disk.
    m_session.whenDurable(this, [this, imported, queue](bool stored) {
        if (stored)
            report(tr("Imported %1 messages%2")
                       .arg(imported)
                       .arg(queue.isEmpty() ? QString() : tr(" into %1").arg(queue)),
                   true);
        else
            report(tr("The imported messages could not be stored."), false);
    });
}

} // namespace inflight::ui
