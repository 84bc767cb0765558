#pragma once

#include <QStyledItemDelegate>

namespace inflight::ui {

// Draws the visibility column of the message table: for an in-flight (or delayed) message a
// progress bar of the time left with the seconds on it, through the style, so it looks native in
// light and dark palettes; the bar turns to the warning colour near zero (WarningRole) and a
// message whose next receive moves it to the dead-letter queue (DlqNextRole) gets a "DLQ next"
// marker. Reads MessageTableModel's roles; rows without a countdown are drawn as plain text.
class CountdownDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    // The roles to read; the defaults are MessageTableModel's.
    struct Roles {
        int countdown;
        int warning;
        int dlqNext;
        int state;
    };

    explicit CountdownDelegate(QObject* parent = nullptr);
    CountdownDelegate(Roles roles, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // The text of the marker drawn for DlqNextRole rows.
    static QString dlqMarkerText();

private:
    Roles m_roles;
};

} // namespace inflight::ui
