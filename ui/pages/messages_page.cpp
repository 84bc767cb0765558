#include "ui/pages/messages_page.h"

#include "ui/models/message_filter_model.h"
#include "ui/models/message_table_model.h"
#include "ui/models/model_text.h"
#include "ui/pages/window_actions.h"
#include "ui/widgets/column_menu.h"
#include "ui/widgets/countdown_delegate.h"
#include "ui/widgets/engine_text.h"
#include "ui/widgets/message_inspector.h"
#include "ui/widgets/notice_bar.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace inflight::ui {

namespace {

enum StateFilterIndex { AllStates, AvailableOnly, InFlightOnly, DelayedOnly };

} // namespace

MessagesPage::MessagesPage(QueueSource& source, const WindowActions& actions,
                           MessageHistory* history, QWidget* parent)
    : QSplitter(Qt::Horizontal, parent), m_source(source), m_actions(actions)
{
    setObjectName(QStringLiteral("messageSplitter"));
    setChildrenCollapsible(false);
    m_messages = new MessageTableModel(source, this);
    m_filter = new MessageFilterModel(this);
    m_filter->setSourceModel(m_messages);

    auto* messages = new QWidget(this);
    messages->setObjectName(QStringLiteral("messagesPage"));
    auto* layout = new QVBoxLayout(messages);
    layout->setContentsMargins(4, 4, 0, 4);
    m_title = new QLabel(messages);
    m_title->setObjectName(QStringLiteral("queueTitleLabel"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_details = new QLabel(messages);
    m_details->setObjectName(QStringLiteral("queueDetailsLabel"));
    m_details->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_details->setToolTip(tr("The queue's visibility timeout, delivery delay and dead-letter "
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
    m_count = new QLabel(messages);
    m_count->setObjectName(QStringLiteral("messageCountLabel"));
    auto* title = new QHBoxLayout;
    title->addWidget(m_title);
    title->addSpacing(8);
    title->addWidget(m_details, 1);
    layout->addLayout(title);
    auto* filters = new QHBoxLayout;
    filters->addWidget(m_stateFilter);
    filters->addWidget(m_textFilter, 1);
    filters->addWidget(m_count);
    layout->addLayout(filters);

    m_view = new QTableView(messages);
    m_view->setObjectName(QStringLiteral("messageView"));
    m_view->setModel(m_filter);
    m_view->setItemDelegateForColumn(MessageTableModel::VisibilityColumn,
                                     new CountdownDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    m_view->horizontalHeader()->setStretchLastSection(true);
    const QFontMetrics metrics = m_view->fontMetrics();
    const auto width = [&metrics](const char* sample) {
        return metrics.horizontalAdvance(QString::fromUtf8(sample)) + 20;
    };
    m_view->setColumnWidth(MessageTableModel::StateColumn,
                           width("In flight") + 16); // and the holder's colour
    // The countdown's text and badge, and a bar the room can read.
    m_view->setColumnWidth(MessageTableModel::VisibilityColumn,
                           width("delayed 00.0 s DLQ next") + 24);
    m_view->setColumnWidth(MessageTableModel::MessageIdColumn, width("00000000"));
    m_view->setColumnWidth(MessageTableModel::BodyColumn,
                           metrics.horizontalAdvance(QLatin1Char('x')) * 36);
    m_view->setColumnWidth(MessageTableModel::GroupColumn, width("customer-00"));
    m_view->setColumnWidth(MessageTableModel::ReceivesColumn, width("Receives"));
    m_view->setColumnWidth(MessageTableModel::SentColumn, width("00:00:00.000"));
    // What a room watches first: the state, how often it came back and its group, then its
    // countdown; the id and body after, the deduplication id on demand.
    QHeaderView* columns = m_view->horizontalHeader();
    int visual = 0;
    for (int column : {MessageTableModel::StateColumn, MessageTableModel::ReceivesColumn,
                       MessageTableModel::GroupColumn, MessageTableModel::VisibilityColumn,
                       MessageTableModel::MessageIdColumn, MessageTableModel::BodyColumn,
                       MessageTableModel::SentColumn})
        columns->moveSection(columns->visualIndex(column), visual++);
    m_view->setColumnHidden(MessageTableModel::DeduplicationColumn, true);
    addColumnMenu(columns);
    // The menu (messageContextMenu) has these and what acts on the message under the pointer.
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &MessagesPage::showMenu);
    m_view->addActions(
        {actions.extend, actions.changeVisibility, actions.release, actions.deleteMessage});
    auto* separator = new QAction(m_view);
    separator->setSeparator(true);
    m_view->addAction(separator);
    m_view->addActions({actions.receiveOne, actions.receive, actions.send});
    layout->addWidget(m_view, 1);
    // Below the table: a notice that comes or goes moves no row or header the user is about to
    // click (above, "Extended 1 message" pushed the table down and the next click sorted it).
    m_notice = new NoticeBar(messages);
    m_notice->setObjectName(QStringLiteral("messageNotice"));
    layout->addWidget(m_notice);
    addWidget(messages);
    if (history && source.localSession()) {
        m_inspector = new MessageInspector(*source.localSession(), *history, this);
        addWidget(m_inspector);
        // The table first: it keeps 70% of the room as the window or the docks change size.
        setStretchFactor(0, 7);
        setStretchFactor(1, 3);
        setSizes({700, 300});
    }

    connect(m_stateFilter, &QComboBox::currentIndexChanged, this, &MessagesPage::applyStateFilter);
    connect(m_textFilter, &QLineEdit::textChanged, m_filter, &MessageFilterModel::setTextFilter);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MessagesPage::selectionChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MessagesPage::onCurrentChanged);
    // The filter removes its rows before the table does: the count is read again once the table
    // has (else an emptied queue read "none of 1 message shown").
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        for (const QAbstractItemModel* model : {static_cast<QAbstractItemModel*>(m_filter),
                                                static_cast<QAbstractItemModel*>(m_messages)})
            connect(model, signal, this, &MessagesPage::updateCount);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &MessagesPage::updateCount);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &MessagesPage::updateCount);
    connect(m_messages, &MessageTableModel::loadingChanged, this, &MessagesPage::updateCount);
    connect(&m_source, &QueueSource::queuesChanged, this, &MessagesPage::updateTitle);
}

void MessagesPage::changeEvent(QEvent* event)
{
    QSplitter::changeEvent(event);
    // View ▸ Zoom: the rows as tall as the text.
    if (event->type() == QEvent::FontChange && m_view)
        m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
}

void MessagesPage::setClients(const ClientDirectory* clients, const ReceiptHolders* holders)
{
    m_messages->setReceiptHolders(holders, clients);
    if (m_inspector)
        m_inspector->setClients(clients);
}

void MessagesPage::setQueue(const QString& queue, int kind)
{
    if (!m_queue.isEmpty())
        m_queueFilters.insert(m_queue, m_textFilter->text());
    m_queue = queue;
    m_textFilter->setText(m_queueFilters.value(queue));
    m_heldReceipts.clear();
    m_messages->setQueue(queue);
    // Groups (FIFO) and channels (OCI) only: a standard queue's column would stay empty.
    m_view->setColumnHidden(MessageTableModel::GroupColumn,
                            engine::QueueKind(kind) == engine::QueueKind::Standard);
    if (m_inspector)
        m_inspector->clear();
    m_notice->clear();
    if (!queue.isEmpty() && !m_source.has(QueueSource::Feature::PeekEveryMessage))
        m_notice->showInfo(m_source.missing(QueueSource::Feature::PeekEveryMessage));
    updateTitle();
    updateCount();
}

void MessagesPage::updateTitle()
{
    const std::optional<engine::QueueView> view
        = m_queue.isEmpty() ? std::nullopt : m_source.queue(m_queue);
    if (!view) {
        m_title->setText(tr("No queue selected"));
        m_details->clear();
        return;
    }
    QStringList parts{queueKindLabel(view->kind)};
    // What decides a message's way through the queue, at a glance: its timeout, its delay and
    // where it goes after too many receives (or where its dead letters came from).
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
    const QString dlq = toQString(view->deadLetterTarget);
    const qint64 maxReceives = view->maxReceiveCount;
    QStringList sources;
    for (const std::string& source : view->deadLetterSources)
        sources << toQString(source);
    if (!dlq.isEmpty() && maxReceives > 0)
        parts << (maxReceives == 1 ? tr("DLQ %1 after 1 receive").arg(dlq)
                                   : tr("DLQ %1 after %2 receives").arg(dlq).arg(maxReceives));
    else if (!dlq.isEmpty())
        parts << tr("DLQ %1").arg(dlq);
    if (!sources.isEmpty())
        parts << tr("dead letters of %1").arg(sources.join(QStringLiteral(", ")));
    m_title->setText(m_queue);
    m_details->setText(parts.join(QStringLiteral(" · ")));
}

void MessagesPage::onCurrentChanged()
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (!current.isValid() || !m_inspector)
        return; // keep showing the last message (and its timeline) when its row goes away
    const int row = m_filter->mapToSource(current).row();
    if (row < 0 || row >= m_messages->rowCount())
        return;
    const MessageTableModel::Row& r = m_messages->row(row);
    if (m_inspector->messageId() == r.messageId && m_inspector->queue() == m_queue)
        return;
    m_inspector->setMessage(m_queue, r.key, r.messageId);
}

