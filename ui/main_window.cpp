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
#include "ui/widgets/zoom.h"
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
    applySavedZoom();
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
    // A size remembered from a larger screen fits this one (no margin: QSize() is -1 × -1, which
    // let a remembered width pass the screen's by a pixel).
    resize(fittedSize(size(), QSize(0, 0)));
    if (m_currentQueue.isEmpty())
        m_queueDock->selectFirst();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions()
{
    m_actions = makeWindowActions(this);
    const auto on = [this](QAction* action, void (MainWindow::*slot)()) {
        connect(action, &QAction::triggered, this, slot);
    };
    on(m_actions.newQueue, &MainWindow::newQueue);
    on(m_actions.editQueue, &MainWindow::editQueue);
    on(m_actions.deleteQueue, &MainWindow::deleteQueue);
    on(m_actions.purgeQueue, &MainWindow::purgeQueue);
    on(m_actions.redrive, &MainWindow::redrive);
    on(m_actions.send, &MainWindow::sendMessage);
    on(m_actions.sendGenerated, &MainWindow::sendGenerated);
    on(m_actions.receive, &MainWindow::receive);
    connect(m_actions.quit, &QAction::triggered, this, &QWidget::close);
    // The message actions act on the Messages page (buildCentre).
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    buildSimulationMenus(file); // also the Lessons menu, after File
    file->addAction(m_actions.quit);

    QMenu* queue = menuBar()->addMenu(tr("&Queue"));
    queue->setObjectName(QStringLiteral("queueMenu"));
    queue->addActions({m_actions.newQueue, m_actions.editQueue});
    queue->addSeparator();
    queue->addActions({m_actions.purgeQueue, m_actions.deleteQueue});
    queue->addSeparator();
    queue->addAction(m_actions.redrive);

    QMenu* message = menuBar()->addMenu(tr("&Message"));
    message->setObjectName(QStringLiteral("messageMenu"));
    message->addActions(
        {m_actions.send, m_actions.sendGenerated, m_actions.receiveOne, m_actions.receive});
    message->addSeparator();
    message->addActions(
        {m_actions.extend, m_actions.changeVisibility, m_actions.release, m_actions.deleteMessage});
    message->addSeparator();
    message->addAction(m_actions.find);

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
    populateZoomMenu(view->addMenu(tr("&Zoom")), this); // for a projector

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
    for (QAction* a : {m_actions.newQueue, m_actions.send, m_actions.sendGenerated,
                       m_actions.receiveOne, m_actions.receive})
        add(a);
    m_actionToolBar->addSeparator();
    for (QAction* a :
         {m_actions.extend, m_actions.changeVisibility, m_actions.release, m_actions.deleteMessage})
        add(a);
    m_actionToolBar->addSeparator();
    for (QAction* a : {m_actions.purgeQueue, m_actions.redrive})
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

    connect(m_actions.find, &QAction::triggered, this, [this] {
        m_tabs->setCurrentIndex(0);
        m_messagesPage->focusFilter();
    });
    connect(m_messagesPage, &MessagesPage::selectionChanged, this, [this] { updateActions(); });
    connect(m_actions.receiveOne, &QAction::triggered, m_messagesPage, &MessagesPage::receiveOne);
    connect(m_actions.extend, &QAction::triggered, m_messagesPage, &MessagesPage::extend30);
    connect(m_actions.changeVisibility, &QAction::triggered, m_messagesPage,
            &MessagesPage::changeVisibility);
    connect(m_actions.release, &QAction::triggered, m_messagesPage, &MessagesPage::release);
    connect(m_actions.deleteMessage, &QAction::triggered, m_messagesPage,
            &MessagesPage::deleteSelected);
    connect(m_messagesPage, &MessagesPage::statusMessage, statusBar(), &QStatusBar::showMessage);
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
    // An open Receive panel follows the selection, unless it waits on its own queue (its title
    // says which): a panel that read "Receive from orders" with orders-dlq selected misled.
    if (m_receiveDialog && m_receiveDock && m_receiveDock->isVisible()
        && m_receiveDialog->queue() != queue && !m_receiveDialog->isWaiting()) {
        if (queue.isEmpty())
            m_receiveDock->hide();
        else
            receive();
    }
    updateActions();
}

void MainWindow::updateActions()
{
    const bool hasQueue = !m_currentQueue.isEmpty();
    for (QAction* a :
         {m_actions.editQueue, m_actions.deleteQueue, m_actions.purgeQueue, m_actions.send,
          m_actions.sendGenerated, m_actions.receive, m_actions.receiveOne})
        a->setEnabled(hasQueue);
    const QueueTableModel* queues = m_queueDock->model();
    const int row = hasQueue ? queues->rowOf(m_currentQueue) : -1;
    m_actions.redrive->setEnabled(
        row >= 0 && queues->index(row, 0).data(QueueTableModel::IsDeadLetterQueueRole).toBool());
    const bool anyInFlight = m_messagesPage->hasInFlightSelection();
    for (QAction* a :
         {m_actions.extend, m_actions.changeVisibility, m_actions.release, m_actions.deleteMessage})
        a->setEnabled(anyInFlight);
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
