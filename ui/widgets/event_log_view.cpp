#include "ui/widgets/event_log_view.h"

#include "ui/models/event_log_model.h"
#include "ui/models/model_text.h"
#include "ui/widgets/check_list_button.h"
#include "ui/widgets/receipt_delegate.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace inflight::ui {

EventLogView::EventLogView(session::Session& session, QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("eventLog"));
    m_model = new EventLogModel(session, this);
    m_filter = new EventLogFilterModel(this);
    m_filter->setSourceModel(m_model);

    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    m_queue = new QComboBox(this);
    m_queue->setObjectName(QStringLiteral("eventQueueCombo"));
    m_queue->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_queue->addItem(tr("All queues"), QString());
    m_kind = new CheckListButton(this);
    m_kind->setObjectName(QStringLiteral("eventKindButton"));
    m_kind->setSummaryTexts(tr("All kinds"), tr("No kinds"), tr("%1 of %2 kinds"));
    for (int kind = 0; kind <= int(engine::EventKind::MoveTaskProgress); ++kind) {
        m_kind->addItem(eventKindLabel(engine::EventKind(kind)), kind);
        if (engine::EventKind(kind) == engine::EventKind::QueuePurged)
            m_kind->addSeparator(); // queue events above, message events below
    }
    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("eventTextEdit"));
    m_text->setPlaceholderText(tr("Filter by message id, receipt, detail or origin"));
    m_text->setClearButtonEnabled(true);
    m_follow = new QCheckBox(tr("&Follow"), this);
    m_follow->setObjectName(QStringLiteral("eventFollowCheck"));
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest event in view"));
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("eventCountLabel"));
    controls->addWidget(new QLabel(tr("Queue:"), this));
    controls->addWidget(m_queue);
    controls->addWidget(new QLabel(tr("Kind:"), this));
    controls->addWidget(m_kind);
    controls->addWidget(m_text, 1);
    controls->addWidget(m_follow);
    controls->addWidget(m_count);
    layout->addLayout(controls);

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("eventLogView"));
    m_view->setModel(m_filter);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setAlternatingRowColors(true);
    m_view->setItemDelegateForColumn(EventLogModel::ReceiptColumn, new ReceiptDelegate(m_view));
    const QFontMetrics metrics = m_view->fontMetrics();
    m_view->setColumnWidth(EventLogModel::TimeColumn,
                           metrics.horizontalAdvance(QStringLiteral("00:00:00.000")) + 16);
    m_view->setColumnWidth(EventLogModel::QueueColumn,
                           metrics.horizontalAdvance(QStringLiteral("payments-dlq.fifo")) + 16);
    m_view->setColumnWidth(EventLogModel::KindColumn,
                           metrics.horizontalAdvance(QStringLiteral("visibility changed")) + 16);
    m_view->setColumnWidth(EventLogModel::MessageColumn,
                           metrics.horizontalAdvance(QStringLiteral("0000000000")) + 16);
    m_view->setColumnWidth(EventLogModel::ReceiptColumn,
                           metrics.horizontalAdvance(QStringLiteral("00000000000000")) + 16);
    m_view->setColumnWidth(EventLogModel::OriginColumn,
                           metrics.horizontalAdvance(QStringLiteral("127.0.0.1:00000")) + 16);
    // Where each event came from, right after what it was.
    QHeaderView* header = m_view->horizontalHeader();
    header->moveSection(header->visualIndex(EventLogModel::OriginColumn),
                        header->visualIndex(EventLogModel::KindColumn) + 1);
    layout->addWidget(m_view, 1);

    connect(m_queue, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setQueueFilter(m_queue->currentData().toString()); });
    // One re-filter per change of the choice (All and None included), never one per kind.
    connect(m_kind, &CheckListButton::selectionChanged, this,
            [this] { m_filter->setKindMask(kindMask()); });
    connect(m_text, &QLineEdit::textChanged, m_filter, &EventLogFilterModel::setTextFilter);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_follow->isChecked())
            m_view->scrollToBottom();
    });
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_filter, signal, this, &EventLogView::updateCount);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &EventLogView::updateCount);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &EventLogView::updateCount);
    updateCount();
}

void EventLogView::setQueueNames(const QStringList& names)
{
    const QString current = m_queue->currentData().toString();
    const QSignalBlocker blocker(m_queue);
    while (m_queue->count() > 1)
        m_queue->removeItem(1);
    for (const QString& name : names)
        m_queue->addItem(name, name);
    const int index = m_queue->findData(current);
    m_queue->setCurrentIndex(index >= 0 ? index : 0);
    if (index < 0)
        m_filter->setQueueFilter(QString());
}

void EventLogView::setQueueFilter(const QString& queue)
{
    const int index = m_queue->findData(queue);
    m_queue->setCurrentIndex(index >= 0 ? index : 0);
}

void EventLogView::setKindMask(quint32 mask)
{
    QVariantList kinds;
    for (int kind = 0; kind < m_kind->itemCount(); ++kind)
        if (mask & (1u << kind))
            kinds.append(kind);
    m_kind->setCheckedValues(kinds);
}

quint32 EventLogView::kindMask() const
{
    quint32 mask = 0;
    for (const QVariant& kind : m_kind->checkedValues())
        mask |= 1u << kind.toInt();
    return mask;
}

void EventLogView::updateCount()
{
    m_count->setText(tr("%1 of %2 events").arg(m_filter->rowCount()).arg(m_model->rowCount()));
}

} // namespace inflight::ui
