#include "ui/main_window.h"

#include "session/session.h"
#include "ui/charts/throughput_chart_view.h"
#include "ui/dialogs/endpoint_dialog.h"
#include "ui/dialogs/receive_dialog.h"
#include "ui/dialogs/redrive_dialog.h"
#include "ui/models/client_directory.h"
#include "ui/models/event_log_model.h"
#include "ui/models/message_filter_model.h"
#include "ui/models/message_history.h"
#include "ui/models/message_table_model.h"
#include "ui/models/queue_table_model.h"
#include "ui/models/receipt_holders.h"
#include "ui/models/timeline_model.h"
#include "ui/widgets/column_menu.h"
#include "ui/widgets/countdown_delegate.h"
#include "ui/widgets/dead_letter_delegate.h"
#include "ui/widgets/endpoint_control.h"
#include "ui/widgets/endpoint_status.h"
#include "ui/widgets/engine_text.h"
#include "ui/widgets/event_log_view.h"
#include "ui/widgets/groups_view.h"
#include "ui/widgets/help_window.h"
#include "ui/widgets/message_inspector.h"
#include "ui/widgets/notice_bar.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/time_controls.h"
#include "ui/workspace/default_workspace.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace inflight::ui {

namespace {

enum StateFilterIndex { AllStates, AvailableOnly, InFlightOnly, DelayedOnly };

int fontRowHeight(const QWidget* widget)
{
    return widget->fontMetrics().height() + 8;
}

} // namespace

