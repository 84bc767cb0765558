#pragma once

#include "traffic/client_registry.h"

#include <QAbstractTableModel>
#include <QTimer>

#include <vector>

namespace inflight::traffic {
class TrafficLog;
}

namespace inflight::ui {

class ClientDirectory;
class ReceiptHolders;

// One row per client of the traffic log (traffic::ClientRegistry), re-read twice a second: its
// name and colour (ClientDirectory; the name is editable), SDK and version, access key, address,
// first and last seen, requests, sends, receives, empty receives, deletes, errors, the receipts it
// holds now (ReceiptHolders) and its waiting long polls.
class ClientTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        SdkColumn,
        AccessKeyColumn,
        AddressColumn,
        FirstSeenColumn,
        LastSeenColumn,
        RequestsColumn,
        SendsColumn,
        ReceivesColumn,
        EmptyReceivesColumn,
        DeletesColumn,
        ErrorsColumn,
        StaleReceiptsColumn, // requests with a receipt of an earlier receive
        ReceivedAgainColumn, // messages it got that had been received before
        HeldColumn,
        WaitingColumn,
        ColumnCount
    };
    enum Roles { ClientKeyRole = Qt::UserRole + 1 };

    // All three must outlive the model.
    ClientTableModel(const traffic::TrafficLog& log, ClientDirectory& directory,
                     const ReceiptHolders& holders, QObject* parent = nullptr);

    // Re-reads the registry now (the timer does it twice a second).
    void refresh();
    QString clientKey(int row) const;
    int rowOfKey(const QString& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const traffic::TrafficLog& m_log;
    ClientDirectory& m_directory;
    const ReceiptHolders& m_holders;
    std::vector<traffic::ClientStats> m_rows;
    QTimer m_timer;
};

} // namespace inflight::ui
