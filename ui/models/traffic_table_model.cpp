#include "ui/models/traffic_table_model.h"

#include "session/session.h"
#include "traffic/traffic_log.h"
#include "ui/models/client_directory.h"
#include "ui/models/event_log_model.h"

#include <QBrush>
#include <QDateTime>
#include <QPixmap>

#include <algorithm>

namespace inflight::ui {

namespace {

QString clientText(const traffic::TrafficRecord& record, const ClientDirectory& clients)
{
    const QString named = clients.name(record.client.key);
    if (!named.isEmpty())
        return named;
    QString sdk = record.client.sdk.isEmpty() ? QStringLiteral("unknown") : record.client.sdk;
    if (!record.client.sdkVersion.isEmpty())
        sdk += QLatin1Char('/') + record.client.sdkVersion;
    return record.client.accessKeyId.isEmpty() ? sdk + QStringLiteral(" @") + record.client.host
                                               : sdk + QLatin1Char(' ') + record.client.accessKeyId;
}

QString statusText(const traffic::TrafficRecord& record)
{
    if (record.waiting)
        return QObject::tr("waiting…");
    if (record.status == 0)
        return QObject::tr("hung up");
    return QString::number(record.status);
}

QPixmap swatch(const QColor& colour)
{
    QPixmap pixmap(10, 10);
    pixmap.fill(colour);
    return pixmap;
}

} // namespace

TrafficTableModel::TrafficTableModel(traffic::TrafficLog& log, session::Session& session,
                                     const ClientDirectory& clients, const EventLogModel& events,
                                     QObject* parent)
    : QAbstractTableModel(parent), m_log(log), m_clients(clients), m_eventLog(events)
{
    m_first = log.oldestCursor();
    m_last = log.cursor();
    if (m_last < m_first)
        m_last = m_first - 1;
    m_listener = m_log.addListener(
        [this](const traffic::TrafficRecord& record, bool isNew) { onRecord(record, isNew); });
    connect(&session, &session::Session::eventsReady, this, &TrafficTableModel::onEvents);
    connect(&clients, &ClientDirectory::changed, this, [this] {
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, ClientColumn), index(rowCount() - 1, ClientColumn));
    });
    m_flush.setInterval(100);
    m_flush.setSingleShot(true);
    connect(&m_flush, &QTimer::timeout, this, [this] {
        if (m_active)
            flush();
        else
            forgetDropped();
    });
}

TrafficTableModel::~TrafficTableModel()
{
    m_log.removeListener(m_listener);
}

void TrafficTableModel::onRecord(const traffic::TrafficRecord& record, bool isNew)
{
    if (isNew) {
        if (record.client.key.constData() != m_lastKey.constData()) { // identities are shared
            m_lastKey = record.client.key;
            m_lastKeyText = std::make_shared<const std::string>(m_lastKey.toStdString());
        }
        if (record.lastEvent >= record.firstEvent && record.firstEvent > 0)
            m_ranges.push_back({record.firstEvent, record.lastEvent, record.cursor, m_lastKeyText});
        if (!record.queue.isEmpty()
            && (record.operation == QLatin1String("ReceiveMessage")
                || record.operation == QLatin1String("GetMessages"))) {
            if (m_latestReceive.size() > 4096)
                m_latestReceive.clear();
            m_latestReceive[*m_lastKeyText + '\n' + record.queue.toStdString()] = record.cursor;
        }
    }
    if (!isNew) {
        m_changedFrom = std::min(m_changedFrom, record.cursor);
        m_changedTo = std::max(m_changedTo, record.cursor);
    }
    if (!m_flush.isActive())
        m_flush.start();
}

std::uint64_t TrafficTableModel::rangeOf(std::uint64_t sequence, const std::string& origin) const
{
    auto range = std::upper_bound(
        m_ranges.begin(), m_ranges.end(), sequence,
        [](std::uint64_t at, const Range& candidate) { return at < candidate.firstEvent; });
    if (range == m_ranges.begin())
        return 0;
    --range;
    return sequence <= range->lastEvent && origin == *range->client ? range->cursor : 0;
}