MainWindow::MainWindow(session::Session& session, QWidget* parent, bool examplesIfEmpty)
    : QMainWindow(parent), m_session(session)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("Inflight"));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_history = new MessageHistory(session, this);
    m_queues = new QueueTableModel(session, this);
    m_messages = new MessageTableModel(session, this);
    m_messageFilter = new MessageFilterModel(this);
    m_messageFilter->setSourceModel(m_messages);
    m_time = new TimeControls(session, this);
    m_clientDirectory = new ClientDirectory(this);
    m_receiptHolders = new ReceiptHolders(session, this);
    m_messages->setReceiptHolders(m_receiptHolders, m_clientDirectory);

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

    m_messages->startTicking(10);

    const bool firstLaunch = examplesIfEmpty && m_session.broker().queues().empty();
    if (firstLaunch) {
        loadDefaultWorkspace(m_session);
        m_queues->refresh();
    }
    connect(&m_session, &session::Session::eventsReady, this, [this] { updateActions(); });
    onQueuesChanged();
    restoreSettings();
    resize(fittedSize(size(), QSize())); // a size remembered from a larger screen fits this one
    if (m_currentQueue.isEmpty() && m_queueProxy->rowCount() > 0)
        selectQueue(m_queueProxy->index(0, 0).data(QueueTableModel::QueueNameRole).toString());
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
                              QKeySequence(tr("Ctrl+Alt+R")), &MainWindow::receiveOne);
    m_extend = makeAction(QStringLiteral("extendAction"), tr("E&xtend +30 s"),
                          tr("Give the selected in-flight messages 30 more seconds"),
                          QKeySequence(tr("Ctrl+Shift+E")), &MainWindow::extend30);
    m_changeVisibility
        = makeAction(QStringLiteral("changeVisibilityAction"), tr("Change &visibility…"),
                     tr("Extend by any value or set an exact visibility timeout"),
                     QKeySequence(tr("Ctrl+Shift+V")), &MainWindow::changeVisibility);
    m_release = makeAction(QStringLiteral("releaseAction"), tr("Re&lease"),
                           tr("Make the selected in-flight messages visible now (visibility 0)"),
                           QKeySequence(tr("Ctrl+Shift+R")), &MainWindow::release);
    m_deleteMessage
        = makeAction(QStringLiteral("deleteMessageAction"), tr("De&lete message"),
                     tr("Delete the selected in-flight messages with their receipts"),
                     QKeySequence(QKeySequence::Delete), &MainWindow::deleteSelectedMessages);
    m_deleteMessage->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    removeAction(m_deleteMessage); // Delete acts on the message table only (see buildCentre)
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
    auto* dock = new QDockWidget(tr("Queues"), this);
    dock->setObjectName(QStringLiteral("queuesDock"));
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                      | QDockWidget::DockWidgetClosable);
    auto* panel = new QWidget(dock);
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(4, 4, 4, 4);
    m_queueNotice = new NoticeBar(panel);
    m_queueNotice->setObjectName(QStringLiteral("queueNotice"));
    layout->addWidget(m_queueNotice);

    m_queueProxy = new QSortFilterProxyModel(this);
    m_queueProxy->setSourceModel(m_queues);
    m_queueProxy->setSortRole(Qt::UserRole);
    m_queueView = new QTreeView(panel);
    m_queueView->setObjectName(QStringLiteral("queueView"));
    m_queueView->setModel(m_queueProxy);
    m_queueView->setRootIsDecorated(false);
    m_queueView->setUniformRowHeights(true);
    m_queueView->setAlternatingRowColors(true);
    m_queueView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_queueView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_queueView->header()->setSortIndicator(-1, Qt::AscendingOrder);
    m_queueView->setSortingEnabled(true);
    m_queueView->header()->setStretchLastSection(true);
    m_queueView->header()->setSectionResizeMode(QHeaderView::Interactive);
    const QFontMetrics metrics = m_queueView->fontMetrics();
    m_queueView->setColumnWidth(QueueTableModel::NameColumn,
                                metrics.horizontalAdvance(QStringLiteral("payments-dlq.fifo"))
                                    + 16);
    m_queueView->setColumnWidth(QueueTableModel::TypeColumn,
                                metrics.horizontalAdvance(QStringLiteral("standard")) + 12);
    // Counts are narrower than their headers: each column as wide as its own header.
    const QFontMetrics headerMetrics = m_queueView->header()->fontMetrics();
    for (int column : {QueueTableModel::AvailableColumn, QueueTableModel::InFlightColumn,
                       QueueTableModel::DelayedColumn})
        m_queueView->setColumnWidth(
            column,
            headerMetrics.horizontalAdvance(m_queues->headerData(column, Qt::Horizontal).toString())
                + 16);
    // Long names keep their start and their end (".fifo", "-dlq"); the dead-letter relation
    // elides the names in it and keeps its arrows and "(max N)". Tooltips have the full text.
    m_queueView->setTextElideMode(Qt::ElideMiddle);
    m_queueView->setItemDelegateForColumn(QueueTableModel::DeadLetterColumn,
                                          new DeadLetterDelegate(m_queueView));
    // The list shows names and counts; a queue's type and dead-letter relation are in the
    // messages' header (a right click on the list's header shows them here too).
    m_queueView->setColumnHidden(QueueTableModel::TypeColumn, true);
    m_queueView->setColumnHidden(QueueTableModel::DeadLetterColumn, true);
    addColumnMenu(m_queueView->header());
    m_queueView->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_queueView->addActions({m_send, m_sendGenerated, m_receiveOne, m_receive});
    auto* separator = new QAction(m_queueView);
    separator->setSeparator(true);
    m_queueView->addAction(separator);
    m_queueView->addActions({m_editQueue, m_purgeQueue, m_deleteQueue, m_redrive});
    layout->addWidget(m_queueView, 1);

    auto* newButton = new QToolButton(panel);
    newButton->setObjectName(QStringLiteral("newQueueButtonDock"));
    newButton->setDefaultAction(m_newQueue);
    newButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(newButton);
    auto* editButton = new QToolButton(panel);
    editButton->setObjectName(QStringLiteral("editQueueButton"));
    editButton->setDefaultAction(m_editQueue);
    auto* deleteButton = new QToolButton(panel);
    deleteButton->setObjectName(QStringLiteral("deleteQueueButton"));
    deleteButton->setDefaultAction(m_deleteQueue);
    buttons->addWidget(editButton);
    buttons->addWidget(deleteButton);
    buttons->addStretch();
    layout->addLayout(buttons);

    dock->setWidget(panel);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    m_queueDock = dock;

    connect(m_queueView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::onQueueSelected);
    connect(m_queues, &QAbstractItemModel::rowsInserted, this, &MainWindow::onQueuesChanged);
    connect(m_queues, &QAbstractItemModel::rowsRemoved, this, &MainWindow::onQueuesChanged);
    connect(m_queues, &QAbstractItemModel::modelReset, this, &MainWindow::onQueuesChanged);
    connect(m_queues, &QAbstractItemModel::dataChanged, this, [this] {
        updateQueueTitle();
        updateActions();
    });
}

