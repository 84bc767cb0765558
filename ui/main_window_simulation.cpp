// The window's simulation half (issue 13): the Simulation tab over the session's actors, the
// Lesson dock and the Lessons menu, and Open/Save Scenario in the File menu.
#include "ui/main_window.h"

#include "session/session.h"
#include "ui/models/actor_table_model.h"
#include "ui/models/queue_table_model.h"
#include "ui/widgets/lesson_view.h"
#include "ui/widgets/notice_bar.h"
#include "ui/widgets/simulation_view.h"
#include "ui/workspace/lessons.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTabWidget>

namespace inflight::ui {

void MainWindow::buildSimulation()
{
    m_simulationView = new SimulationView(m_session, m_tabs);
    m_tabs->addTab(m_simulationView, tr("Simulation"));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_simulationView),
                          tr("Simulated producers and consumers on engine time, with their "
                             "figures"));

    m_lessonDock = new QDockWidget(tr("Lesson"), this);
    m_lessonDock->setObjectName(QStringLiteral("lessonDock"));
    m_lessonDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                              | QDockWidget::DockWidgetClosable);
    m_lessonView = new LessonView(m_session, m_lessonDock);
    QStringList titles;
    QStringList paths;
    for (const BuiltInLesson& lesson : builtInLessons()) {
        titles << lesson.title;
        paths << lesson.path;
    }
    m_lessonView->setLessons(titles, paths);
    m_lessonDock->setWidget(m_lessonView);
    addDockWidget(Qt::RightDockWidgetArea, m_lessonDock);
    m_lessonDock->hide(); // shown when a lesson is opened
    connect(m_lessonView, &LessonView::openLessonRequested, this,
            [this](const QString& path) { openLesson(path); });
    connect(m_lessonView, &LessonView::showMessagesRequested, this,
            [this](const QString& queue, const QStringList& ids) {
                m_tabs->setCurrentWidget(m_messagesPage);
                if (selectQueue(queue))
                    selectMessages(ids);
            });
}

void MainWindow::buildSimulationMenus(QMenu* file)
{
    QAction* open = file->addAction(tr("&Open Scenario…"));
    open->setObjectName(QStringLiteral("openScenarioAction"));
    open->setShortcut(QKeySequence(tr("Ctrl+Shift+O"))); // Ctrl+O opens a workspace
    open->setStatusTip(tr("Load a scenario file: its queues, actors and clock (replacing the "
                          "actors)"));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), {},
                                                          tr("Scenarios (*.json);;All files (*)"));
        if (!path.isEmpty())
            openScenarioFile(path);
    });
    QAction* save = file->addAction(tr("&Save Scenario…"));
    save->setObjectName(QStringLiteral("saveScenarioAction"));
    save->setShortcut(QKeySequence::Save);
    save->setStatusTip(tr("Write what runs now — queues, actors, clock — as a scenario file"));
    connect(save, &QAction::triggered, this, [this] {
        QString path = QFileDialog::getSaveFileName(
            this, tr("Save Scenario"), QStringLiteral("scenario.json"), tr("Scenarios (*.json)"));
        if (!path.isEmpty())
            saveScenarioFile(path);
    });
    file->addSeparator();

    QMenu* lessons = menuBar()->addMenu(tr("&Lessons"));
    lessons->setObjectName(QStringLiteral("lessonsMenu"));
    int number = 0;
    for (const BuiltInLesson& lesson : builtInLessons()) {
        QAction* action = lessons->addAction(lesson.title);
        action->setObjectName(QStringLiteral("lesson%1Action").arg(++number));
        const QString path = lesson.path;
        connect(action, &QAction::triggered, this, [this, path] { openLesson(path); });
    }
    if (number == 0)
        lessons->addAction(tr("(no built-in lessons found)"))->setEnabled(false);
    lessons->addSeparator();
    QAction* restart = lessons->addAction(tr("&Restart lesson"));
    restart->setObjectName(QStringLiteral("restartLessonAction"));
    connect(restart, &QAction::triggered, this, [this] { m_lessonView->restart(); });
}

