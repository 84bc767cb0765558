#include "ui/models/message_table_model.h"

#include "engine/explain.h"
#include "engine/oci_ids.h"
#include "ui/models/client_directory.h"
#include "ui/models/model_text.h"
#include "ui/models/receipt_holders.h"
#include "ui/models/row_runs.h"
#include "ui/source/queue_source.h"

#include <algorithm>

namespace inflight::ui {

namespace {

constexpr engine::Millis kWarningMillis = 5 * engine::kSecond;
constexpr double kWarningFraction = 0.2;

bool isTimed(engine::MessageState state)
{
    return state != engine::MessageState::Available;
}

} // namespace

MessageTableModel::MessageTableModel(QueueSource& source, QObject* parent)
    : QAbstractTableModel(parent), m_source(source), m_now(source.now())
{
    connect(&m_source, &QueueSource::eventsReady, this, &MessageTableModel::onEvents);
    connect(&m_tick, &QTimer::timeout, this, [this] { setNow(m_source.now()); });
    m_loadTimer.setInterval(0);
    connect(&m_loadTimer, &QTimer::timeout, this, [this] { loadPending(kRowsPerTurn, true); });
    m_blockedTimer.setSingleShot(true);
    m_blockedTimer.setInterval(250);
    connect(&m_blockedTimer, &QTimer::timeout, this, &MessageTableModel::updateBlocked);
}

MessageTableModel::~MessageTableModel() = default;

void MessageTableModel::setQueue(const QString& queue)
{
    beginResetModel();
    m_queue = queue;
    m_queueName = queue.toStdString();
    m_rows.clear();
    m_pending.clear();
    m_nextPending = 0;
    m_loadTimer.stop();
    m_timedRows = 0;
    m_now = m_source.now();
    m_blocked.clear();
    m_fifo = false;
    m_oci = false;
    if (!m_queueName.empty()) {
        if (auto queue = m_source.queue(m_queue)) {
            m_fifo = queue->kind == engine::QueueKind::Fifo;
            m_oci = queue->kind == engine::QueueKind::Oci;
        }
        m_pending = m_source.messageKeys(m_queue);
        m_rows.reserve(m_pending.size());
        loadPending(kFirstRows, false);
    }
    endResetModel();
    updateBlocked();
    if (isLoading())
        m_loadTimer.start();
    Q_EMIT loadingChanged();
}

void MessageTableModel::loadPending(std::size_t count, bool signal, QSet<QString>* wanted)
{
    const std::size_t end = std::min(m_pending.size(), m_nextPending + count);
    std::vector<RowPtr> rows;
    rows.reserve(end - m_nextPending);
    for (; m_nextPending < end; ++m_nextPending) {
        // Gone since the listing began: no row (its removal was not shown either).
        if (auto view = m_source.peek(m_queue, m_pending[m_nextPending])) {
            rows.push_back(makeRow(*view));
            if (wanted)
                wanted->remove(rows.back()->messageId);
        }
    }
    if (!isLoading()) {
        m_loadTimer.stop();
        m_pending = {};
        m_nextPending = 0;
    }
    if (signal) {
        insertRows(std::move(rows));
        Q_EMIT loadingChanged();
    } else {
        for (RowPtr& row : rows) {
            countTimed(*row, +1);
            m_rows.push_back(std::move(row));
        }
    }
}

void MessageTableModel::finishLoading()
{
    if (isLoading())
        loadPending(m_pending.size(), true);
}

void MessageTableModel::listUntilShown(const QStringList& messageIds)
{
    if (!isLoading() || messageIds.isEmpty())
        return;
    QSet<QString> wanted(messageIds.begin(), messageIds.end());
    for (const RowPtr& row : m_rows)
        wanted.remove(row->messageId);
    while (isLoading() && !wanted.isEmpty())
        loadPending(kRowsPerTurn, true, &wanted);
}

bool MessageTableModel::isPending(std::uint64_t sequence) const
{
    return isLoading() && sequence >= m_pending[m_nextPending].sequence
        && sequence <= m_pending.back().sequence;
}

void MessageTableModel::setReceiptHolders(const ReceiptHolders* holders,
                                          const ClientDirectory* clients)
{
    m_holders = holders;
    m_clients = clients;
    const auto repaint = [this] {
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, StateColumn), index(rowCount() - 1, StateColumn),
                               {Qt::DecorationRole, Qt::ToolTipRole});
    };
    if (clients)
        connect(clients, &ClientDirectory::changed, this, repaint);
}