QStringList MessagesPage::selectedMessageIds() const
{
    QList<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    QStringList ids;
    for (int row : rows)
        ids << m_filter->index(row, 0).data(MessageTableModel::MessageIdRole).toString();
    return ids;
}

int MessagesPage::selectMessages(const QStringList& messageIds)
{
    QItemSelection selection;
    QModelIndex first;
    int found = 0;
    m_messages->listUntilShown(messageIds); // they may be of messages not listed yet
    for (const QString& id : messageIds) {
        const int sourceRow = m_messages->rowOfMessageId(id);
        if (sourceRow < 0)
            continue;
        const QModelIndex index = m_filter->mapFromSource(m_messages->index(sourceRow, 0));
        if (!index.isValid())
            continue;
        selection.select(index, index);
        ++found;
        if (!first.isValid())
            first = index;
    }
    QItemSelectionModel* model = m_view->selectionModel();
    model->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (first.isValid()) {
        model->setCurrentIndex(first, QItemSelectionModel::Rows | QItemSelectionModel::Select);
        m_view->scrollTo(first);
    }
    Q_EMIT selectionChanged();
    return found;
}

bool MessagesPage::hasInFlightSelection() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return std::any_of(rows.begin(), rows.end(), [](const QModelIndex& index) {
        return index.data(MessageTableModel::StateRole).toInt()
            == int(engine::MessageState::InFlight);
    });
}

