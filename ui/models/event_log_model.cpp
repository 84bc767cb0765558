#include "ui/models/event_log_model.h"

#include "ui/models/client_directory.h"

#include "session/session.h"

#include <algorithm>

namespace inflight::ui {

namespace {
constexpr int kEventKindCount = static_cast<int>(engine::EventKind::MoveTaskProgress) + 1;
} // namespace

EventLogModel::EventLogModel(session::Session& session, QObject* parent)
    : QAbstractTableModel(parent)
{
    connect(&session, &session::Session::eventsReady, this, &EventLogModel::onEvents);
}

void EventLogModel::onEvents(const std::vector<engine::Event>& events)
{
    if (events.empty())
        return;
    const auto incoming = static_cast<int>(std::min<std::size_t>(events.size(), m_capacity));
    const int overflow = rowCount() + incoming - m_capacity;
    if (overflow > 0)
        dropOldest(std::min(rowCount(), std::max(overflow, m_capacity / 10)));
    const int first = rowCount();
    beginInsertRows({}, first, first + incoming - 1);
    for (auto it = events.end() - incoming; it != events.end(); ++it)
        m_entries.push_back(makeEventRecord(*it, m_strings));
    endInsertRows();
}

const EventRecord* EventLogModel::recordOfSequence(std::uint64_t sequence) const
{
    if (m_entries.empty() || sequence < m_entries.front().sequence)
        return nullptr;
    const std::uint64_t at = sequence - m_entries.front().sequence;
    if (at >= m_entries.size())
        return nullptr;
    const EventRecord& record = m_entries[static_cast<std::size_t>(at)];
    return record.sequence == sequence ? &record : nullptr;
}

void EventLogModel::dropOldest(int rows)
{
    if (rows <= 0)
        return;
    beginRemoveRows({}, 0, rows - 1);
    m_entries.erase(m_entries.begin(), m_entries.begin() + rows);
    endRemoveRows();
}

void EventLogModel::setCapacity(int rows)
{
    m_capacity = std::max(rows, 1);
    if (rowCount() > m_capacity)
        dropOldest(rowCount() - m_capacity);
}

void EventLogModel::clear()
{
    if (m_entries.empty())
        return;
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

int EventLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int EventLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const EventRecord& e = m_entries[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case TimeColumn: return formatEngineTime(e.time);
        case QueueColumn: return e.queue;
        case KindColumn: return eventKindLabel(e.kind);
        case MessageColumn: return shortId(e.messageId);
        case ReceiptColumn:
            return QString::fromLatin1(e.receipt.right(
                kShortIdLength)); // receipts share a prefix; the end tells them apart
        case DetailColumn: return describeEvent(e);
        case OriginColumn: return originLabel(m_clients, e.origin);
        }
        break;
    case Qt::UserRole:
        switch (column) {
        case TimeColumn: return static_cast<qlonglong>(e.time);
        case QueueColumn: return e.queue;
        case KindColumn: return static_cast<int>(e.kind);
        case MessageColumn: return e.messageId;
        case ReceiptColumn: return QString::fromLatin1(e.receipt);
        case DetailColumn: return describeEvent(e);
        case OriginColumn: return e.origin;
        }
        break;
    case Qt::DecorationRole:
        return column == OriginColumn ? originSwatch(m_clients, e.origin) : QVariant();
    case Qt::ToolTipRole:
        switch (column) {
        case TimeColumn: return QString::number(e.time);
        case MessageColumn: return e.messageId;
        case ReceiptColumn: return QString::fromLatin1(e.receipt);
        case DetailColumn: return describeEvent(e);
        default: return {};
        }
    case KindRole: return static_cast<int>(e.kind);
    case QueueNameRole: return e.queue;
    case MessageIdRole: return e.messageId;
    case ReceiptRole: return QString::fromLatin1(e.receipt);
    case TimeRole: return static_cast<qlonglong>(e.time);
    default: break;
    }
    return {};
}

void EventLogModel::setClients(const ClientDirectory* clients)
{
    m_clients = clients;
    if (clients)
        connect(clients, &ClientDirectory::changed, this, [this] {
            if (rowCount() > 0)
                Q_EMIT dataChanged(index(0, OriginColumn), index(rowCount() - 1, OriginColumn));
        });
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn: return tr("Time");
    case QueueColumn: return tr("Queue");
    case KindColumn: return tr("Event");
    case MessageColumn: return tr("Message");
    case ReceiptColumn: return tr("Receipt");
    case DetailColumn: return tr("Detail");
    case OriginColumn: return tr("Origin");
    default: return {};
    }
}

// ---- filter ------------------------------------------------------------------------------------

EventLogFilterModel::EventLogFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(Qt::UserRole);
    setDynamicSortFilter(true);
}

quint32 EventLogFilterModel::allKinds()
{
    return (1u << kEventKindCount) - 1;
}

void EventLogFilterModel::setQueueFilter(const QString& queue)
{
    if (queue == m_queue)
        return;
    m_queue = queue;
    invalidateRowsFilter();
}

void EventLogFilterModel::setKindMask(quint32 mask)
{
    if (mask == m_kinds)
        return;
    m_kinds = mask;
    invalidateRowsFilter();
}

void EventLogFilterModel::setKindEnabled(engine::EventKind kind, bool enabled)
{
    const quint32 bit = 1u << static_cast<int>(kind);
    setKindMask(enabled ? (m_kinds | bit) : (m_kinds & ~bit));
}

bool EventLogFilterModel::isKindEnabled(engine::EventKind kind) const
{
    return (m_kinds & (1u << static_cast<int>(kind))) != 0;
}

void EventLogFilterModel::setTextFilter(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateRowsFilter();
}

bool EventLogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const auto* log = qobject_cast<const EventLogModel*>(sourceModel());
    if (!log || sourceParent.isValid())
        return true;
    const EventRecord& e = log->record(sourceRow);
    if ((m_kinds & (1u << static_cast<int>(e.kind))) == 0)
        return false;
    // A move belongs to both queues: where the message was, and where it went (detail).
    if (!m_queue.isEmpty() && e.queue != m_queue
        && !(engine::isMove(e.kind) && e.detail == m_queue))
        return false;
    if (m_text.isEmpty())
        return true;
    return e.messageId.contains(m_text, Qt::CaseInsensitive)
        || QString::fromLatin1(e.receipt).contains(m_text, Qt::CaseInsensitive)
        || e.detail.contains(m_text, Qt::CaseInsensitive)
        || e.origin.contains(m_text, Qt::CaseInsensitive);
}

} // namespace inflight::ui