void MainWindow::onQueuesChanged()
{
    QStringList names;
    for (int row = 0; row < m_queues->rowCount(); ++row)
        names << m_queues->queueName(row);
    if (m_eventLog)
        m_eventLog->setQueueNames(names);
    if (!m_currentQueue.isEmpty() && m_queues->rowOf(m_currentQueue) < 0) {
        m_currentQueue.clear();
        onQueueSelected();
    }
}

void MainWindow::buildCentre()
{
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("mainTabs"));
    m_tabs->setDocumentMode(true);

    // Messages: the table, and the inspector of the selected message on its right.
    m_messageSplitter = new QSplitter(Qt::Horizontal, m_tabs);
    m_messageSplitter->setObjectName(QStringLiteral("messageSplitter"));
    m_messageSplitter->setChildrenCollapsible(false);
    auto* messages = new QWidget(m_messageSplitter);
    messages->setObjectName(QStringLiteral("messagesPage"));
    auto* layout = new QVBoxLayout(messages);
    layout->setContentsMargins(4, 4, 0, 4);
    auto* filters = new QHBoxLayout;
    m_queueTitle = new QLabel(messages);
    m_queueTitle->setObjectName(QStringLiteral("queueTitleLabel"));
    QFont titleFont = m_queueTitle->font();
    titleFont.setBold(true);
    m_queueTitle->setFont(titleFont);
    m_queueDetails = new QLabel(messages);
    m_queueDetails->setObjectName(QStringLiteral("queueDetailsLabel"));
    m_queueDetails->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_queueDetails->setToolTip(tr("The queue's visibility timeout, delivery delay and dead-letter "
                                  "queue (Queue ▸ Edit attributes changes them)"));
    m_stateFilter = new QComboBox(messages);
    m_stateFilter->setObjectName(QStringLiteral("stateFilterCombo"));
    m_stateFilter->addItems({tr("All states"), tr("Available"), tr("In flight"), tr("Delayed")});
    m_textFilter = new QLineEdit(messages);
    m_textFilter->setObjectName(QStringLiteral("textFilterEdit"));
    m_textFilter->setPlaceholderText(
        tr("Filter by id, body or group (%1)")
            .arg(QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText)));
    m_textFilter->setClearButtonEnabled(true);
    m_messageCount = new QLabel(messages);
    m_messageCount->setObjectName(QStringLiteral("messageCountLabel"));
    auto* title = new QHBoxLayout;
    title->addWidget(m_queueTitle);
    title->addSpacing(8);
    title->addWidget(m_queueDetails, 1);
    layout->addLayout(title);
    filters->addWidget(m_stateFilter);
    filters->addWidget(m_textFilter, 1);
    filters->addWidget(m_messageCount);
    layout->addLayout(filters);

    m_messageNotice = new NoticeBar(messages);
    m_messageNotice->setObjectName(QStringLiteral("messageNotice"));
    layout->addWidget(m_messageNotice);

    m_messageView = new QTableView(messages);
    m_messageView->setObjectName(QStringLiteral("messageView"));
    m_messageView->setModel(m_messageFilter);
    m_messageView->setItemDelegateForColumn(MessageTableModel::VisibilityColumn,
                                            new CountdownDelegate(m_messageView));
    m_messageView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_messageView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_messageView->verticalHeader()->hide();
    m_messageView->verticalHeader()->setDefaultSectionSize(fontRowHeight(m_messageView));
    m_messageView->setWordWrap(false);
    m_messageView->setAlternatingRowColors(true);
    m_messageView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_messageView->setSortingEnabled(true);
    m_messageView->horizontalHeader()->setStretchLastSection(true);
    const QFontMetrics metrics = m_messageView->fontMetrics();
    const auto width = [&metrics](const char* sample) {
        return metrics.horizontalAdvance(QString::fromUtf8(sample)) + 20;
    };
    m_messageView->setColumnWidth(MessageTableModel::StateColumn,
                                  width("In flight") + 16); // and the holder's colour
    // The countdown's text and badge, and a bar the room can read.
    m_messageView->setColumnWidth(MessageTableModel::VisibilityColumn,
                                  width("delayed 00.0 s DLQ next") + 24);
    m_messageView->setColumnWidth(MessageTableModel::MessageIdColumn, width("00000000"));
    m_messageView->setColumnWidth(MessageTableModel::BodyColumn,
                                  metrics.horizontalAdvance(QLatin1Char('x')) * 36);
    m_messageView->setColumnWidth(MessageTableModel::GroupColumn, width("customer-00"));
    m_messageView->setColumnWidth(MessageTableModel::ReceivesColumn, width("Receives"));
    m_messageView->setColumnWidth(MessageTableModel::SentColumn, width("00:00:00.000"));
    // What a room watches first: the state, how often it came back and its group, then its
    // countdown; the id and body after, the deduplication id on demand.
    QHeaderView* columns = m_messageView->horizontalHeader();
    int visual = 0;
    for (int column : {MessageTableModel::StateColumn, MessageTableModel::ReceivesColumn,
                       MessageTableModel::GroupColumn, MessageTableModel::VisibilityColumn,
                       MessageTableModel::MessageIdColumn, MessageTableModel::BodyColumn,
                       MessageTableModel::SentColumn})
        columns->moveSection(columns->visualIndex(column), visual++);
    m_messageView->setColumnHidden(MessageTableModel::DeduplicationColumn, true);
    addColumnMenu(columns);
    // The menu (messageContextMenu) has these and what acts on the message under the pointer.
    m_messageView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_messageView, &QWidget::customContextMenuRequested, this,
            &MainWindow::showMessageMenu);
    m_messageView->addActions({m_extend, m_changeVisibility, m_release, m_deleteMessage});
    auto* separator = new QAction(m_messageView);
    separator->setSeparator(true);
    m_messageView->addAction(separator);
    m_messageView->addActions({m_receiveOne, m_receive, m_send});
    layout->addWidget(m_messageView, 1);
    m_inspector = new MessageInspector(m_session, *m_history, m_messageSplitter);
    m_messageSplitter->addWidget(messages);
    m_messageSplitter->addWidget(m_inspector);
    // The table first: it keeps 70% of the room as the window or the docks change size.
    m_messageSplitter->setStretchFactor(0, 7);
    m_messageSplitter->setStretchFactor(1, 3);
    m_messageSplitter->setSizes({700, 300});
    m_tabs->addTab(m_messageSplitter, tr("Messages"));

    m_groups = new GroupsView(m_session, m_tabs);
    m_tabs->addTab(m_groups, tr("Groups"));
    m_charts = new ThroughputChartView(m_session, m_tabs);
    m_tabs->addTab(m_charts, tr("Charts"));
    m_eventLog = new EventLogView(m_session, m_tabs);
    m_eventLog->model()->setClients(m_clientDirectory);
    m_inspector->setClients(m_clientDirectory);
    m_tabs->addTab(m_eventLog, tr("Event log"));
    setCentralWidget(m_tabs);

    connect(m_stateFilter, &QComboBox::currentIndexChanged, this, &MainWindow::applyStateFilter);
    connect(m_textFilter, &QLineEdit::textChanged, m_messageFilter,
            &MessageFilterModel::setTextFilter);
    connect(m_findAction, &QAction::triggered, this, [this] {
        m_tabs->setCurrentIndex(0);
        m_textFilter->setFocus();
        m_textFilter->selectAll();
    });
    connect(m_messageView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { updateActions(); });
    connect(m_messageView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::onMessageSelected);
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_messageFilter, signal, this, &MainWindow::updateMessageCount);
    connect(m_messageFilter, &QAbstractItemModel::modelReset, this,
            &MainWindow::updateMessageCount);
    connect(m_messageFilter, &QAbstractItemModel::layoutChanged, this,
            &MainWindow::updateMessageCount);
    connect(m_messages, &MessageTableModel::loadingChanged, this, &MainWindow::updateMessageCount);
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
    const int sourceRow = m_queues->rowOf(queue);
    if (sourceRow < 0)
        return false;
    const QModelIndex index = m_queueProxy->mapFromSource(m_queues->index(sourceRow, 0));
    m_queueView->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_queueView->scrollTo(index);
    return true;
}

