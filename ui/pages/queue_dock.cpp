#include "ui/pages/queue_dock.h"

#include "ui/models/queue_table_model.h"
#include "ui/pages/window_actions.h"
#include "ui/widgets/column_menu.h"
#include "ui/widgets/dead_letter_delegate.h"
#include "ui/widgets/notice_bar.h"

#include <QAction>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace inflight::ui {

QueueDock::QueueDock(QueueSource& source, const WindowActions& actions, QWidget* parent)
    : QDockWidget(tr("Queues"), parent)
{
    setObjectName(QStringLiteral("queuesDock"));
    setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                | QDockWidget::DockWidgetClosable);
    m_queues = new QueueTableModel(source, this);
    auto* panel = new QWidget(this);
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(4, 4, 4, 4);

    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_queues);
    m_proxy->setSortRole(Qt::UserRole);
    m_view = new QTreeView(panel);
    m_view->setObjectName(QStringLiteral("queueView"));
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->header()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    const QFontMetrics metrics = m_view->fontMetrics();
    m_view->setColumnWidth(QueueTableModel::NameColumn,
                           metrics.horizontalAdvance(QStringLiteral("payments-dlq.fifo")) + 16);
    m_view->setColumnWidth(QueueTableModel::TypeColumn,
                           metrics.horizontalAdvance(QStringLiteral("standard")) + 12);
    // Counts are narrower than their headers: each column as wide as its own header.
    const QFontMetrics headerMetrics = m_view->header()->fontMetrics();
    for (int column : {QueueTableModel::AvailableColumn, QueueTableModel::InFlightColumn,
                       QueueTableModel::DelayedColumn})
        m_view->setColumnWidth(
            column,
            headerMetrics.horizontalAdvance(m_queues->headerData(column, Qt::Horizontal).toString())
                + 16);
    // Long names keep their start and their end (".fifo", "-dlq"); the dead-letter relation
    // elides the names in it and keeps its arrows and "(max N)". Tooltips have the full text.
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->setItemDelegateForColumn(QueueTableModel::DeadLetterColumn,
                                     new DeadLetterDelegate(m_view));
    // The list shows names and counts; a queue's type and dead-letter relation are in the
    // messages' header (a right click on the list's header shows them here too).
    m_view->setColumnHidden(QueueTableModel::TypeColumn, true);
    m_view->setColumnHidden(QueueTableModel::DeadLetterColumn, true);
    addColumnMenu(m_view->header());
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->addActions({actions.send, actions.sendGenerated, actions.receiveOne, actions.receive});
    auto* separator = new QAction(m_view);
    separator->setSeparator(true);
    m_view->addAction(separator);
    m_view->addActions(
        {actions.editQueue, actions.purgeQueue, actions.deleteQueue, actions.redrive});
    layout->addWidget(m_view, 1);
    // Below the list, for the reason the Messages page has its notice below the table.
    m_notice = new NoticeBar(panel);
    m_notice->setObjectName(QStringLiteral("queueNotice"));
    layout->addWidget(m_notice);

    // The queue buttons in a toolbar of the dock's own: a narrow dock folds them into its ">>"
    // menu instead of holding the whole window wide.
    auto* buttons = new QToolBar(panel);
    buttons->setObjectName(QStringLiteral("queueDockToolBar"));
    buttons->setToolButtonStyle(Qt::ToolButtonTextOnly);
    buttons->setIconSize(QSize(1, 1));
    const auto button = [buttons](const QString& name, QAction* action) {
        buttons->addAction(action);
        if (QWidget* b = buttons->widgetForAction(action))
            b->setObjectName(name);
    };
    button(QStringLiteral("newQueueButtonDock"), actions.newQueue);
    button(QStringLiteral("editQueueButton"), actions.editQueue);
    button(QStringLiteral("deleteQueueButton"), actions.deleteQueue);
    layout->addWidget(buttons);
    setWidget(panel);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &QueueDock::onCurrentChanged);
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_queues, signal, this, &QueueDock::queuesChanged);
    connect(m_queues, &QAbstractItemModel::modelReset, this, &QueueDock::queuesChanged);
    connect(m_queues, &QAbstractItemModel::dataChanged, this, &QueueDock::queueDataChanged);
}

QString QueueDock::selectedQueue() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    return current.isValid() ? current.data(QueueTableModel::QueueNameRole).toString() : QString();
}

void QueueDock::onCurrentChanged()
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    Q_EMIT queueSelected(selectedQueue(),
                         current.isValid() ? current.data(QueueTableModel::KindRole).toInt() : 0);
}

bool QueueDock::selectQueue(const QString& queue)
{
    const int sourceRow = m_queues->rowOf(queue);
    if (sourceRow < 0)
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_queues->index(sourceRow, 0));
    m_view->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
    return true;
}

void QueueDock::selectFirst()
{
    if (m_proxy->rowCount() > 0)
        m_view->setCurrentIndex(m_proxy->index(0, 0));
    else
        onCurrentChanged();
}

int QueueDock::fittingWidth() const
{
    // The queue names as wide as the longest (within a limit), room for the longest dead-letter
    // relation (within the dock's limit: past it the names in it are elided).
    const QFontMetrics metrics = m_view->fontMetrics();
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
    m_view->setColumnWidth(QueueTableModel::NameColumn,
                           std::max(m_view->columnWidth(QueueTableModel::NameColumn),
                                    std::min(name + 16, longestName)));
    // The dock's frame and margins around the list as they are now (a scroll bar, when one
    // comes, narrows the last column only), and the margins of a cell's text.
    int wanted = width() - m_view->viewport()->width();
    for (int column = 0; column < QueueTableModel::ColumnCount; ++column)
        if (!m_view->isColumnHidden(column))
            wanted += column == QueueTableModel::DeadLetterColumn ? relation
                                                                  : m_view->columnWidth(column);
    wanted += 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1);
    return wanted;
}

QByteArray QueueDock::saveHeader() const
{
    return m_view->header()->saveState();
}

void QueueDock::restoreHeader(const QByteArray& state)
{
    m_view->header()->restoreState(state);
}

} // namespace inflight::ui
