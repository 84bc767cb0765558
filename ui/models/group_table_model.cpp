#include "ui/models/group_table_model.h"

#include "session/session.h"
#include "ui/models/model_text.h"
#include "ui/models/row_runs.h"

#include <algorithm>
#include <unordered_map>

namespace inflight::ui {

GroupTableModel::GroupTableModel(session::Session& session, QObject* parent)
    : QAbstractTableModel(parent), m_session(session), m_now(session.displayTime())
{
    connect(&m_session, &session::Session::eventsReady, this, &GroupTableModel::onEvents);
    connect(&m_tick, &QTimer::timeout, this, [this] { setNow(m_session.displayTime()); });
}

void GroupTableModel::setQueue(const QString& queue)
{
    beginResetModel();
    m_queue = queue;
    m_queueName = queue.toStdString();
    m_rows.clear();
    m_now = m_session.displayTime();
    auto view = m_queueName.empty() ? engine::Result<engine::QueueView>(engine::Error{})
                                    : m_session.broker().queueView(m_queueName);
    m_hasGroups = view && view->kind != engine::QueueKind::Standard;
    if (m_hasGroups) {
        auto groups = m_session.broker().peekGroups(m_queueName);
        if (groups) {
            int order = 0;
            for (engine::GroupView& view : *groups) {
                Row row;
                row.groupId = toQString(view.groupId);
                row.view = std::move(view);
                row.engineOrder = order++;
                m_rows.push_back(std::move(row));
            }
        }
    }
    endResetModel();
}

void GroupTableModel::refresh()
{
    if (!m_hasGroups)
        return;
    m_now = m_session.displayTime();
    auto groups = m_session.broker().peekGroups(m_queueName);
    std::vector<engine::GroupView> views;
    if (groups)
        views = std::move(*groups);
    std::unordered_map<std::string, std::size_t> position;
    for (std::size_t i = 0; i < views.size(); ++i)
        position.emplace(views[i].groupId, i);

    std::vector<int> gone;
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if (!position.contains(m_rows[r].view.groupId))
            gone.push_back(static_cast<int>(r));
    }
    forEachRunDescending(gone, [this](int first, int last) {
        beginRemoveRows({}, first, last);
        m_rows.erase(m_rows.begin() + first, m_rows.begin() + last + 1);
        endRemoveRows();
    });

    std::vector<bool> shown(views.size(), false);
    for (Row& row : m_rows) {
        const std::size_t i = position.at(row.view.groupId);
        row.view = views[i];
        row.engineOrder = static_cast<int>(i);
        shown[i] = true;
    }
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));

    std::vector<Row> added;
    for (std::size_t i = 0; i < views.size(); ++i) {
        if (shown[i])
            continue;
        Row row;
        row.groupId = toQString(views[i].groupId);
        row.view = std::move(views[i]);
        row.engineOrder = static_cast<int>(i);
        added.push_back(std::move(row));
    }
    if (!added.empty()) {
        beginInsertRows({}, rowCount(), rowCount() + static_cast<int>(added.size()) - 1);
        std::move(added.begin(), added.end(), std::back_inserter(m_rows));
        endInsertRows();
    }
}

void GroupTableModel::onEvents(const std::vector<engine::Event>& events)
{
    if (!m_hasGroups)
        return;
    bool touched = false;
    for (const engine::Event& e : events) {
        if (e.queue == m_queueName || (engine::isMove(e.kind) && e.detail == m_queueName)) {
            touched = true;
            break;
        }
    }
    if (touched)
        refresh();
}

void GroupTableModel::setNow(engine::Millis now)
{
    m_now = now;
    const bool blocked = std::any_of(m_rows.begin(), m_rows.end(),
                                     [](const Row& row) { return row.view.blocked; });
    if (blocked)
        Q_EMIT dataChanged(index(0, StateColumn), index(rowCount() - 1, StateColumn),
                           {Qt::DisplayRole});
}

void GroupTableModel::startTicking(int hz)
{
    m_tick.start(1000 / std::max(hz, 1));
}

void GroupTableModel::stopTicking()
{
    m_tick.stop();
}

QString GroupTableModel::stateText(const Row& row) const
{
    const engine::GroupView& v = row.view;
    if (v.headMessageId.empty()) // an OCI channel: no head, no blocking
        return v.waiting > 0 ? tr("servable") : (v.inFlight > 0 ? tr("all in flight") : QString());
    if (!v.blocked)
        return tr("servable");
    const QString left = formatTimeLeft(v.blockedUntil - m_now);
    if (v.headState == engine::MessageState::Delayed)
        return tr("delayed (%1)").arg(left);
    return tr("blocked by %1 (in flight, %2)").arg(shortId(v.blockingMessageId), left);
}

int GroupTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int GroupTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GroupTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    const engine::GroupView& v = r.view;
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case GroupColumn: return r.groupId.isEmpty() ? tr("(default channel)") : r.groupId;
        case HeadColumn: return shortId(v.headMessageId);
        case StateColumn: return stateText(r);
        case WaitingColumn: return QString::number(v.waiting);
        case InFlightColumn: return QString::number(v.inFlight);
        }
        break;
    case Qt::UserRole:
        switch (column) {
        case GroupColumn: return r.groupId;
        case HeadColumn: return toQString(v.headMessageId);
        case StateColumn: return v.blocked ? static_cast<qlonglong>(v.blockedUntil) : 0LL;
        case WaitingColumn: return static_cast<qlonglong>(v.waiting);
        case InFlightColumn: return static_cast<qlonglong>(v.inFlight);
        }
        break;
    case Qt::ToolTipRole:
        if (column == HeadColumn)
            return toQString(v.headMessageId);
        if (column == StateColumn && v.blocked)
            return tr("Nothing of this group is served until %1")
                .arg(formatEngineTime(v.blockedUntil));
        return {};
    case Qt::TextAlignmentRole:
        if (column == WaitingColumn || column == InFlightColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case GroupIdRole: return r.groupId;
    case HeadMessageIdRole: return toQString(v.headMessageId);
    case BlockedRole: return v.blocked;
    case BlockingMessageIdRole: return toQString(v.blockingMessageId);
    case BlockedUntilRole: return static_cast<qlonglong>(v.blocked ? v.blockedUntil : 0);
    case EngineOrderRole: return r.engineOrder;
    default: break;
    }
    return {};
}

QVariant GroupTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case GroupColumn: return tr("Group");
    case HeadColumn: return tr("Head");
    case StateColumn: return tr("State");
    case WaitingColumn: return tr("Waiting behind");
    case InFlightColumn: return tr("In flight");
    default: return {};
    }
}

} // namespace inflight::ui
