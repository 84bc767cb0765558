#include "ui/models/timeline_model.h"

#include "ui/models/message_history.h"

namespace inflight::ui {

namespace {

bool hasVisibility(engine::EventKind kind)
{
    return kind == engine::EventKind::MessageReceived
        || kind == engine::EventKind::VisibilityChanged;
}

} // namespace

TimelineModel::TimelineModel(MessageHistory& history, QObject* parent)
    : QAbstractTableModel(parent), m_history(history)
{
    connect(&m_history, &MessageHistory::changed, this, &TimelineModel::onHistoryChanged);
}

void TimelineModel::setMessage(const QString& queue, const QString& messageId)
{
    beginResetModel();
    m_queue = queue;
    m_messageId = messageId;
    m_generation = m_history.generation(messageId);
    m_rows = static_cast<int>(m_history.events(messageId).size());
    endResetModel();
}

void TimelineModel::clear()
{
    setMessage({}, {});
}

void TimelineModel::onHistoryChanged()
{
    if (m_messageId.isEmpty())
        return;
    const std::uint64_t generation = m_history.generation(m_messageId);
    const int count = static_cast<int>(m_history.events(m_messageId).size());
    if (generation != m_generation || count < m_rows) {
        // Forgotten (and maybe seen again): start over.
        beginResetModel();
        m_generation = generation;
        m_rows = count;
        endResetModel();
        return;
    }
    if (count > m_rows) {
        beginInsertRows({}, m_rows, count - 1);
        m_rows = count;
        endInsertRows();
    }
}

const EventRecord* TimelineModel::record(int row) const
{
    const std::vector<EventRecord>& events = m_history.events(m_messageId);
    if (row < 0 || row >= m_rows || static_cast<std::size_t>(row) >= events.size())
        return nullptr;
    return &events[static_cast<std::size_t>(row)];
}

int TimelineModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int TimelineModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimelineModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.column() >= ColumnCount)
        return {};
    const EventRecord* e = record(index.row());
    if (!e)
        return {};
    const int column = index.column();
    const bool visibility = hasVisibility(e->kind);
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case TimeColumn: return formatEngineTime(e->time);
        case QueueColumn: return e->queue;
        case KindColumn: return eventKindLabel(e->kind);
        case ReceivesColumn: return QString::number(e->receiveCount);
        case ReceiptColumn:
            return QString::fromLatin1(e->receipt.right(
                kShortIdLength)); // receipts share a prefix; the end tells them apart
        case VisibilityColumn:
            return visibility ? tr("visible at %1").arg(formatEngineTime(e->deadline)) : QString();
        case OriginColumn: return originText(*e);
        case DetailColumn: return describeEvent(*e);
        }
        break;
    case Qt::UserRole:
        switch (column) {
        case TimeColumn: return static_cast<qlonglong>(e->time);
        case QueueColumn: return e->queue;
        case KindColumn: return static_cast<int>(e->kind);
        case ReceivesColumn: return static_cast<uint>(e->receiveCount);
        case ReceiptColumn: return QString::fromLatin1(e->receipt);
        case VisibilityColumn: return static_cast<qlonglong>(visibility ? e->deadline : 0);
        case OriginColumn: return e->origin;
        case DetailColumn: return describeEvent(*e);
        }
        break;
    case Qt::ToolTipRole:
        if (column == ReceiptColumn && !e->receipt.isEmpty())
            return QString::fromLatin1(e->receipt);
        return {};
    case KindRole: return static_cast<int>(e->kind);
    case ReceiptRole: return QString::fromLatin1(e->receipt);
    case DeadlineRole: return static_cast<qlonglong>(e->deadline);
    case TimeRole: return static_cast<qlonglong>(e->time);
    default: break;
    }
    return {};
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn: return tr("Time");
    case QueueColumn: return tr("Queue");
    case KindColumn: return tr("Event");
    case ReceivesColumn: return tr("Receives");
    case ReceiptColumn: return tr("Receipt");
    case VisibilityColumn: return tr("Visibility");
    case OriginColumn: return tr("Origin");
    case DetailColumn: return tr("Detail");
    default: return {};
    }
}

} // namespace inflight::ui
