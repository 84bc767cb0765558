#include "ui/models/actor_table_model.h"

#include "session/session.h"

#include <QLocale>

namespace inflight::ui {

namespace {

QString millisText(double ms)
{
    if (ms <= 0)
        return QStringLiteral("–");
    if (ms < 10'000)
        return QStringLiteral("%1 ms").arg(qRound64(ms));
    if (ms < 600'000)
        return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 1);
    return QStringLiteral("%1 min").arg(ms / 60'000.0, 0, 'f', 1);
}

} // namespace

ActorTableModel::ActorTableModel(session::Session& session, QObject* parent)
    : QAbstractTableModel(parent), m_session(session)
{
    connect(&session, &session::Session::actorsChanged, this, &ActorTableModel::refresh);
    connect(&session, &session::Session::simulationChanged, this, &ActorTableModel::refresh);
    refresh();
}

int ActorTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_actors.size());
}

int ActorTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const sim::ActorInfo* ActorTableModel::actorAt(int row) const
{
    if (row < 0 || row >= int(m_actors.size()))
        return nullptr;
    return &m_actors[std::size_t(row)];
}

int ActorTableModel::rowOf(const QString& name) const
{
    for (std::size_t i = 0; i < m_actors.size(); ++i)
        if (QString::fromStdString(sim::actorName(m_actors[i].spec)) == name)
            return int(i);
    return -1;
}

void ActorTableModel::refresh()
{
    std::vector<sim::ActorInfo> fresh;
    if (const sim::Simulation* simulation = m_session.simulation())
        fresh = simulation->actors();
    bool sameRows = fresh.size() == m_actors.size();
    for (std::size_t i = 0; sameRows && i < fresh.size(); ++i)
        sameRows = fresh[i].id == m_actors[i].id;
    if (!sameRows) {
        beginResetModel();
        m_actors = std::move(fresh);
        endResetModel();
        return;
    }
    m_actors = std::move(fresh);
    if (!m_actors.empty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_actors.size()) - 1, ColumnCount - 1),
                           {Qt::DisplayRole, Qt::ToolTipRole, NumberRole});
}

QVariant ActorTableModel::data(const QModelIndex& index, int role) const
{
    const sim::ActorInfo* actor = actorAt(index.row());
    if (!actor || !index.isValid())
        return {};
    const sim::ActorFigures& f = actor->figures;
    const bool producer = actor->kind == sim::ActorKind::Producer;
    if (role == ActorIdRole)
        return QVariant::fromValue<qulonglong>(actor->id);
    if (role == Qt::TextAlignmentRole)
        return index.column() >= SentColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                            : QVariant();
    if (role == Qt::ToolTipRole) {
        if (index.column() == StateColumn && !f.lastError.empty())
            return tr("Last refusal: %1").arg(QString::fromStdString(f.lastError));
        if (index.column() == NameColumn)
            return QString::fromStdString(actor->origin);
        if (index.column() == DuplicatesColumn)
            return tr("Processing that started while the same message was already processed "
                      "(or being processed) by this consumer");
        return {};
    }
    if (role != Qt::DisplayRole && role != NumberRole)
        return {};
    const auto number = [&](std::int64_t value, bool applies) -> QVariant {
        if (role == NumberRole)
            return QVariant::fromValue<qlonglong>(value);
        return applies ? QLocale().toString(qlonglong(value)) : QString();
    };
    switch (index.column()) {
    case NameColumn: return QString::fromStdString(sim::actorName(actor->spec));
    case TypeColumn: return QString::fromUtf8(sim::actorKindName(actor->kind));
    case QueueColumn: return QString::fromStdString(sim::actorQueue(actor->spec));
    case StateColumn: {
        QString state = QString::fromUtf8(sim::actorStateName(actor->state));
        if (role == Qt::DisplayRole && !f.lastError.empty())
            state += QStringLiteral(" ⚠");
        return state;
    }
    case SentColumn: return number(f.sent, producer);
    case ReceivedColumn: return number(f.received, !producer);
    case ProcessedColumn: return number(f.processed, !producer);
    case DuplicatesColumn: return number(f.processedMoreThanOnce, !producer);
    case FailedColumn: return number(f.failed, !producer);
    case EmptyReceivesColumn: return number(f.emptyReceives, !producer);
    case ReceiveErrorsColumn: return number(producer ? f.sendErrors : f.receiveErrors, true);
    case BusyWorkersColumn: return number(f.busyWorkers, !producer);
    case LatencyMeanColumn:
        if (role == NumberRole)
            return f.latencyMean();
        return producer ? QString() : millisText(f.latencyMean());
    case LatencyMaxColumn:
        if (role == NumberRole)
            return QVariant::fromValue<qlonglong>(f.latencyMax);
        return producer ? QString() : millisText(double(f.latencyMax));
    default: return {};
    }
}

QVariant ActorTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ReceiveErrorsColumn:
            return tr("Producers: sends refused; consumers: receives refused (OverLimit, a queue "
                      "gone)");
        case LatencyMeanColumn: return tr("Mean time from send to processed");
        case LatencyMaxColumn: return tr("Longest time from send to processed");
        case BusyWorkersColumn: return tr("Workers holding messages now");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case TypeColumn: return tr("Type");
    case QueueColumn: return tr("Queue");
    case StateColumn: return tr("State");
    case SentColumn: return tr("Sent");
    case ReceivedColumn: return tr("Received");
    case ProcessedColumn: return tr("Processed");
    case DuplicatesColumn: return tr("More than once");
    case FailedColumn: return tr("Failed");
    case EmptyReceivesColumn: return tr("Empty receives");
    case ReceiveErrorsColumn: return tr("Errors");
    case BusyWorkersColumn: return tr("Busy");
    case LatencyMeanColumn: return tr("Mean send→done");
    case LatencyMaxColumn: return tr("Max send→done");
    default: return {};
    }
}

} // namespace inflight::ui