void MessagesPage::focusFilter()
{
    m_textFilter->setFocus();
    m_textFilter->selectAll();
}

void MessagesPage::applyStateFilter()
{
    MessageFilterModel::StateFilter states = MessageFilterModel::AllStates;
    switch (m_stateFilter->currentIndex()) {
    case AvailableOnly: states = MessageFilterModel::Available; break;
    case InFlightOnly: states = MessageFilterModel::InFlight; break;
    case DelayedOnly: states = MessageFilterModel::Delayed; break;
    default: break;
    }
    m_filter->setStateFilter(states);
}

void MessagesPage::updateCount()
{
    if (m_queue.isEmpty()) {
        m_count->clear();
        return;
    }
    const int shown = m_filter->rowCount();
    const int all = m_messages->rowCount();
    if (m_messages->isLoading()) {
        // A large queue is listed a block per turn; the window answers meanwhile.
        const qint64 total = all + static_cast<qint64>(m_messages->pendingCount());
        const QString listing = tr("listing %1 of %2 messages")
                                    .arg(QLocale().toString(all), QLocale().toString(total));
        m_count->setText(m_filter->requestedSortColumn() >= 0 ? tr("%1 (then sorted)").arg(listing)
                                                              : listing);
        return;
    }
    const bool held = !m_source.has(QueueSource::Feature::PeekEveryMessage);
    m_count->setText(all == 0 ? (held ? tr("none held") : tr("no messages"))
                         : shown == all
                         ? (held ? tr("%1 held").arg(messagesText(all)) : messagesText(all))
                         : shown == 0 ? tr("none of %1 shown").arg(messagesText(all))
                                      : tr("%1 of %2 shown").arg(shown).arg(messagesText(all)));
}

} // namespace inflight::ui