void MessageTableModel::updateBlocked()
{
    m_blockedTimer.stop();
    const bool had = !m_blocked.empty();
    m_blocked.clear();
    if (m_fifo) {
        for (const engine::BlockedMessage& b : m_source.blocked(m_queue))
            m_blocked.emplace(b.key.sequence, toQString(b.text));
    }
    if ((had || !m_blocked.empty()) && rowCount() > 0)
        Q_EMIT dataChanged(index(0, StateColumn), index(rowCount() - 1, StateColumn));
}

bool MessageTableModel::isBlocked(int row) const
{
    const Row& r = this->row(row);
    return r.state == engine::MessageState::Available && m_blocked.count(r.key.sequence) > 0;
}

void MessageTableModel::clearRows()
{
    if (isLoading()) {
        m_pending = {};
        m_nextPending = 0;
        m_loadTimer.stop();
        Q_EMIT loadingChanged();
    }
    if (m_rows.empty())
        return;
    beginRemoveRows({}, 0, rowCount() - 1);
    m_rows.clear();
    m_timedRows = 0;
    endRemoveRows();
}

void MessageTableModel::setNow(engine::Millis now)
{
    m_now = now;
    if (m_timedRows == 0 || m_rows.empty())
        return;
    Q_EMIT dataChanged(index(0, VisibilityColumn), index(rowCount() - 1, VisibilityColumn),
                       {Qt::DisplayRole, CountdownRole, WarningRole});
}

void MessageTableModel::startTicking(int hz)
{
    m_tick.start(1000 / std::max(hz, 1));
}

void MessageTableModel::stopTicking()
{
    m_tick.stop();
}

int MessageTableModel::rowOfKey(engine::MessageKey key) const
{
    const std::size_t i = lowerBound(key.sequence);
    if (i < m_rows.size() && m_rows[i]->key == key)
        return static_cast<int>(i);
    return -1;
}

int MessageTableModel::rowOfMessageId(const QString& messageId) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i]->messageId == messageId)
            return static_cast<int>(i);
    }
    return -1;
}

std::size_t MessageTableModel::lowerBound(std::uint64_t sequence) const
{
    auto it = std::lower_bound(
        m_rows.begin(), m_rows.end(), sequence,
        [](const RowPtr& row, std::uint64_t s) { return row->key.sequence < s; });
    return static_cast<std::size_t>(it - m_rows.begin());
}

MessageTableModel::RowPtr MessageTableModel::makeRow(const engine::MessageView& view) const
{
    auto row = std::make_unique<Row>();
    row->key = view.key;
    row->messageId = toQString(view.messageId);
    if (m_oci)
        row->ociId = QString::number(engine::ociMessageNumber(view.messageId));
    row->sentAt = view.sentAt;
    row->deduplicationId = toQString(view.deduplicationId);
    row->bodyPreview = bodyPreview(view.body);
    row->group = toQString(view.groupId.empty() ? view.channelId : view.groupId);
    assign(*row, view);
    return row;
}

void MessageTableModel::assign(Row& row, const engine::MessageView& view) const
{
    // Id, body, group and dedup id never change while a message stays in its queue.
    row.state = view.state;
    row.receiveCount = view.receiveCount;
    row.movesToDeadLetterOnNextReceive = view.movesToDeadLetterOnNextReceive;
    switch (view.state) {
    case engine::MessageState::InFlight:
        row.windowStart = view.receivedAt;
        row.deadline = view.visibleAt;
        break;
    case engine::MessageState::Delayed:
        row.windowStart = view.sentAt;
        row.deadline = view.deliverAt;
        break;
    case engine::MessageState::Available:
        row.windowStart = 0;
        row.deadline = 0;
        break;
    }
}