void MainWindow::onQueueSelected()
{
    const QModelIndex current = m_queueView->selectionModel()->currentIndex();
    const QString queue
        = current.isValid() ? current.data(QueueTableModel::QueueNameRole).toString() : QString();
    const int kind = current.isValid() ? current.data(QueueTableModel::KindRole).toInt() : 0;
    if (queue == m_messages->queue() && !queue.isEmpty()) {
        updateActions();
        return;
    }
    // A filter belongs to the queue it was typed for: it goes with that queue and comes back
    // when the queue is selected again.
    if (!m_currentQueue.isEmpty())
        m_queueFilters.insert(m_currentQueue, m_textFilter->text());
    m_currentQueue = queue;
    m_textFilter->setText(m_queueFilters.value(queue));
    m_messages->setQueue(queue);
    m_groups->setQueue(queue, kind);
    // Groups (FIFO) and channels (OCI) only: a standard queue's column would stay empty.
    m_messageView->setColumnHidden(MessageTableModel::GroupColumn,
                                   engine::QueueKind(kind) == engine::QueueKind::Standard);
    // OCI queues have channels where FIFO queues have groups (standard queues have neither).
    m_tabs->setTabText(m_tabs->indexOf(m_groups),
                       engine::QueueKind(kind) == engine::QueueKind::Oci ? tr("Channels")
                                                                         : tr("Groups"));
    m_charts->setQueue(queue);
    m_inspector->clear();
    m_messageNotice->clear();
    updateQueueTitle();
    updateMessageCount();
    updateActions();
}