void TrafficTableModel::onEvents(const std::vector<engine::Event>& events)
{
    // Only a long poll's receive needs remembering: every other event of a request is within its
    // record's numbers.
    if (m_latestReceive.empty())
        return;
    for (const engine::Event& event : events) {
        if (event.kind != engine::EventKind::MessageReceived
            || rangeOf(event.sequence, event.origin) != 0)
            continue;
        const auto receive = m_latestReceive.find(event.origin + '\n' + event.queue);
        if (receive == m_latestReceive.end())
            continue;
        m_servedReceives[event.sequence] = receive->second;
        m_servedOf[receive->second].push_back(event.sequence);
    }
}

std::uint64_t TrafficTableModel::requestOfEvent(std::uint64_t sequence) const
{
    std::uint64_t cursor = 0;
    if (const auto served = m_servedReceives.find(sequence); served != m_servedReceives.end())
        cursor = served->second;
    else if (const EventRecord* event = m_eventLog.recordOfSequence(sequence))
        cursor = rangeOf(sequence, event->origin.toStdString());
    return cursor != 0 && m_log.find(cursor) ? cursor : 0;
}

void TrafficTableModel::setActive(bool active)
{
    m_active = active;
    if (active)
        flush();
}

void TrafficTableModel::forgetDropped()
{
    const std::uint64_t oldest = m_log.oldestCursor();
    // What belongs to dropped requests goes with them.
    const auto keptServed = m_servedOf.lower_bound(oldest);
    for (auto it = m_servedOf.begin(); it != keptServed; ++it)
        for (const std::uint64_t sequence : it->second)
            m_servedReceives.erase(sequence);
    m_servedOf.erase(m_servedOf.begin(), keptServed);
    while (!m_ranges.empty() && m_ranges.front().cursor < oldest) // in cursor order too
        m_ranges.pop_front();
}

void TrafficTableModel::flush()
{
    m_flush.stop();
    bool changed = false;
    // Rows the ring dropped go first, in one block.
    const std::uint64_t oldest = m_log.oldestCursor();
    if (oldest > m_first && m_last >= m_first) {
        const std::uint64_t gone = std::min(oldest, m_last + 1) - m_first;
        beginRemoveRows({}, 0, static_cast<int>(gone - 1));
        m_first += gone;
        endRemoveRows();
        changed = true;
    }
    if (m_last < m_first)
        m_first = std::max(m_first, oldest);
    forgetDropped();
    // New rows, in one block.
    const std::uint64_t newest = m_log.cursor();
    if (newest > m_last) {
        const std::uint64_t from = std::max(m_last + 1, m_first);
        if (m_last + 1 < from) { // nothing shown, and the log moved past it
            m_first = from;
            m_last = from - 1;
        }
        beginInsertRows({}, rowCount(), rowCount() + static_cast<int>(newest - from));
        m_last = newest;
        endInsertRows();
        changed = true;
    }
    // Completed long polls, in one dataChanged.
    if (m_changedTo >= m_changedFrom) {
        const int top = rowOfCursor(std::max(m_changedFrom, m_first));
        const int bottom = rowOfCursor(std::min(m_changedTo, m_last));
        if (top >= 0 && bottom >= top) {
            Q_EMIT dataChanged(index(top, 0), index(bottom, ColumnCount - 1));
            changed = true;
        }
        m_changedFrom = UINT64_MAX;
        m_changedTo = 0;
    }
    if (changed)
        Q_EMIT flushed();
}

const traffic::TrafficRecord* TrafficTableModel::record(int row) const
{
    if (row < 0 || row >= rowCount())
        return nullptr;
    return m_log.find(m_first + static_cast<std::uint64_t>(row));
}

int TrafficTableModel::rowOfCursor(std::uint64_t cursor) const
{
    if (cursor < m_first || cursor > m_last)
        return -1;
    return static_cast<int>(cursor - m_first);
}