void MessageTableModel::countTimed(const Row& row, int delta)
{
    if (isTimed(row.state))
        m_timedRows += delta;
}

// ---- data --------------------------------------------------------------------------------------

int MessageTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MessageTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString MessageTableModel::visibilityText(const Row& row) const
{
    switch (row.state) {
    case engine::MessageState::InFlight: return formatTimeLeft(row.deadline - m_now);
    case engine::MessageState::Delayed:
        return QStringLiteral("delayed %1").arg(formatTimeLeft(row.deadline - m_now));
    case engine::MessageState::Available: break;
    }
    return {};
}

QVariant MessageTableModel::countdownFraction(const Row& row) const
{
    if (!isTimed(row.state))
        return {};
    const engine::Millis window = row.deadline - row.windowStart;
    if (window <= 0)
        return 0.0;
    const double left = static_cast<double>(row.deadline - m_now) / static_cast<double>(window);
    return std::clamp(left, 0.0, 1.0);
}

bool MessageTableModel::warning(const Row& row) const
{
    if (row.state != engine::MessageState::InFlight)
        return false;
    const engine::Millis left = row.deadline - m_now;
    const engine::Millis window = row.deadline - row.windowStart;
    return left < kWarningMillis
        || static_cast<double>(left) < kWarningFraction * static_cast<double>(window);
}

QVariant MessageTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row& r = row(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case StateColumn:
            if (r.state == engine::MessageState::Available && m_blocked.count(r.key.sequence))
                return tr("Blocked");
            return messageStateLabel(r.state);
        case VisibilityColumn: return visibilityText(r);
        case MessageIdColumn: return m_oci ? r.ociId : shortId(r.messageId);
        case BodyColumn: return r.bodyPreview;
        case GroupColumn: return r.group;
        case ReceivesColumn:
            if (r.movesToDeadLetterOnNextReceive)
                return QStringLiteral("%1 \u26a0").arg(r.receiveCount);
            return QString::number(r.receiveCount);
        case SentColumn: return formatEngineTime(r.sentAt);
        case DeduplicationColumn: return r.deduplicationId;
        }
        break;
    case Qt::UserRole:
        switch (column) {
        case StateColumn: return static_cast<int>(r.state);
        case VisibilityColumn:
            return static_cast<qlonglong>(isTimed(r.state) ? r.deadline : engine::kNoDeadline);
        case MessageIdColumn: return r.messageId;
        case BodyColumn: return r.bodyPreview;
        case GroupColumn: return r.group;
        case ReceivesColumn: return static_cast<uint>(r.receiveCount);
        case SentColumn: return static_cast<qlonglong>(r.sentAt);
        case DeduplicationColumn: return r.deduplicationId;
        }
        break;
    case Qt::DecorationRole:
        if (column == StateColumn && m_holders && r.state == engine::MessageState::InFlight)
            return originSwatch(m_clients, m_holders->holder(m_queueName, r.key.sequence));
        return {};
    case Qt::ToolTipRole:
        switch (column) {
        case StateColumn: {
            if (const auto it = m_blocked.find(r.key.sequence);
                it != m_blocked.end() && r.state == engine::MessageState::Available)
                return it->second;
            if (m_holders && r.state == engine::MessageState::InFlight) {
                const QString holder = m_holders->holder(m_queueName, r.key.sequence);
                if (!holder.isEmpty())
                    return tr("In flight: receive #%1 by %2")
                        .arg(r.receiveCount)
                        .arg(originLabel(m_clients, holder));
            }
            return {};
        }
        case VisibilityColumn:
            if (r.state == engine::MessageState::InFlight)
                return tr("Visible again at %1").arg(formatEngineTime(r.deadline))
                    + (r.movesToDeadLetterOnNextReceive
                           ? tr(" — DLQ next: its next receive moves it to the dead-letter queue")
                           : QString());
            if (r.state == engine::MessageState::Delayed)
                return tr("Delivered at %1").arg(formatEngineTime(r.deadline));
            return {};
        case MessageIdColumn:
            return m_oci ? tr("id %1 (Inflight's id %2)").arg(r.ociId, r.messageId) : r.messageId;
        case ReceivesColumn:
            if (r.movesToDeadLetterOnNextReceive)
                return tr("Received %1 times: the next receive moves it to the dead-letter queue")
                    .arg(r.receiveCount);
            return tr("Received %1 times").arg(r.receiveCount);
        case BodyColumn: return r.bodyPreview;
        default: return {};
        }
    case Qt::TextAlignmentRole:
        if (column == VisibilityColumn || column == ReceivesColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case MessageIdRole: return r.messageId;
    case StateRole: return static_cast<int>(r.state);
    case CountdownRole: return countdownFraction(r);
    case WarningRole: return warning(r);
    case DlqNextRole: return r.movesToDeadLetterOnNextReceive;
    case DeadlineRole: return static_cast<qlonglong>(r.deadline);
    case SequenceRole: return static_cast<qulonglong>(r.key.sequence);
    case BlockedRole:
        return r.state == engine::MessageState::Available && m_blocked.count(r.key.sequence) > 0;
    default: break;
    }
    return {};
}

