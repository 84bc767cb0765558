#include "ui/models/timeline_model.h"

#include "ui/models/client_directory.h"

#include "ui/models/message_history.h"

#include <QColor>

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
        case KindColumn: {
            // The mark where the eye is (the event), the whole note in Detail.
            const bool stale = !staleNote(index.row()).isEmpty();
            return stale ? tr("%1 ⚠ stale receipt").arg(eventKindLabel(e->kind))
                         : eventKindLabel(e->kind);
        }
        case ReceivesColumn: return QString::number(e->receiveCount);
        case ReceiptColumn:
            return QString::fromLatin1(e->receipt.right(
                kShortIdLength)); // receipts share a prefix; the end tells them apart
        case VisibilityColumn:
            return visibility ? tr("visible at %1").arg(formatEngineTime(e->deadline)) : QString();
        case OriginColumn: return originLabel(m_clients, e->origin);
        case DetailColumn: {
            const QString stale = staleNote(index.row());
            return stale.isEmpty() ? describeEvent(*e)
                                   : describeEvent(*e) + QStringLiteral(" · ") + stale;
        }
        }
        break;
    case Qt::ForegroundRole:
        if ((column == DetailColumn || column == KindColumn) && !staleNote(index.row()).isEmpty())
            return QColor(0xc6, 0x28, 0x28);
        return {};
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
    case Qt::DecorationRole:
        return column == OriginColumn ? originSwatch(m_clients, e->origin) : QVariant();
    case Qt::ToolTipRole:
        if (column == ReceiptColumn && !e->receipt.isEmpty())
            return QString::fromLatin1(e->receipt);
        return {};
    case KindRole: return static_cast<int>(e->kind);
    case ReceiptRole: return QString::fromLatin1(e->receipt);
    case DeadlineRole: return static_cast<qlonglong>(e->deadline);
    case TimeRole: return static_cast<qlonglong>(e->time);
    case SequenceRole: return static_cast<qulonglong>(e->sequence);
    default: break;
    }
    return {};
}

void TimelineModel::setClients(const ClientDirectory* clients)
{
    m_clients = clients;
    if (clients)
        connect(clients, &ClientDirectory::changed, this, [this] {
            if (rowCount() > 0)
                Q_EMIT dataChanged(index(0, OriginColumn), index(rowCount() - 1, OriginColumn));
        });
}

QString TimelineModel::staleNote(int row) const
{
    using engine::EventKind;
    const EventRecord* used = record(row);
    if (!used || used->receipt.isEmpty()
        || (used->kind != EventKind::MessageDeleted && used->kind != EventKind::VisibilityChanged
            && used->kind != EventKind::MessageReleased))
        return {};
    // The receive whose receipt it used, and the latest receive before it.
    std::uint32_t latest = 0;
    std::uint32_t of = 0;
    QByteArray latestReceipt;
    for (int earlier = row - 1; earlier >= 0; --earlier) {
        const EventRecord* e = record(earlier);
        if (!e || e->kind != EventKind::MessageReceived)
            continue;
        if (latest == 0) {
            latest = e->receiveCount;
            latestReceipt = e->receipt;
        }
        if (e->receipt == used->receipt) {
            of = e->receiveCount;
            break;
        }
    }
    if (latest == 0 || latestReceipt == used->receipt)
        return {};
    return of > 0 ? tr("stale receipt: of receive #%1, used after receive #%2").arg(of).arg(latest)
                  : tr("stale receipt: not of the latest receive (#%1)").arg(latest);
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
