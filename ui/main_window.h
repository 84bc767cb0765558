#pragma once

#include "ui/pages/messages_page.h"
#include "ui/pages/queue_dock.h"
#include "ui/pages/window_actions.h"

#include "engine/views.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>

#include <cstdint>
#include <functional>
#include <vector>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QModelIndex;
class QProgressBar;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;
class QToolBar;
class QTreeView;

namespace inflight::session {
class Session;
}

namespace inflight::traffic {
class TrafficLog;
}

namespace inflight::ui {

class ClientDirectory;
class ClientsView;
class EndpointControl;
class ReceiptHolders;
class TrafficView;
class EndpointStatus;
class EventLogView;
class GroupsView;
class HelpWindow;
class LessonView;
class LocalSource;
class SimulationView;
class MessageFilterModel;
class MessageHistory;
class MessageInspector;
class MessageTableModel;
class NoticeBar;
class QueueTableModel;
class ReceiveDialog;
class RedriveDialog;
class ThroughputChartView;
class TimeControls;

// The workbench's main window: queues (left dock); the selected queue's messages by peek with
// live countdowns and, on their right, the inspector of the selected message; its FIFO groups,
// charts and the event log (tabs beside the messages); engine-time controls and every action in
// menus and toolbars with shortcuts. Every broker call it makes carries the origin "window"; every
// engine error is shown where the user acted (inline in a dialog, or in the notice bar over the
// queue list or the message table). On an empty broker it loads the default workspace. Layout and
// settings are remembered with QSettings.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `session` must outlive the window.
    // `examplesIfEmpty`: a session without queues gets the example queues (a first launch, a new
    // workspace with examples); false for an empty workspace that is to stay empty.
    explicit MainWindow(session::Session& session, QWidget* parent = nullptr,
                        bool examplesIfEmpty = true);
    ~MainWindow() override;

    // The queue whose messages are shown; empty if none.
    QString currentQueue() const { return m_currentQueue; }
    // Selects `queue` in the queue list (and shows its messages). False if there is none.
    bool selectQueue(const QString& queue);
    // Selects the messages with these ids in the message table; returns how many were found.
    int selectMessages(const QStringList& messageIds)
    {
        return m_messagesPage->selectMessages(messageIds);
    }
    // The message ids selected in the message table, in row order.
    QStringList selectedMessageIds() const { return m_messagesPage->selectedMessageIds(); }

    // The named action ("newQueueAction", "receiveAction", …).
    QAction* action(const QString& objectName) const;
    TimeControls* timeControls() const { return m_time; }
    QueueDock* queueDock() const { return m_queueDock; }
    MessagesPage* messagesPage() const { return m_messagesPage; }
    MessageTableModel* messageModel() const { return m_messagesPage->model(); }
    MessageFilterModel* messageFilter() const { return m_messagesPage->filter(); }
    QTableView* messageView() const { return m_messagesPage->view(); }
    QTreeView* queueView() const { return m_queueDock->view(); }
    MessageInspector* inspector() const { return m_messagesPage->inspector(); }
    // The receive and redrive dialogs while they exist (not modal: one per window).
    ReceiveDialog* receiveDialog() const;
    RedriveDialog* redriveDialog() const;
    NoticeBar* messageNotice() const { return m_messagesPage->notice(); }
    NoticeBar* queueNotice() const { return m_queueDock->notice(); }
    QTabWidget* tabs() const { return m_tabs; }
    ThroughputChartView* charts() const { return m_charts; }
    EventLogView* eventLog() const { return m_eventLog; }
    GroupsView* groups() const { return m_groups; }

    // Shows the SQS endpoint in the status bar (EndpointStatus) and adds "Endpoint settings…"
    // (endpointSettingsAction, Endpoint menu) to change its port or turn it off. Not owned; may be
    // called again with another.
    void setEndpoint(EndpointControl* endpoint);
    EndpointStatus* endpointStatus() const { return m_endpointStatus; }

    // Adds the Traffic and Clients tabs over the endpoint's traffic log (main_window_traffic.cpp).
    // `log` must outlive the window; called at most once.
    void setTrafficLog(traffic::TrafficLog& log);
    TrafficView* trafficView() const { return m_trafficView; }
    ClientsView* clientsView() const { return m_clientsView; }
    // Names and colours of the endpoint's clients (kept per workspace: setWorkspace).
    ClientDirectory* clientDirectory() const { return m_clientDirectory; }
    // Shows that request in the Traffic tab. False when it is no longer in the log.
    bool showRequest(std::uint64_t cursor);
    // Selects the message in its queue and shows its timeline (also when it is gone).
    void showMessage(const QString& queue, const QString& messageId);