void MainWindow::updateQueueTitle()
{
    const int row = m_queues->rowOf(m_currentQueue);
    if (m_currentQueue.isEmpty() || row < 0) {
        m_queueTitle->setText(tr("No queue selected"));
        m_queueDetails->clear();
        return;
    }
    const QModelIndex index = m_queues->index(row, 0);
    const auto kind = engine::QueueKind(index.data(QueueTableModel::KindRole).toInt());
    QStringList parts{queueKindLabel(kind)};
    // What decides a message's way through the queue, at a glance: its timeout, its delay and
    // where it goes after too many receives (or where its dead letters came from).
    if (auto view = m_session.broker().queueView(m_currentQueue.toStdString())) {
        const auto value = [&](const char* sqs, const char* oci) -> QString {
            for (const char* name : {sqs, oci})
                if (const auto it = view->attributes.find(name); it != view->attributes.end())
                    return QString::fromStdString(it->second);
            return {};
        };
        if (const QString timeout = value("VisibilityTimeout", "visibilityInSeconds");
            !timeout.isEmpty())
            parts << tr("visibility %1 s").arg(timeout);
        if (const QString delay = value("DelaySeconds", "DelaySeconds"); !delay.isEmpty())
            parts << tr("delay %1 s").arg(delay);
    }
    const QString dlq = index.data(QueueTableModel::DeadLetterTargetRole).toString();
    const qlonglong maxReceives = index.data(QueueTableModel::MaxReceiveCountRole).toLongLong();
    const QStringList sources = index.data(QueueTableModel::DeadLetterSourcesRole).toStringList();
    if (!dlq.isEmpty() && maxReceives > 0)
        parts << (maxReceives == 1 ? tr("DLQ %1 after 1 receive").arg(dlq)
                                   : tr("DLQ %1 after %2 receives").arg(dlq).arg(maxReceives));
    else if (!dlq.isEmpty())
        parts << tr("DLQ %1").arg(dlq);
    if (!sources.isEmpty())
        parts << tr("dead letters of %1").arg(sources.join(QStringLiteral(", ")));
    m_queueTitle->setText(m_currentQueue);
    m_queueDetails->setText(parts.join(QStringLiteral(" · ")));
}

