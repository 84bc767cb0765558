#include "ui/models/message_filter_model.h"

#include "ui/models/message_table_model.h"

#include <algorithm>

namespace inflight::ui {

namespace {

MessageFilterModel::StateFilterFlag flagOf(engine::MessageState state)
{
    switch (state) {
    case engine::MessageState::Available: return MessageFilterModel::Available;
    case engine::MessageState::Delayed: return MessageFilterModel::Delayed;
    case engine::MessageState::InFlight: return MessageFilterModel::InFlight;
    }
    return MessageFilterModel::Available;
}

} // namespace

MessageFilterModel::MessageFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(Qt::UserRole);
    setDynamicSortFilter(true);
    // The tick changes Display/Countdown/Warning only; nothing filters on those.
    setFilterRole(MessageTableModel::MessageIdRole);
}

void MessageFilterModel::setSourceModel(QAbstractItemModel* model)
{
    if (m_tickShortcut && sourceModel())
        disconnect(sourceModel(), &QAbstractItemModel::dataChanged, this,
                   &MessageFilterModel::onSourceDataChanged);
    if (m_messages)
        disconnect(m_messages, &MessageTableModel::loadingChanged, this,
                   &MessageFilterModel::onSourceLoadingChanged);
    m_tickShortcut = false;
    m_messages = qobject_cast<MessageTableModel*>(model);
    QSortFilterProxyModel::setSourceModel(model);
    if (!m_messages)
        return;
    connect(m_messages, &MessageTableModel::loadingChanged, this,
            &MessageFilterModel::onSourceLoadingChanged);
    // Route the source's dataChanged through onSourceDataChanged, which hands everything but the
    // tick to QSortFilterProxyModel's handler. If this Qt connects that handler differently, the
    // disconnect fails and the proxy keeps its (correct, slower) default.
    m_tickShortcut
        = disconnect(model, SIGNAL(dataChanged(QModelIndex, QModelIndex, QList<int>)), this,
                     SLOT(_q_sourceDataChanged(QModelIndex, QModelIndex, QList<int>)));
    if (m_tickShortcut)
        connect(model, &QAbstractItemModel::dataChanged, this,
                &MessageFilterModel::onSourceDataChanged);
}

void MessageFilterModel::sort(int column, Qt::SortOrder order)
{
    m_requestedColumn = column;
    m_requestedOrder = order;
    if (m_messages && m_messages->isLoading()) {
        if (sortColumn() >= 0)
            QSortFilterProxyModel::sort(-1);
        return;
    }
    QSortFilterProxyModel::sort(column, order);
}

void MessageFilterModel::onSourceLoadingChanged()
{
    if (m_messages->isLoading()) {
        if (sortColumn() >= 0)
            QSortFilterProxyModel::sort(-1);
    } else if (sortColumn() != m_requestedColumn || sortOrder() != m_requestedOrder) {
        QSortFilterProxyModel::sort(m_requestedColumn, m_requestedOrder);
    }
}

void MessageFilterModel::onSourceDataChanged(const QModelIndex& topLeft,
                                             const QModelIndex& bottomRight,
                                             const QList<int>& roles)
{
    const bool tick = topLeft.column() == MessageTableModel::VisibilityColumn
        && bottomRight.column() == MessageTableModel::VisibilityColumn && !roles.isEmpty()
        && std::all_of(roles.begin(), roles.end(), [](int role) {
                          return role == Qt::DisplayRole || role == MessageTableModel::CountdownRole
                              || role == MessageTableModel::WarningRole;
                      });
    if (!tick) {
        QMetaObject::invokeMethod(this, "_q_sourceDataChanged", Qt::DirectConnection,
                                  Q_ARG(QModelIndex, topLeft), Q_ARG(QModelIndex, bottomRight),
                                  Q_ARG(QList<int>, roles));
        return;
    }
    // Display, countdown and warning depend on no filter and no sort key: no row moves.
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, MessageTableModel::VisibilityColumn),
                           index(rowCount() - 1, MessageTableModel::VisibilityColumn), roles);
}

void MessageFilterModel::setStateFilter(StateFilter states)
{
    if (states == m_states)
        return;
    m_states = states;
    invalidateRowsFilter();
}

void MessageFilterModel::setTextFilter(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateRowsFilter();
}

bool MessageFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_messages) {
        const MessageTableModel::Row& row = m_messages->row(sourceRow);
        if (!m_states.testFlag(flagOf(row.state)))
            return false;
        return m_text.isEmpty() || row.messageId.contains(m_text, Qt::CaseInsensitive)
            || (!row.ociId.isEmpty() && row.ociId.contains(m_text))
            || row.bodyPreview.contains(m_text, Qt::CaseInsensitive)
            || row.group.contains(m_text, Qt::CaseInsensitive);
    }
    QAbstractItemModel* source = sourceModel();
    const QModelIndex first = source->index(sourceRow, 0, sourceParent);
    const auto state
        = static_cast<engine::MessageState>(first.data(MessageTableModel::StateRole).toInt());
    if (!m_states.testFlag(flagOf(state)))
        return false;
    if (m_text.isEmpty())
        return true;
    for (int column : {int(MessageTableModel::MessageIdColumn), int(MessageTableModel::BodyColumn),
                       int(MessageTableModel::GroupColumn)}) {
        const QString text
            = source->index(sourceRow, column, sourceParent).data(Qt::UserRole).toString();
        if (text.contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

bool MessageFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (m_messages && sortRole() == Qt::UserRole)
        return m_messages->rawLessThan(left.row(), right.row(), left.column(),
                                       sortCaseSensitivity());
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace inflight::ui
