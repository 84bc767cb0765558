#pragma once

#include "sim/simulation.h"

#include <QAbstractTableModel>

#include <vector>

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// The session's simulated actors, one row each: name, type, queue, state and the live figures.
// Re-read from Session::simulation() on actorsChanged and simulationChanged (rows stay where
// they are while the actors do; only changed cells are signalled).
class ActorTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        TypeColumn,
        QueueColumn,
        StateColumn,
        SentColumn,
        ReceivedColumn,
        ProcessedColumn,
        DuplicatesColumn,
        FailedColumn,
        EmptyReceivesColumn,
        ReceiveErrorsColumn,
        BusyWorkersColumn,
        LatencyMeanColumn,
        LatencyMaxColumn,
        ColumnCount
    };
    enum Role { ActorIdRole = Qt::UserRole + 1, NumberRole };

    explicit ActorTableModel(session::Session& session, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const sim::ActorInfo* actorAt(int row) const;
    // The row of the actor with that name; -1 if none.
    int rowOf(const QString& name) const;
    // Reads the actors again.
    void refresh();

private:
    session::Session& m_session;
    std::vector<sim::ActorInfo> m_actors;
};

} // namespace inflight::ui
