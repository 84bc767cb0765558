#include "ui/main_window.h"

#include "session/session.h"
#include "ui/charts/throughput_chart_view.h"
#include "ui/dialogs/endpoint_dialog.h"
#include "ui/dialogs/receive_dialog.h"
#include "ui/dialogs/redrive_dialog.h"
#include "ui/models/client_directory.h"
#include "ui/models/event_log_model.h"
#include "ui/models/message_history.h"
#include "ui/models/message_table_model.h"
#include "ui/models/queue_table_model.h"
#include "ui/models/receipt_holders.h"
#include "ui/pages/messages_page.h"
#include "ui/pages/queue_dock.h"
#include "ui/source/local_source.h"
#include "ui/widgets/endpoint_control.h"
#include "ui/widgets/endpoint_status.h"
#include "ui/widgets/event_log_view.h"
#include "ui/widgets/groups_view.h"
#include "ui/widgets/help_window.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/time_controls.h"
#include "ui/workspace/default_workspace.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>

namespace inflight::ui {

MainWindow::MainWindow(session::Session& session, QWidget* parent, bool examplesIfEmpty)
    : QMainWindow(parent), m_session(session)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("Inflight"));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_source = new LocalSource(session, this);
    m_history = new MessageHistory(session, this);
    m_time = new TimeControls(session, this);
    m_clientDirectory = new ClientDirectory(this);
    m_receiptHolders = new ReceiptHolders(session, this);

    if (const auto saved = savedTheme(); saved && *saved != currentTheme())
        applyTheme(*saved); // remembered from the last run (View ▸ Theme)
    buildActions();
    buildQueueDock();
    buildCentre();
    buildSimulation();
    buildToolBars();
    buildMenus();
    buildStatusBar();
    resize(fittedSize(QSize(1480, 900)));

    messageModel()->startTicking(10);

    const bool firstLaunch = examplesIfEmpty && m_session.broker().queues().empty();
    if (firstLaunch) {
        loadDefaultWorkspace(m_session);
        m_queueDock->model()->refresh();
    }
    connect(&m_session, &session::Session::eventsReady, this, [this] { updateActions(); });
    onQueuesChanged();
    restoreSettings();
    resize(fittedSize(size(), QSize())); // a size remembered from a larger screen fits this one
    if (m_currentQueue.isEmpty())
        m_queueDock->selectFirst();
    updateActions();
}

MainWindow::~MainWindow() = default;

QAction* MainWindow::makeAction(const QString& objectName, const QString& text, const QString& tip,
                                const QKeySequence& shortcut, void (MainWindow::*slot)())
{
    auto* action = new QAction(text, this);
    action->setObjectName(objectName);
    action->setShortcut(shortcut);
    action->setStatusTip(tip);
    action->setToolTip(shortcut.isEmpty() ? tip
                                          : QStringLiteral("%1 (%2)").arg(
                                              tip, shortcut.toString(QKeySequence::NativeText)));
    if (slot)
        connect(action, &QAction::triggered, this, slot);
    addAction(action); // shortcuts work wherever the focus is in the window
    return action;
}

