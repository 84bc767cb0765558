#pragma once

#include <QFlags>
#include <QSortFilterProxyModel>

namespace inflight::ui {

class MessageTableModel;

// Sorts and filters a MessageTableModel for the message browser. Sorting is by the raw value
// (Qt::UserRole) of the sort column: on the visibility column that is the absolute deadline, which
// does not change as time passes, so the countdown tick never reorders rows. Filters: by state and
// by text (a case-insensitive substring of the message id, body preview or group/channel).
//
// The countdown tick (MessageTableModel::setNow) changes neither a filter result nor a sort key,
// so the proxy passes it on as one ranged dataChanged in O(1) instead of re-checking the filter
// and order of every row, as QSortFilterProxyModel does for any change in its sort column; every
// other change goes through QSortFilterProxyModel's own handling.
class MessageFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum StateFilterFlag {
        Available = 0x1,
        Delayed = 0x2,
        InFlight = 0x4,
        AllStates = Available | Delayed | InFlight,
    };
    Q_DECLARE_FLAGS(StateFilter, StateFilterFlag)

    explicit MessageFilterModel(QObject* parent = nullptr);

    // Only a MessageTableModel (or a model with its roles) is expected here.
    void setSourceModel(QAbstractItemModel* model) override;

    StateFilter stateFilter() const { return m_states; }
    void setStateFilter(StateFilter states);
    QString textFilter() const { return m_text; }
    void setTextFilter(const QString& text);

    // While the source is still listing a large queue (MessageTableModel::isLoading), rows stay in
    // the source's order and the sort asked for is applied once the last block is in: sorted, each
    // block would land all over the table, and Qt moves the whole mapping for every place. The
    // column asked for (the header's indicator) is `requestedSortColumn`.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int requestedSortColumn() const { return m_requestedColumn; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    void onSourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                             const QList<int>& roles);
    void onSourceLoadingChanged();

    MessageTableModel* m_messages = nullptr; // the source when it is one: fast paths
    StateFilter m_states = AllStates;
    QString m_text;
    bool m_tickShortcut = false; // QSortFilterProxyModel's own dataChanged handler is bypassed
    int m_requestedColumn = -1;
    Qt::SortOrder m_requestedOrder = Qt::AscendingOrder;
};

} // namespace inflight::ui

Q_DECLARE_OPERATORS_FOR_FLAGS(inflight::ui::MessageFilterModel::StateFilter)