std::vector<EventRecord> TrafficTableModel::eventsOf(std::uint64_t cursor) const
{
    std::vector<EventRecord> out;
    const traffic::TrafficRecord* record = m_log.find(cursor);
    if (!record)
        return out;
    for (std::uint64_t sequence = record->firstEvent;
         sequence <= record->lastEvent && sequence != 0; ++sequence) {
        const EventRecord* event = m_eventLog.recordOfSequence(sequence);
        if (event && event->origin == record->client.key)
            out.push_back(*event);
    }
    if (const auto served = m_servedOf.find(cursor); served != m_servedOf.end())
        for (const std::uint64_t sequence : served->second)
            if (const EventRecord* event = m_eventLog.recordOfSequence(sequence))
                out.push_back(*event);
    return out;
}

bool TrafficTableModel::isEmptyReceive(const traffic::TrafficRecord& record)
{
    return !record.waiting && record.status > 0 && record.status < 400 && record.succeeded == 0
        && (record.operation == QLatin1String("ReceiveMessage")
            || record.operation == QLatin1String("GetMessages"));
}

int TrafficTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_last < m_first ? 0 : static_cast<int>(m_last - m_first + 1);
}

int TrafficTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TrafficTableModel::data(const QModelIndex& index, int role) const
{
    const traffic::TrafficRecord* r = record(index.row());
    if (!r)
        return {};
    switch (role) {
    case CursorRole: return QVariant::fromValue<qulonglong>(r->cursor);
    case ClientKeyRole: return r->client.key;
    case OperationRole: return r->operation;
    case QueueRole: return r->queue;
    case IsErrorRole: return r->isError();
    case IsEmptyReceiveRole: return isEmptyReceive(*r);
    case IsWaitingRole: return r->waiting;
    case IsRedeliveryRole: return r->staleReceipt || r->receivedAgain > 0;
    case SearchTextRole: {
        // The messages its events touched: a delete's body has only a receipt, not the id.
        QStringList ids;
        for (const EventRecord& event : eventsOf(r->cursor))
            if (!event.messageId.isEmpty())
                ids << event.messageId;
        return QStringList{ids.join(QLatin1Char(' ')),
                           r->operation,
                           r->queue,
                           r->errorCode,
                           r->errorMessage,
                           r->outcome,
                           QString::fromLatin1(r->requestId),
                           r->client.key,
                           m_clients.name(r->client.key),
                           r->address,
                           QString::fromUtf8(r->path),
                           QString::fromUtf8(r->requestBody),
                           QString::fromUtf8(r->responseBody)}
            .join(QLatin1Char('\n'));
    }
    default: break;
    }
    if (role == Qt::DecorationRole && index.column() == ClientColumn) {
        const QColor colour = m_clients.colour(r->client.key);
        return colour.isValid() ? QVariant(swatch(colour)) : QVariant();
    }
    if (role == Qt::ForegroundRole
        && (index.column() == StatusColumn || index.column() == ErrorColumn) && r->isError())
        return QBrush(QColor(0xc6, 0x28, 0x28));
    // A stale receipt or a message received again: the planted bug of a slow consumer, seen in
    // the list without opening the row.
    if (role == Qt::ForegroundRole && index.column() == OutcomeColumn
        && (r->staleReceipt || r->receivedAgain > 0))
        return QBrush(QColor(0xc6, 0x28, 0x28));
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case ClientColumn:
            return tr("%1\nfrom %2\n%3").arg(r->client.key, r->address, r->userAgent);
        case TimeColumn:
            return tr("wall clock %1")
                .arg(QDateTime::fromMSecsSinceEpoch(r->wallTimeMs)
                         .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz")));
        case ErrorColumn:
        case OutcomeColumn: {
            QString tip = r->errorMessage.isEmpty() ? r->outcome : r->errorMessage;
            return tip;
        }
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn: return formatEngineTime(r->engineTimeMs);
    case WallTimeColumn:
        return QDateTime::fromMSecsSinceEpoch(r->wallTimeMs)
            .toString(QStringLiteral("hh:mm:ss.zzz"));
    case ClientColumn: return clientText(*r, m_clients);
    case ProtocolColumn: return QString::fromLatin1(traffic::protocolName(r->protocol));
    case OperationColumn:
        return r->operation.isEmpty() ? QString::fromUtf8(r->method + ' ' + r->path) : r->operation;
    case QueueColumn: return r->queue;
    case StatusColumn: return statusText(*r);
    case ErrorColumn: return r->errorCode;
    case LatencyColumn:
        return r->waiting ? QString()
                          : QStringLiteral("%1 ms").arg(r->latencyUs / 1000.0, 0, 'f', 1);
    case OutcomeColumn: return r->outcome;
    case RequestIdColumn: return QString::fromLatin1(r->requestId);
    default: return {};
    }
}

