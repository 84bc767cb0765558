#include "ui/widgets/receipt_delegate.h"

namespace inflight::ui {

void ReceiptDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const QString receipt = index.data(Qt::UserRole).toString();
    if (!receipt.isEmpty()) {
        option->text = receipt;
        option->textElideMode = Qt::ElideLeft;
    }
}

} // namespace inflight::ui