bool MessageTableModel::rawLessThan(int left, int right, int column, Qt::CaseSensitivity cs) const
{
    const Row& a = row(left);
    const Row& b = row(right);
    auto deadline
        = [](const Row& r) { return isTimed(r.state) ? r.deadline : engine::kNoDeadline; };
    switch (column) {
    case StateColumn: return a.state < b.state;
    case VisibilityColumn: return deadline(a) < deadline(b);
    case MessageIdColumn: return a.messageId.compare(b.messageId, cs) < 0;
    case BodyColumn: return a.bodyPreview.compare(b.bodyPreview, cs) < 0;
    case GroupColumn: return a.group.compare(b.group, cs) < 0;
    case ReceivesColumn: return a.receiveCount < b.receiveCount;
    case SentColumn: return a.sentAt < b.sentAt;
    case DeduplicationColumn: return a.deduplicationId.compare(b.deduplicationId, cs) < 0;
    default: return a.key.sequence < b.key.sequence;
    }
}

QVariant MessageTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case StateColumn:
            return tr("Available, in flight (received, its visibility timeout running), delayed, "
                      "or blocked behind its FIFO group's head; the colour is the client holding "
                      "its receipt");
        case VisibilityColumn:
            return tr("Time until an in-flight message is visible again (red when little is "
                      "left) or a delayed one is delivered; \"DLQ next\": its next receive moves "
                      "it to the dead-letter queue");
        case MessageIdColumn: return tr("The message id (the whole id in the inspector)");
        case BodyColumn: return tr("The body's start (pretty-printed in the inspector)");
        case GroupColumn: return tr("The FIFO message group, or the OCI channel");
        case ReceivesColumn:
            return tr("How many times it was received (ApproximateReceiveCount); ⚠ at the "
                      "queue's maxReceiveCount");
        case SentColumn: return tr("When it was sent, in engine time");
        case DeduplicationColumn: return tr("The FIFO deduplication id");
        default: return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (m_oci) { // the names an OCI client reads in GetMessages
        switch (section) {
        case VisibilityColumn: return tr("visibleAfter");
        case MessageIdColumn: return tr("id");
        case BodyColumn: return tr("content");
        case GroupColumn: return tr("channel");
        case ReceivesColumn: return tr("deliveryCount");
        case SentColumn: return tr("createdAt");
        default: break;
        }
    }
    switch (section) {
    case StateColumn: return tr("State");
    case VisibilityColumn: return tr("Visibility");
    case MessageIdColumn: return tr("Message id");
    case BodyColumn: return tr("Body");
    case GroupColumn: return tr("Group / channel");
    case ReceivesColumn: return tr("Receives");
    case SentColumn: return tr("Sent");
    case DeduplicationColumn: return tr("Dedup id");
    default: return {};
    }
}

} // namespace inflight::ui
