#pragma once

#include <QStyledItemDelegate>

namespace inflight::ui {

// Shows a receipt handle by its end ("…SJemID0RGpTgu"): receipts of one queue share a long
// prefix, so the end is what tells two apart. Reads the full handle from Qt::UserRole (the raw
// value the event log and timeline models give for their receipt column) and elides on the left.
class ReceiptDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace inflight::ui
