#include "ui/models/queue_table_model.h"

#include "ui/models/model_text.h"
#include "ui/models/row_runs.h"
#include "ui/source/queue_source.h"

#include <algorithm>
#include <unordered_set>

namespace inflight::ui {

QueueTableModel::QueueTableModel(QueueSource& source, QObject* parent)
    : QAbstractTableModel(parent), m_source(source)
{
    for (const engine::QueueView& view : m_source.queues())
        m_rows.push_back(makeRow(view));
    connect(&m_source, &QueueSource::queuesChanged, this, &QueueTableModel::refresh);
    connect(&m_source, &QueueSource::countsChanged, this, &QueueTableModel::updateCounts);
}

QueueTableModel::Row QueueTableModel::makeRow(const engine::QueueView& view)
{
    Row row;
    row.engineName = view.name;
    row.name = toQString(view.name);
    row.kind = view.kind;
    row.stats = view.stats;
    row.deadLetterTarget = toQString(view.deadLetterTarget);
    row.maxReceiveCount = view.maxReceiveCount;
    for (const std::string& source : view.deadLetterSources)
        row.deadLetterSources.append(toQString(source));
    row.builtInDeadLetter = view.isBuiltInDeadLetterQueue;

    QStringList parts;
    if (!row.deadLetterTarget.isEmpty()) {
        if (row.maxReceiveCount > 0)
            parts.append(
                tr("\u2192 %1 (max %2)").arg(row.deadLetterTarget).arg(row.maxReceiveCount));
        else
            parts.append(tr("\u2192 %1 (off)").arg(row.deadLetterTarget));
    }
    if (row.builtInDeadLetter)
        parts.append(
            tr("built-in DLQ of %1").arg(row.deadLetterSources.join(QStringLiteral(", "))));
    else if (!row.deadLetterSources.isEmpty())
        parts.append(
            QStringLiteral("\u2190 %1").arg(row.deadLetterSources.join(QStringLiteral(", "))));
    row.deadLetterText = parts.join(QStringLiteral("; "));
    return row;
}

QString QueueTableModel::queueName(int row) const
{
    if (row < 0 || row >= rowCount())
        return {};
    return m_rows[static_cast<std::size_t>(row)].name;
}

int QueueTableModel::rowOf(const QString& name) const
{
    return indexOf(name.toStdString());
}

std::size_t QueueTableModel::lowerBound(const std::string& name) const
{
    auto it
        = std::lower_bound(m_rows.begin(), m_rows.end(), name,
                           [](const Row& row, const std::string& n) { return row.engineName < n; });
    return static_cast<std::size_t>(it - m_rows.begin());
}

int QueueTableModel::indexOf(const std::string& name) const
{
    const std::size_t i = lowerBound(name);
    if (i < m_rows.size() && m_rows[i].engineName == name)
        return static_cast<int>(i);
    return -1;
}

void QueueTableModel::updateCounts(const QStringList& queues)
{
    int first = rowCount();
    int last = -1;
    for (const QString& name : queues) {
        const int r = rowOf(name);
        if (r < 0)
            continue;
        auto stats = m_source.stats(name);
        if (!stats)
            continue;
        m_rows[static_cast<std::size_t>(r)].stats = *stats;
        first = std::min(first, r);
        last = std::max(last, r);
    }
    if (last >= first)
        Q_EMIT dataChanged(index(first, AvailableColumn), index(last, DelayedColumn));
}

void QueueTableModel::refresh()
{
    std::vector<engine::QueueView> views = m_source.queues();
    // Both lists are sorted by name: remove the rows that are gone (last first), then insert the
    // new ones, then update everything that stayed.
    std::unordered_set<std::string> names;
    for (const engine::QueueView& view : views)
        names.insert(view.name);
    std::vector<int> gone;
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if (!names.contains(m_rows[r].engineName))
            gone.push_back(static_cast<int>(r));
    }
    forEachRunDescending(gone, [this](int first, int last) {
        beginRemoveRows({}, first, last);
        m_rows.erase(m_rows.begin() + first, m_rows.begin() + last + 1);
        endRemoveRows();
    });
    std::size_t r = 0;
    for (const engine::QueueView& view : views) {
        if (r < m_rows.size() && m_rows[r].engineName == view.name) {
            m_rows[r] = makeRow(view);
        } else {
            const int at = static_cast<int>(r);
            beginInsertRows({}, at, at);
            m_rows.insert(m_rows.begin() + at, makeRow(view));
            endInsertRows();
        }
        ++r;
    }
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int QueueTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int QueueTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant QueueTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn: return r.name;
        case TypeColumn: return queueKindLabel(r.kind);
        case AvailableColumn: return QString::number(r.stats.available);
        case InFlightColumn: return QString::number(r.stats.inFlight);
        case DelayedColumn: return QString::number(r.stats.delayed);
        case DeadLetterColumn: return r.deadLetterText;
        }
        break;
    case Qt::UserRole:
        switch (column) {
        case NameColumn: return r.name;
        case TypeColumn: return static_cast<int>(r.kind);
        case AvailableColumn: return static_cast<qlonglong>(r.stats.available);
        case InFlightColumn: return static_cast<qlonglong>(r.stats.inFlight);
        case DelayedColumn: return static_cast<qlonglong>(r.stats.delayed);
        case DeadLetterColumn: return r.deadLetterText;
        }
        break;
    case Qt::ToolTipRole:
        // The full text, whatever the column's width leaves of it.
        if (column == NameColumn)
            return r.name;
        if (column == DeadLetterColumn && !r.deadLetterText.isEmpty()) {
            if (!r.deadLetterTarget.isEmpty() && r.maxReceiveCount > 0)
                return r.deadLetterText + QLatin1Char('\n')
                    + (r.kind == engine::QueueKind::Oci
                           ? tr("A message delivered %1 times moves to %2 instead of being "
                                "delivered again")
                           : tr("A message received %1 times moves to %2 on its next receive"))
                          .arg(r.maxReceiveCount)
                          .arg(r.deadLetterTarget);
            return r.deadLetterText;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column == AvailableColumn || column == InFlightColumn || column == DelayedColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case QueueNameRole: return r.name;
    case KindRole: return static_cast<int>(r.kind);
    case DeadLetterTargetRole: return r.deadLetterTarget;
    case MaxReceiveCountRole: return static_cast<qlonglong>(r.maxReceiveCount);
    case DeadLetterSourcesRole: return r.deadLetterSources;
    case IsDeadLetterQueueRole: return !r.deadLetterSources.isEmpty();
    case IsBuiltInDeadLetterRole: return r.builtInDeadLetter;
    default: break;
    }
    return {};
}

QVariant QueueTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case NameColumn: return tr("The queue's name");
        case TypeColumn: return tr("Standard, FIFO or OCI");
        case AvailableColumn:
            return tr("Messages a receive can get now (ApproximateNumberOfMessages)");
        case InFlightColumn:
            return tr("Received, not deleted, their visibility timeout running "
                      "(ApproximateNumberOfMessagesNotVisible)");
        case DelayedColumn:
            return tr("Sent with a delay not over yet (ApproximateNumberOfMessagesDelayed)");
        case DeadLetterColumn:
            return tr("Where its messages go after maxReceiveCount receives (→), or the queues "
                      "whose dead letters it holds (←)");
        default: return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn: return tr("Queue");
    case TypeColumn: return tr("Type");
    case AvailableColumn: return tr("Available");
    case InFlightColumn: return tr("In flight");
    case DelayedColumn: return tr("Delayed");
    case DeadLetterColumn: return tr("Dead-letter");
    default: return {};
    }
}

} // namespace inflight::ui