QString MainWindow::openScenarioFile(const QString& path)
{
    m_tabs->setCurrentWidget(m_simulationView);
    const auto scenario = readScenarioFile(path);
    QString error = scenario ? QString() : scenario.error();
    if (scenario) {
        const auto loaded = m_session.loadScenario(*scenario);
        if (!loaded)
            error = QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(),
                                                 QString::fromStdString(loaded.error().message));
    }
    if (!error.isEmpty()) {
        m_simulationView->notice()->showError(
            tr("Scenario not opened, nothing changed: %1").arg(error));
        return error;
    }
    m_queueDock->model()->refresh();
    m_simulationView->model()->refresh();
    m_simulationView->notice()->showInfo(
        tr("Opened %1: %2 actors").arg(QFileInfo(path).fileName()).arg(scenario->actors.size()));
    if (m_session.lessonRun())
        m_lessonDock->show();
    return {};
}

QString MainWindow::saveScenarioFile(const QString& path)
{
    const std::string text = sim::writeScenario(m_session.currentScenario());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(text.data(), qint64(text.size())) != qint64(text.size()) || !file.commit()) {
        const QString error = QStringLiteral("%1: %2").arg(path, file.errorString());
        m_simulationView->notice()->showError(tr("Scenario not saved: %1").arg(error));
        return error;
    }
    m_simulationView->notice()->showInfo(tr("Saved %1").arg(QFileInfo(path).fileName()));
    return {};
}

bool MainWindow::openLesson(const QString& path)
{
    const auto scenario = readScenarioFile(path);
    QString error = scenario ? QString() : scenario.error();
    // A lesson is written for an empty workspace: its queues would merge with queues of the same
    // name (and their messages meet its checks early). Asked, never done silently.
    if (scenario && !m_session.broker().queues().empty()) {
        QMessageBox box(QMessageBox::Question, tr("Open lesson"),
                        tr("A lesson starts from an empty workspace. Remove every queue and "
                           "message of this one first?"),
                        QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("openLessonQuestion"));
        QPushButton* empty = box.addButton(tr("Empty it and open"), QMessageBox::AcceptRole);
        empty->setObjectName(QStringLiteral("emptyForLessonButton"));
        QPushButton* over = box.addButton(tr("Open over it"), QMessageBox::ActionRole);
        over->setObjectName(QStringLiteral("openOverButton"));
        // This workspace stays as it is; the lesson gets one of its own (File ▸ New Workspace).
        QPushButton* elsewhere = nullptr;
        if (m_lessonElsewhere) {
            elsewhere = box.addButton(tr("Open in a new workspace…"), QMessageBox::ActionRole);
            elsewhere->setObjectName(QStringLiteral("newWorkspaceForLessonButton"));
        }
        QPushButton* cancel = box.addButton(QMessageBox::Cancel);
        cancel->setObjectName(QStringLiteral("cancelLessonButton"));
        box.setDefaultButton(empty);
        box.exec();
        if (elsewhere && box.clickedButton() == elsewhere) {
            m_lessonElsewhere(path); // the app opens it there, in the window it makes
            return false;
        }
        if (box.clickedButton() != empty && box.clickedButton() != over)
            return false;
        if (box.clickedButton() == empty)
            m_session.resetEverything("window"); // the old actors and lesson go with their queues
    }
    if (scenario) {
        if (const auto loaded = m_session.loadScenario(*scenario); !loaded)
            error = QString::fromStdString(loaded.error().message);
    }
    m_lessonDock->show();
    m_lessonDock->raise();
    if (!error.isEmpty()) {
        m_lessonView->showNote(tr("Lesson not opened: %1").arg(error), true);
        return false;
    }
    // The reader reads the first step before anything runs.
    m_session.pause();
    m_queueDock->model()->refresh();
    m_simulationView->model()->refresh();
    m_tabs->setCurrentWidget(m_simulationView);
    QString note;
    const std::int64_t limit = m_session.broker().options().inFlightLimitStandard;
    if (scenario->inFlightLimit && *scenario->inFlightLimit != limit)
        note = tr("This lesson is written for an in-flight limit of %1; this session's is %2 "
                  "(fixed at start). Start Inflight with --in-flight-limit %1, or with --scenario "
                  "and this lesson's file, to see it as written.")
                   .arg(QLocale().toString(qlonglong(*scenario->inFlightLimit)),
                        QLocale().toString(qlonglong(limit)));
    m_lessonView->showNote(note, !note.isEmpty());
    m_lessonView->setCurrentLesson(path); // the picker names the lesson open
    m_lessonView->refresh();
    if (!scenario->actors.empty())
        m_simulationView->selectActor(
            QString::fromStdString(sim::actorName(scenario->actors.front().spec)));
    return true;
}

} // namespace inflight::ui