void MainWindow::buildActions()
{
    // Ctrl+N is the File menu's New Workspace; a queue is Ctrl+Shift+N.
    m_newQueue = makeAction(QStringLiteral("newQueueAction"), tr("&New queue…"),
                            tr("Create a queue with any attributes"),
                            QKeySequence(tr("Ctrl+Shift+N")), &MainWindow::newQueue);
    m_editQueue = makeAction(QStringLiteral("editQueueAction"), tr("&Edit attributes…"),
                             tr("Change the selected queue's attributes"),
                             QKeySequence(tr("Ctrl+E")), &MainWindow::editQueue);
    m_deleteQueue = makeAction(QStringLiteral("deleteQueueAction"), tr("&Delete queue…"),
                               tr("Delete the selected queue and its messages"),
                               QKeySequence(tr("Ctrl+Shift+Del")), &MainWindow::deleteQueue);
    m_purgeQueue = makeAction(QStringLiteral("purgeQueueAction"), tr("&Purge…"),
                              tr("Remove every message of the selected queue (OCI: or of its "
                                 "dead-letter queue, or both)"),
                              QKeySequence(tr("Ctrl+Shift+P")), &MainWindow::purgeQueue);
    m_redrive = makeAction(QStringLiteral("redriveAction"), tr("Re&drive…"),
                           tr("Move the messages of a dead-letter queue back, at a chosen rate"),
                           QKeySequence(tr("Ctrl+Shift+D")), &MainWindow::redrive);
    m_send = makeAction(QStringLiteral("sendAction"), tr("&Send…"),
                        tr("Send a message to the selected queue"), QKeySequence(tr("Ctrl+M")),
                        &MainWindow::sendMessage);
    m_sendGenerated = makeAction(QStringLiteral("sendGeneratedAction"), tr("Send &generated…"),
                                 tr("Send N generated messages for quick load"),
                                 QKeySequence(tr("Ctrl+Shift+M")), &MainWindow::sendGenerated);
    m_receive = makeAction(QStringLiteral("receiveAction"), tr("&Receive…"),
                           tr("A real receive: counts toward maxReceiveCount"),
                           QKeySequence(tr("Ctrl+R")), &MainWindow::receive);
    m_receiveOne = makeAction(QStringLiteral("receiveOneAction"), tr("Receive &1"),
                              tr("Receive one message now, with the queue's visibility timeout "
                                 "(a real receive: counts toward maxReceiveCount)"),
                              QKeySequence(tr("Ctrl+Alt+R")), nullptr);
    m_extend = makeAction(QStringLiteral("extendAction"), tr("E&xtend +30 s"),
                          tr("Give the selected in-flight messages 30 more seconds"),
                          QKeySequence(tr("Ctrl+Shift+E")), nullptr);
    m_changeVisibility
        = makeAction(QStringLiteral("changeVisibilityAction"), tr("Change &visibility…"),
                     tr("Extend by any value or set an exact visibility timeout"),
                     QKeySequence(tr("Ctrl+Shift+V")), nullptr);
    m_release = makeAction(QStringLiteral("releaseAction"), tr("Re&lease"),
                           tr("Make the selected in-flight messages visible now (visibility 0)"),
                           QKeySequence(tr("Ctrl+Shift+R")), nullptr);
    m_deleteMessage = makeAction(QStringLiteral("deleteMessageAction"), tr("De&lete message"),
                                 tr("Delete the selected in-flight messages with their receipts"),
                                 QKeySequence(QKeySequence::Delete), nullptr);
    m_deleteMessage->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    removeAction(m_deleteMessage); // Delete acts on the message table only (MessagesPage)
    m_quit = makeAction(QStringLiteral("quitAction"), tr("&Quit"), tr("Close the workbench"),
                        QKeySequence(QKeySequence::Quit), nullptr);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);
    // Short labels for the toolbar; menus keep the full text.
    m_newQueue->setIconText(tr("New queue"));
    m_send->setIconText(tr("Send"));
    m_sendGenerated->setIconText(tr("Send N"));
    m_receive->setIconText(tr("Receive"));
    m_receiveOne->setIconText(tr("Receive 1"));
    m_extend->setIconText(tr("Extend +30 s"));
    m_changeVisibility->setIconText(tr("Visibility"));
    m_release->setIconText(tr("Release"));
    m_deleteMessage->setIconText(tr("Delete"));
    m_purgeQueue->setIconText(tr("Purge"));
    m_redrive->setIconText(tr("Redrive"));
    m_findAction = new QAction(tr("&Filter messages"), this);
    m_findAction->setObjectName(QStringLiteral("findAction"));
    m_findAction->setShortcut(QKeySequence::Find);
    addAction(m_findAction);
    m_actions
        = {m_newQueue,      m_editQueue, m_deleteQueue, m_purgeQueue, m_redrive,          m_send,
           m_sendGenerated, m_receive,   m_receiveOne,  m_extend,     m_changeVisibility, m_release,
           m_deleteMessage, m_findAction};
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    buildSimulationMenus(file); // also the Lessons menu, after File
    file->addAction(m_quit);

    QMenu* queue = menuBar()->addMenu(tr("&Queue"));
    queue->setObjectName(QStringLiteral("queueMenu"));
    queue->addActions({m_newQueue, m_editQueue});
    queue->addSeparator();
    queue->addActions({m_purgeQueue, m_deleteQueue});
    queue->addSeparator();
    queue->addAction(m_redrive);

    QMenu* message = menuBar()->addMenu(tr("&Message"));
    message->setObjectName(QStringLiteral("messageMenu"));
    message->addActions({m_send, m_sendGenerated, m_receiveOne, m_receive});
    message->addSeparator();
    message->addActions({m_extend, m_changeVisibility, m_release, m_deleteMessage});
    message->addSeparator();
    message->addAction(m_findAction);

    QMenu* time = menuBar()->addMenu(tr("&Time"));
    time->setObjectName(QStringLiteral("timeMenu"));
    m_time->populate(time);

    // Shown once the app gives the window its endpoint (setEndpoint).
    m_endpointMenu = menuBar()->addMenu(tr("E&ndpoint"));
    m_endpointMenu->setObjectName(QStringLiteral("endpointMenu"));
    m_endpointMenu->menuAction()->setVisible(false);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addAction(m_timeToolBar->toggleViewAction());
    view->addAction(m_actionToolBar->toggleViewAction());
    view->addSeparator();
    QMenu* theme = view->addMenu(tr("&Theme"));
    theme->setObjectName(QStringLiteral("themeMenu"));
    populateThemeMenu(theme, this);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    const auto helpPage = [this, help](const QString& name, const QString& text,
                                       HelpWindow::Page page, const QKeySequence& key) {
        QAction* action = help->addAction(text);
        action->setObjectName(name);
        action->setShortcut(key);
        connect(action, &QAction::triggered, this, [this, page] { showHelp(page); });
    };
    helpPage(QStringLiteral("userGuideAction"), tr("User &guide"), HelpWindow::Guide,
             QKeySequence::HelpContents);
    helpPage(QStringLiteral("shortcutsAction"), tr("&Keyboard shortcuts"), HelpWindow::Shortcuts,
             QKeySequence());
    helpPage(QStringLiteral("behaviourAction"), tr("&Behaviour choices"), HelpWindow::Behaviour,
             QKeySequence());
    help->addSeparator();
    QAction* aboutAction = help->addAction(tr("&About Inflight"));
    aboutAction->setObjectName(QStringLiteral("aboutAction"));
    connect(aboutAction, &QAction::triggered, this, &MainWindow::about);
}

