#pragma once

#include <QStyledItemDelegate>

class QAbstractItemView;

namespace inflight::ui {

// Draws the queue list's dead-letter relation ("→ payments-dlq.fifo (max 5)", "← orders, audit",
// "built-in DLQ of telemetry") so that it stays readable when the column is narrow: the queue
// names in it are elided in the middle, all by the same measure, while the arrows, "(max N)" and
// the words around them stay whole; only if even that does not fit is the whole text elided in
// the middle. The names come from QueueTableModel's DeadLetterTargetRole and
// DeadLetterSourcesRole; the full text stays in the model (and its tooltip).
class DeadLetterDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit DeadLetterDelegate(QAbstractItemView* view);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

    // The text as painted in the view's cell for `index` at its current size.
    QString shownText(const QModelIndex& index) const;

    // `text` as it fits in `width` pixels: unchanged if it fits, else with `names` (occurring in
    // `text` in this order) elided in the middle to the widest common width that fits.
    static QString fitText(const QString& text, const QStringList& names,
                           const QFontMetrics& metrics, int width);

private:
    QString fittedText(const QStyleOptionViewItem& option, const QModelIndex& index) const;

    QAbstractItemView* m_view;
};

} // namespace inflight::ui