    // Writes the window layout and settings to QSettings (also done on close).
    void saveSettings() const;
    void restoreSettings();

    // The simulation half (main_window_simulation.cpp): the Simulation tab, the Lesson dock.
    SimulationView* simulationView() const { return m_simulationView; }
    LessonView* lessonView() const { return m_lessonView; }
    QDockWidget* lessonDock() const { return m_lessonDock; }
    // Open Scenario / Save Scenario without the file dialog: "" when done, else the refusal
    // (also shown in the Simulation tab's notice bar; a refused file changes nothing).
    QString openScenarioFile(const QString& path);
    QString saveScenarioFile(const QString& path);
    // Loads a lesson's scenario (Replace), pauses the clock and shows the Lesson dock. Over a
    // workspace with queues it asks first: empty it, open over it, open the lesson in a new
    // workspace (when setLessonElsewhere gave a way to), or cancel.
    bool openLesson(const QString& path);
    // How "Open in a new workspace…" opens a lesson (the app: a new workspace, switched to,
    // with the lesson opened in its window). None: the choice is not offered.
    void setLessonElsewhere(std::function<void(const QString& lessonPath)> open)
    {
        m_lessonElsewhere = std::move(open);
    }

    // The message table's menu at `at` (viewport coordinates): the message actions, then copy id
    // / body / receipt, send a copy, copy or move to another queue (repair and resubmit: the send
    // dialog opens with the message to edit; a move deletes the original with its receipt once
    // the copy is sent). Runs the menu (what a right click does).
    void showMessageMenu(const QPoint& at) { m_messagesPage->showMenu(at); }

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    // Building (main_window.cpp).
    void buildActions();
    void buildMenus();
    void buildToolBars();
    void buildQueueDock();
    void buildCentre();
    void buildStatusBar();
    // `wanted` within the screen's free area less `margin` (room for the window's frame): the
    // window opens inside a 1280×800 screen.
    QSize fittedSize(QSize wanted, QSize margin = QSize(32, 48)) const;
    // The action toolbar on a row of its own when both toolbars do not fit in one (1280×800):
    // none of its buttons hides behind the overflow arrow.
    void updateToolBarRows();
    // Opens the help window on a page (HelpWindow::Page).
    void showHelp(int page);
    void onQueueSelected(const QString& queue, int kind);
    void onQueuesChanged();
    void applyFirstLayout();
    void updateActions();
    void showWaiting(bool waiting, const QString& text);

    void buildSimulation();
    void buildSimulationMenus(QMenu* file);

    // Actions (main_window_actions.cpp).
    void newQueue();
    void editQueue();
    void deleteQueue();
    void purgeQueue();
    void sendMessage();
    void sendGenerated();
    void receive();
    // Puts the receive dialog in the Receive panel (receiveDock) and shows it.
    void dockReceive(ReceiveDialog* dialog);
    void redrive();
    void endpointSettings();
    void about();
    bool confirm(const QString& objectName, const QString& title, const QString& text);

    session::Session& m_session;
    LocalSource* m_source = nullptr;
    WindowActions m_actions;
    QString m_currentQueue;
    QueueDock* m_queueDock = nullptr;
    MessagesPage* m_messagesPage = nullptr;

    MessageHistory* m_history = nullptr;

    TimeControls* m_time = nullptr;
    bool m_layoutRestored = false;
    QTabWidget* m_tabs = nullptr;
    HelpWindow* m_help = nullptr;
    QDockWidget* m_receiveDock = nullptr;
    GroupsView* m_groups = nullptr;
    ThroughputChartView* m_charts = nullptr;
    EventLogView* m_eventLog = nullptr;
    ClientDirectory* m_clientDirectory = nullptr;
    ReceiptHolders* m_receiptHolders = nullptr;
    TrafficView* m_trafficView = nullptr;
    ClientsView* m_clientsView = nullptr;
    QLabel* m_waitLabel = nullptr;
    QProgressBar* m_waitProgress = nullptr;
    QToolBar* m_timeToolBar = nullptr;
    QToolBar* m_actionToolBar = nullptr;
    QPointer<ReceiveDialog> m_receiveDialog;
    QPointer<RedriveDialog> m_redriveDialog;
    QPointer<EndpointControl> m_endpoint;
    EndpointStatus* m_endpointStatus = nullptr;
    QMenu* m_endpointMenu = nullptr;
    SimulationView* m_simulationView = nullptr;
    LessonView* m_lessonView = nullptr;
    std::function<void(const QString&)> m_lessonElsewhere;
    QDockWidget* m_lessonDock = nullptr;
};

} // namespace inflight::ui