void MainWindow::buildToolBars()
{
    m_timeToolBar = addToolBar(tr("Time"));
    m_timeToolBar->setObjectName(QStringLiteral("timeToolBar"));
    m_time->populate(m_timeToolBar);

    m_actionToolBar = addToolBar(tr("Actions"));
    m_actionToolBar->setObjectName(QStringLiteral("actionToolBar"));
    m_actionToolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    const auto add = [this](QAction* action) {
        m_actionToolBar->addAction(action);
        if (QWidget* button = m_actionToolBar->widgetForAction(action))
            button->setObjectName(
                action->objectName().replace(QStringLiteral("Action"), QStringLiteral("Button")));
    };
    for (QAction* a : {m_newQueue, m_send, m_sendGenerated, m_receiveOne, m_receive})
        add(a);
    m_actionToolBar->addSeparator();
    for (QAction* a : {m_extend, m_changeVisibility, m_release, m_deleteMessage})
        add(a);
    m_actionToolBar->addSeparator();
    for (QAction* a : {m_purgeQueue, m_redrive})
        add(a);
}

void MainWindow::buildQueueDock()
{
    m_queueDock = new QueueDock(*m_source, m_actions, this);
    addDockWidget(Qt::LeftDockWidgetArea, m_queueDock);
    connect(m_queueDock, &QueueDock::queueSelected, this, &MainWindow::onQueueSelected);
    connect(m_queueDock, &QueueDock::queuesChanged, this, &MainWindow::onQueuesChanged);
    connect(m_queueDock, &QueueDock::queueDataChanged, this, [this] {
        m_messagesPage->updateTitle();
        updateActions();
    });
}

void MainWindow::onQueuesChanged()
{
    const QueueTableModel* queues = m_queueDock->model();
    QStringList names;
    for (int row = 0; row < queues->rowCount(); ++row)
        names << queues->queueName(row);
    if (m_eventLog)
        m_eventLog->setQueueNames(names);
    m_messagesPage->setQueueNames(names);
    if (!m_currentQueue.isEmpty() && queues->rowOf(m_currentQueue) < 0)
        onQueueSelected(QString(), 0);
}

void MainWindow::buildCentre()
{
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("mainTabs"));
    m_tabs->setDocumentMode(true);

    m_messagesPage = new MessagesPage(*m_source, m_actions, m_history, m_tabs);
    m_messagesPage->setClients(m_clientDirectory, m_receiptHolders);
    m_tabs->addTab(m_messagesPage, tr("Messages"));
    m_groups = new GroupsView(m_session, m_tabs);
    m_tabs->addTab(m_groups, tr("Groups"));
    m_charts = new ThroughputChartView(m_session, m_tabs);
    m_tabs->addTab(m_charts, tr("Charts"));
    m_eventLog = new EventLogView(m_session, m_tabs);
    m_eventLog->model()->setClients(m_clientDirectory);
    m_tabs->addTab(m_eventLog, tr("Event log"));
    setCentralWidget(m_tabs);

    connect(m_findAction, &QAction::triggered, this, [this] {
        m_tabs->setCurrentIndex(0);
        m_messagesPage->focusFilter();
    });
    connect(m_messagesPage, &MessagesPage::selectionChanged, this, [this] { updateActions(); });
    connect(m_receiveOne, &QAction::triggered, m_messagesPage, &MessagesPage::receiveOne);
    connect(m_extend, &QAction::triggered, m_messagesPage, &MessagesPage::extend30);
    connect(m_changeVisibility, &QAction::triggered, m_messagesPage,
            &MessagesPage::changeVisibility);
    connect(m_release, &QAction::triggered, m_messagesPage, &MessagesPage::release);
    connect(m_deleteMessage, &QAction::triggered, m_messagesPage, &MessagesPage::deleteSelected);
    connect(m_messagesPage, &MessagesPage::statusMessage, statusBar(), &QStatusBar::showMessage);
}