QVariant TrafficTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TimeColumn:
            return tr("Engine time the request arrived: the clock of the messages and events "
                      "(the wall clock on hover)");
        case WallTimeColumn: return tr("Wall-clock time the request arrived");
        case ClientColumn: return tr("Who sent it: access key, SDK and address (Clients panel)");
        case StatusColumn: return tr("HTTP status; \"waiting…\" while a long poll is open");
        case LatencyColumn: return tr("Server-side time from arrival to answer");
        case OutcomeColumn: return tr("What the request did, in one line");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case WallTimeColumn: return tr("Wall clock");
    case ClientColumn: return tr("Client");
    case ProtocolColumn: return tr("Protocol");
    case OperationColumn: return tr("Operation");
    case QueueColumn: return tr("Queue");
    case StatusColumn: return tr("Status");
    case ErrorColumn: return tr("Error");
    case LatencyColumn: return tr("Latency");
    case OutcomeColumn: return tr("Outcome");
    case RequestIdColumn: return tr("Request id");
    default: return {};
    }
}

// ---- TrafficFilterModel --------------------------------------------------------------------------

TrafficFilterModel::TrafficFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
}

void TrafficFilterModel::setClientFilter(const QString& clientKey)
{
    m_client = clientKey;
    invalidateFilter();
}

void TrafficFilterModel::setOperationFilter(const QString& operation)
{
    m_operation = operation;
    invalidateFilter();
}

void TrafficFilterModel::setQueueFilter(const QString& queue)
{
    m_queue = queue;
    invalidateFilter();
}

void TrafficFilterModel::setErrorsOnly(bool on)
{
    m_errorsOnly = on;
    invalidateFilter();
}

void TrafficFilterModel::setEmptyReceivesOnly(bool on)
{
    m_emptyOnly = on;
    invalidateFilter();
}

void TrafficFilterModel::setRedeliveriesOnly(bool on)
{
    m_redeliveriesOnly = on;
    invalidateFilter();
}

void TrafficFilterModel::setTextFilter(const QString& text)
{
    m_text = text;
    invalidateFilter();
}

bool TrafficFilterModel::isFiltering() const
{
    return !m_client.isEmpty() || !m_operation.isEmpty() || !m_queue.isEmpty() || m_errorsOnly
        || m_emptyOnly || m_redeliveriesOnly || !m_text.isEmpty();
}

bool TrafficFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex at = sourceModel()->index(sourceRow, 0, sourceParent);
    using M = TrafficTableModel;
    if (!m_client.isEmpty() && at.data(M::ClientKeyRole).toString() != m_client)
        return false;
    if (!m_operation.isEmpty() && at.data(M::OperationRole).toString() != m_operation)
        return false;
    if (!m_queue.isEmpty() && at.data(M::QueueRole).toString() != m_queue)
        return false;
    if (m_errorsOnly && !at.data(M::IsErrorRole).toBool())
        return false;
    if (m_emptyOnly && !at.data(M::IsEmptyReceiveRole).toBool())
        return false;
    if (m_redeliveriesOnly && !at.data(M::IsRedeliveryRole).toBool())
        return false;
    if (!m_text.isEmpty()
        && !at.data(M::SearchTextRole).toString().contains(m_text, Qt::CaseInsensitive))
        return false;
    return true;
}

} // namespace inflight::ui
