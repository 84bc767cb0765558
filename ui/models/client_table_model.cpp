#include "ui/models/client_table_model.h"

#include "traffic/traffic_log.h"
#include "ui/models/client_directory.h"
#include "ui/models/receipt_holders.h"

#include <QBrush>
#include <QDateTime>
#include <QPixmap>

namespace inflight::ui {

ClientTableModel::ClientTableModel(const traffic::TrafficLog& log, ClientDirectory& directory,
                                   const ReceiptHolders& holders, QObject* parent)
    : QAbstractTableModel(parent), m_log(log), m_directory(directory), m_holders(holders)
{
    m_timer.setInterval(500);
    connect(&m_timer, &QTimer::timeout, this, &ClientTableModel::refresh);
    connect(&directory, &ClientDirectory::changed, this, &ClientTableModel::refresh);
    m_timer.start();
    refresh();
}

void ClientTableModel::refresh()
{
    std::vector<traffic::ClientStats> now = m_log.clients().clients();
    if (now.size() != m_rows.size()) {
        // Clients only come (the registry forgets none while the log lives): new rows at their
        // place by key.
        beginResetModel();
        m_rows = std::move(now);
        endResetModel();
        return;
    }
    m_rows = std::move(now);
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QString ClientTableModel::clientKey(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].identity.key
                                        : QString();
}

int ClientTableModel::rowOfKey(const QString& key) const
{
    for (int row = 0; row < rowCount(); ++row)
        if (m_rows[static_cast<std::size_t>(row)].identity.key == key)
            return row;
    return -1;
}

int ClientTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ClientTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClientTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const traffic::ClientStats& c = m_rows[static_cast<std::size_t>(index.row())];
    const QString& key = c.identity.key;
    if (role == ClientKeyRole)
        return key;
    if (role == Qt::DecorationRole && index.column() == NameColumn) {
        const QColor colour = m_directory.colour(key);
        if (!colour.isValid())
            return {};
        QPixmap pixmap(12, 12);
        pixmap.fill(colour);
        return pixmap;
    }
    if (role == Qt::ToolTipRole && index.column() == NameColumn)
        return tr("%1\nDouble-click to name it; right-click for a colour").arg(key);
    if (role == Qt::TextAlignmentRole && index.column() >= RequestsColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole
        && ((index.column() == StaleReceiptsColumn && c.staleReceipts > 0)
            || (index.column() == ReceivedAgainColumn && c.receivedAgain > 0)
            || (index.column() == ErrorsColumn && c.errors > 0)))
        return QBrush(QColor(0xc6, 0x28, 0x28)); // what a user debugging a consumer looks for
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    const auto time = [](std::int64_t ms) {
        return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("hh:mm:ss"));
    };
    switch (index.column()) {
    case NameColumn: {
        const QString name = m_directory.name(key);
        return role == Qt::EditRole || !name.isEmpty() ? name : key;
    }
    case SdkColumn:
        return c.identity.sdkVersion.isEmpty()
            ? c.identity.sdk
            : c.identity.sdk + QLatin1Char('/') + c.identity.sdkVersion;
    case AccessKeyColumn: return c.identity.accessKeyId;
    case AddressColumn: return c.address;
    case FirstSeenColumn: return time(c.firstSeenMs);
    case LastSeenColumn: return time(c.lastSeenMs);
    case RequestsColumn: return qlonglong(c.requests);
    case SendsColumn: return qlonglong(c.sends);
    case ReceivesColumn: return qlonglong(c.receives);
    case EmptyReceivesColumn: return qlonglong(c.emptyReceives);
    case DeletesColumn: return qlonglong(c.deletes);
    case ErrorsColumn: return qlonglong(c.errors);
    case StaleReceiptsColumn: return qlonglong(c.staleReceipts);
    case ReceivedAgainColumn: return qlonglong(c.receivedAgain);
    case HeldColumn: return m_holders.heldBy(key);
    case WaitingColumn: return qlonglong(c.waitingPolls);
    default: return {};
    }
}

bool ClientTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || index.column() != NameColumn || index.row() >= rowCount())
        return false;
    m_directory.setName(clientKey(index.row()), value.toString());
    return true;
}

Qt::ItemFlags ClientTableModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    if (index.column() == NameColumn)
        flags |= Qt::ItemIsEditable;
    return flags;
}

QVariant ClientTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case NameColumn: return tr("Your name for the client (double-click to edit)");
        case AccessKeyColumn: return tr("The access key id of its signature (SigV4 scope)");
        case EmptyReceivesColumn: return tr("Receives answered with no message");
        case StaleReceiptsColumn:
            return tr("Deletes and visibility changes with a receipt of an earlier receive: the "
                      "message came back to someone while this client held it (a standard queue "
                      "still deletes it)");
        case ReceivedAgainColumn:
            return tr("Messages it received that had been received before: processed twice when "
                      "the one before is still at work");
        case HeldColumn: return tr("Messages in flight now from its receives");
        case WaitingColumn: return tr("Its long polls open now");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Client");
    case SdkColumn: return tr("SDK");
    case AccessKeyColumn: return tr("Access key");
    case AddressColumn: return tr("Address");
    case FirstSeenColumn: return tr("First seen");
    case LastSeenColumn: return tr("Last seen");
    case RequestsColumn: return tr("Requests");
    case SendsColumn: return tr("Sent");
    case ReceivesColumn: return tr("Receives");
    case EmptyReceivesColumn: return tr("Empty");
    case DeletesColumn: return tr("Deleted");
    case StaleReceiptsColumn: return tr("Stale");
    case ReceivedAgainColumn: return tr("Again");
    case ErrorsColumn: return tr("Errors");
    case HeldColumn: return tr("Holding");
    case WaitingColumn: return tr("Waiting");
    default: return {};
    }
}

} // namespace inflight::ui