void MainWindow::buildStatusBar()
{
    m_waitLabel = new QLabel(statusBar());
    m_waitLabel->setObjectName(QStringLiteral("waitStatusLabel"));
    m_waitProgress = new QProgressBar(statusBar());
    m_waitProgress->setObjectName(QStringLiteral("waitStatusProgress"));
    m_waitProgress->setRange(0, 0); // busy: the wait's end is in the receive dialog
    m_waitProgress->setMaximumWidth(120);
    m_waitProgress->setMaximumHeight(statusBar()->fontMetrics().height());
    statusBar()->addPermanentWidget(m_waitLabel);
    statusBar()->addPermanentWidget(m_waitProgress);
    m_waitLabel->hide();
    m_waitProgress->hide();
}

void MainWindow::setEndpoint(EndpointControl* endpoint)
{
    m_endpoint = endpoint;
    if (!m_endpointStatus) {
        m_endpointStatus = new EndpointStatus(statusBar());
        statusBar()->insertPermanentWidget(0, m_endpointStatus);
        QAction* settings
            = makeAction(QStringLiteral("endpointSettingsAction"), tr("Endpoint &settings…"),
                         tr("Change the SQS endpoint's host or port, or turn it off"),
                         QKeySequence(), &MainWindow::endpointSettings);
        m_endpointMenu->addAction(
            m_endpointStatus->findChild<QAction*>(QStringLiteral("copyEndpointAction")));
        m_endpointMenu->addAction(settings);
        m_endpointStatus->addMenuAction(settings);
    }
    m_endpointStatus->setEndpoint(endpoint);
    m_endpointMenu->menuAction()->setVisible(endpoint != nullptr);
    m_endpointStatus->setVisible(endpoint != nullptr);
}