void MainWindow::onMessageSelected()
{
    const QModelIndex current = m_messageView->selectionModel()->currentIndex();
    if (!current.isValid())
        return; // keep showing the last message (and its timeline) when its row goes away
    const int row = m_messageFilter->mapToSource(current).row();
    if (row < 0 || row >= m_messages->rowCount())
        return;
    const MessageTableModel::Row& r = m_messages->row(row);
    if (m_inspector->messageId() == r.messageId && m_inspector->queue() == m_currentQueue)
        return;
    m_inspector->setMessage(m_currentQueue, r.key, r.messageId);
}

QStringList MainWindow::selectedMessageIds() const
{
    QList<int> rows;
    for (const QModelIndex& index : m_messageView->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    QStringList ids;
    for (int row : rows)
        ids << m_messageFilter->index(row, 0).data(MessageTableModel::MessageIdRole).toString();
    return ids;
}

int MainWindow::selectMessages(const QStringList& messageIds)
{
    QItemSelection selection;
    QModelIndex first;
    int found = 0;
    m_messages->listUntilShown(messageIds); // they may be of messages not listed yet
    for (const QString& id : messageIds) {
        const int sourceRow = m_messages->rowOfMessageId(id);
        if (sourceRow < 0)
            continue;
        const QModelIndex index = m_messageFilter->mapFromSource(m_messages->index(sourceRow, 0));
        if (!index.isValid())
            continue;
        selection.select(index, index);
        ++found;
        if (!first.isValid())
            first = index;
    }
    QItemSelectionModel* model = m_messageView->selectionModel();
    model->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (first.isValid()) {
        model->setCurrentIndex(first, QItemSelectionModel::Rows | QItemSelectionModel::Select);
        m_messageView->scrollTo(first);
    }
    updateActions();
    return found;
}

void MainWindow::applyStateFilter()
{
    MessageFilterModel::StateFilter states = MessageFilterModel::AllStates;
    switch (m_stateFilter->currentIndex()) {
    case AvailableOnly: states = MessageFilterModel::Available; break;
    case InFlightOnly: states = MessageFilterModel::InFlight; break;
    case DelayedOnly: states = MessageFilterModel::Delayed; break;
    default: break;
    }
    m_messageFilter->setStateFilter(states);
}

void MainWindow::updateMessageCount()
{
    if (m_currentQueue.isEmpty()) {
        m_messageCount->clear();
        return;
    }
    const int shown = m_messageFilter->rowCount();
    const int all = m_messages->rowCount();
    if (m_messages->isLoading()) {
        // A large queue is listed a block per turn; the window answers meanwhile.
        const qint64 total = all + static_cast<qint64>(m_messages->pendingCount());
        const QString listing = tr("listing %1 of %2 messages")
                                    .arg(QLocale().toString(all), QLocale().toString(total));
        m_messageCount->setText(m_messageFilter->requestedSortColumn() >= 0
                                    ? tr("%1 (then sorted)").arg(listing)
                                    : listing);
        return;
    }
    m_messageCount->setText(all == 0           ? tr("no messages")
                                : shown == all ? messagesText(all)
                                : shown == 0
                                ? tr("none of %1 shown").arg(messagesText(all))
                                : tr("%1 of %2 shown").arg(shown).arg(messagesText(all)));
}

void MainWindow::updateActions()
{
    const bool hasQueue = !m_currentQueue.isEmpty();
    for (QAction* a : {m_editQueue, m_deleteQueue, m_purgeQueue, m_send, m_sendGenerated, m_receive,
                       m_receiveOne})
        a->setEnabled(hasQueue);
    bool isDeadLetterQueue = false;
    if (hasQueue) {
        const int row = m_queues->rowOf(m_currentQueue);
        if (row >= 0)
            isDeadLetterQueue
                = m_queues->index(row, 0).data(QueueTableModel::IsDeadLetterQueueRole).toBool();
    }
    m_redrive->setEnabled(isDeadLetterQueue);

    bool anyInFlight = false;
    for (const QModelIndex& index : m_messageView->selectionModel()->selectedRows()) {
        if (index.data(MessageTableModel::StateRole).toInt()
            == int(engine::MessageState::InFlight)) {
            anyInFlight = true;
            break;
        }
    }
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
                      m_messageView->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("queueHeader"), m_queueView->header()->saveState());
    settings.setValue(QStringLiteral("messageSplitter"), m_messageSplitter->saveState());
    settings.setValue(QStringLiteral("tab"), m_tabs->currentIndex());
    settings.setValue(QStringLiteral("queue"), m_currentQueue);
    settings.setValue(QStringLiteral("stateFilter"), m_stateFilter->currentIndex());
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
        m_messageView->horizontalHeader()->restoreState(
            settings.value(QStringLiteral("messageHeader")).toByteArray());
    if (settings.contains(QStringLiteral("queueHeader")))
        m_queueView->header()->restoreState(
            settings.value(QStringLiteral("queueHeader")).toByteArray());
    if (settings.contains(QStringLiteral("messageSplitter")))
        m_messageSplitter->restoreState(
            settings.value(QStringLiteral("messageSplitter")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("tab"), 0).toInt());
    m_stateFilter->setCurrentIndex(settings.value(QStringLiteral("stateFilter"), 0).toInt());
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
    // First show without a remembered layout: the queue names as wide as the longest (within a
    // limit), room for the longest dead-letter relation (within the dock's limit: past it the
    // names in it are elided), then the messages and the inspector share the rest.
    const QFontMetrics metrics = m_queueView->fontMetrics();
    int name = 0;
    int relation = 0;
    for (int row = 0; row < m_queues->rowCount(); ++row) {
        name = std::max(name, metrics.horizontalAdvance(m_queues->queueName(row)));
        relation = std::max(
            relation,
            metrics.horizontalAdvance(
                m_queues->index(row, QueueTableModel::DeadLetterColumn).data().toString()));
    }
    const int longestName = metrics.horizontalAdvance(QLatin1Char('x')) * 20;
    m_queueView->setColumnWidth(QueueTableModel::NameColumn,
                                std::max(m_queueView->columnWidth(QueueTableModel::NameColumn),
                                         std::min(name + 16, longestName)));
    // The dock's frame and margins around the list as they are now (a scroll bar, when one
    // comes, narrows the last column only), and the margins of a cell's text.
    int wanted = m_queueDock->width() - m_queueView->viewport()->width();
    for (int column = 0; column < QueueTableModel::ColumnCount; ++column)
        if (!m_queueView->isColumnHidden(column))
            wanted += column == QueueTableModel::DeadLetterColumn
                ? relation
                : m_queueView->columnWidth(column);
    wanted += 2
        * (m_queueView->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_queueView)
           + 1);
    const int dock = std::min(wanted, width() * 3 / 10);
    resizeDocks({m_queueDock}, {dock}, Qt::Horizontal);
    updateToolBarRows();
    const int centre = width() - dock;
    m_messageSplitter->setSizes({centre - centre * 3 / 10, centre * 3 / 10});
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