void MainWindow::endpointSettings()
{
    if (!m_endpoint)
        return;
    auto* dialog = new EndpointDialog(*m_endpoint, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::showWaiting(bool waiting, const QString& text)
{
    m_waitLabel->setText(text);
    m_waitLabel->setVisible(waiting);
    m_waitProgress->setVisible(waiting);
}

ReceiveDialog* MainWindow::receiveDialog() const
{
    return m_receiveDialog;
}

RedriveDialog* MainWindow::redriveDialog() const
{
    return m_redriveDialog;
}

QAction* MainWindow::action(const QString& objectName) const
{
    return findChild<QAction*>(objectName);
}

bool MainWindow::selectQueue(const QString& queue)
{
    return m_queueDock->selectQueue(queue);
}

void MainWindow::onQueueSelected(const QString& queue, int kind)
{
    if (queue == m_messagesPage->queue() && !queue.isEmpty()) {
        updateActions();
        return;
    }
    m_currentQueue = queue;
    m_messagesPage->setQueue(queue, kind);
    m_groups->setQueue(queue, kind);
    // OCI queues have channels where FIFO queues have groups (standard queues have neither).
    m_tabs->setTabText(m_tabs->indexOf(m_groups),
                       engine::QueueKind(kind) == engine::QueueKind::Oci ? tr("Channels")
                                                                         : tr("Groups"));
    m_charts->setQueue(queue);
    updateActions();
}

void MainWindow::updateActions()
{
    const bool hasQueue = !m_currentQueue.isEmpty();
    for (QAction* a : {m_editQueue, m_deleteQueue, m_purgeQueue, m_send, m_sendGenerated, m_receive,
                       m_receiveOne})
        a->setEnabled(hasQueue);
    const QueueTableModel* queues = m_queueDock->model();
    const int row = hasQueue ? queues->rowOf(m_currentQueue) : -1;
    m_redrive->setEnabled(
        row >= 0 && queues->index(row, 0).data(QueueTableModel::IsDeadLetterQueueRole).toBool());
    const bool anyInFlight = m_messagesPage->hasInFlightSelection();
    for (QAction* a : {m_extend, m_changeVisibility, m_release, m_deleteMessage})
        a->setEnabled(anyInFlight);
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("window"));
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState());
    settings.setValue(QStringLiteral("messageHeader"),
                      messageView()->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("queueHeader"), m_queueDock->saveHeader());
    settings.setValue(QStringLiteral("messageSplitter"), m_messagesPage->saveState());
    settings.setValue(QStringLiteral("tab"), m_tabs->currentIndex());
    settings.setValue(QStringLiteral("queue"), m_currentQueue);
    settings.setValue(QStringLiteral("stateFilter"), m_messagesPage->stateFilter()->currentIndex());
    settings.endGroup();
    settings.beginGroup(QStringLiteral("charts"));
    settings.setValue(QStringLiteral("allQueues"), m_charts->showsAllQueues());
    settings.setValue(QStringLiteral("minutes"), m_charts->windowMinutes());
    settings.endGroup();
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("window"));
    if (settings.contains(QStringLiteral("geometry")))
        restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    if (settings.contains(QStringLiteral("state")))
        m_layoutRestored = restoreState(settings.value(QStringLiteral("state")).toByteArray());
    if (settings.contains(QStringLiteral("messageHeader")))
        messageView()->horizontalHeader()->restoreState(
            settings.value(QStringLiteral("messageHeader")).toByteArray());
    if (settings.contains(QStringLiteral("queueHeader")))
        m_queueDock->restoreHeader(settings.value(QStringLiteral("queueHeader")).toByteArray());
    if (settings.contains(QStringLiteral("messageSplitter")))
        m_messagesPage->restoreState(
            settings.value(QStringLiteral("messageSplitter")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("tab"), 0).toInt());
    m_messagesPage->stateFilter()->setCurrentIndex(
        settings.value(QStringLiteral("stateFilter"), 0).toInt());
    const QString queue = settings.value(QStringLiteral("queue")).toString();
    settings.endGroup();
    settings.beginGroup(QStringLiteral("charts"));
    m_charts->setAllQueues(settings.value(QStringLiteral("allQueues"), false).toBool());
    m_charts->setWindowMinutes(settings.value(QStringLiteral("minutes"), 5).toInt());
    settings.endGroup();
    if (!queue.isEmpty())
        selectQueue(queue);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_layoutRestored) {
        m_layoutRestored = true;
        // After the window system has settled the window's size.
        QMetaObject::invokeMethod(this, &MainWindow::applyFirstLayout, Qt::QueuedConnection);
    }
}

void MainWindow::applyFirstLayout()
{
    // First show without a remembered layout: the queue list as wide as its names and relations
    // (within a limit), then the messages and the inspector share the rest.
    const int dock = std::min(m_queueDock->fittingWidth(), width() * 3 / 10);
    resizeDocks({m_queueDock}, {dock}, Qt::Horizontal);
    updateToolBarRows();
    const int centre = width() - dock;
    m_messagesPage->setSizes({centre - centre * 3 / 10, centre * 3 / 10});
}

QSize MainWindow::fittedSize(QSize wanted, QSize margin) const
{
    const QScreen* screen = this->screen();
    if (!screen)
        return wanted;
    const QSize room = screen->availableGeometry().size() - margin;
    return wanted.boundedTo(room.expandedTo(QSize(640, 480)));
}

void MainWindow::showHelp(int page)
{
    // Made on first use, with the menus as they are by then (the endpoint's included).
    if (!m_help) {
        QList<QMenu*> menus;
        for (QAction* action : menuBar()->actions())
            if (action->menu() && action->isVisible())
                menus << action->menu();
        m_help = new HelpWindow(menus, this);
    }
    m_help->showPage(HelpWindow::Page(page));
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    updateToolBarRows();
}

void MainWindow::updateToolBarRows()
{
    if (!m_timeToolBar || !m_actionToolBar || toolBarArea(m_actionToolBar) != Qt::TopToolBarArea
        || toolBarArea(m_timeToolBar) != Qt::TopToolBarArea)
        return;
    const bool oneRow
        = m_timeToolBar->sizeHint().width() + m_actionToolBar->sizeHint().width() + 24 <= width();
    const bool broken = toolBarBreak(m_actionToolBar);
    if (oneRow && broken)
        removeToolBarBreak(m_actionToolBar);
    else if (!oneRow && !broken)
        insertToolBarBreak(m_actionToolBar);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    if (m_receiveDialog)
        m_receiveDialog->close();
    QMainWindow::closeEvent(event);
}

} // namespace inflight::ui
