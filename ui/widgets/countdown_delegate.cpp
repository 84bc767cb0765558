#include "ui/widgets/countdown_delegate.h"

#include "engine/types.h"
#include "ui/models/message_table_model.h"
#include "ui/widgets/palette_colors.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionProgressBar>

namespace inflight::ui {

namespace {
constexpr int kBarResolution = 1000;
constexpr int kMargin = 2;
} // namespace

CountdownDelegate::CountdownDelegate(QObject* parent)
    : CountdownDelegate(Roles{MessageTableModel::CountdownRole, MessageTableModel::WarningRole,
                              MessageTableModel::DlqNextRole, MessageTableModel::StateRole},
                        parent)
{
}

CountdownDelegate::CountdownDelegate(Roles roles, QObject* parent)
    : QStyledItemDelegate(parent), m_roles(roles)
{
}

QString CountdownDelegate::dlqMarkerText()
{
    return tr("DLQ next");
}

void CountdownDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const
{
    const QVariant countdown = index.data(m_roles.countdown);
    const bool dlqNext = index.data(m_roles.dlqNext).toBool();
    if (!countdown.isValid() && !dlqNext) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }

    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    // Background and selection as any cell, without the text.
    item.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget);

    QRect area = option.rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const QPalette& palette = option.palette;
    const QColor warning = warningColor(palette);

    if (dlqNext) {
        const QString marker = dlqMarkerText();
        QFont font = option.font;
        font.setBold(true);
        font.setPointSizeF(font.pointSizeF() * 0.85);
        const QFontMetrics metrics(font);
        const int width = metrics.horizontalAdvance(marker) + 8;
        const QRect badge(area.right() - width + 1, area.top(), width, area.height());
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(warning);
        painter->drawRoundedRect(badge, 3, 3);
        painter->setFont(font);
        painter->setPen(isDarkPalette(palette) ? QColor(Qt::black) : QColor(Qt::white));
        painter->drawText(badge, Qt::AlignCenter, marker);
        painter->restore();
        area.setRight(badge.left() - 3);
    }

    if (!countdown.isValid() || area.width() < 8)
        return;

    // The seconds beside the bar, in the cell's own text colour (readable on any palette).
    const QString text = index.data(Qt::DisplayRole).toString();
    const QFontMetrics metrics(option.font);
    // The same room on every row (so bars line up), more only for long texts.
    const int textWidth
        = std::max(metrics.horizontalAdvance(text), metrics.horizontalAdvance(tr("delayed 00:00")))
        + 6;
    const bool selected = option.state & QStyle::State_Selected;
    const bool warn = index.data(m_roles.warning).toBool();
    painter->save();
    painter->setFont(option.font);
    painter->setPen(warn && !selected
                        ? warning
                        : palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    const QRect textRect(area.right() - textWidth + 1, area.top(), textWidth, area.height());
    painter->drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, text);
    painter->restore();
    area.setRight(textRect.left() - 4);
    if (area.width() < 12)
        return;

    QStyleOptionProgressBar bar;
    bar.initFrom(widget);
    bar.rect = area.adjusted(0, 1, 0, -1);
    bar.minimum = 0;
    bar.maximum = kBarResolution;
    bar.progress = int(countdown.toDouble() * kBarResolution + 0.5);
    bar.textVisible = false;
    bar.state = (option.state & ~QStyle::State_Selected) | QStyle::State_Horizontal;
    bar.palette = palette;
    if (warn)
        bar.palette.setColor(QPalette::Highlight, warning);
    else if (index.data(m_roles.state).toInt() == int(engine::MessageState::Delayed))
        bar.palette.setColor(QPalette::Highlight, palette.color(QPalette::Mid));
    style->drawControl(QStyle::CE_ProgressBar, &bar, painter, widget);
}

QSize CountdownDelegate::sizeHint(const QStyleOptionViewItem& option,
                                  const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    const QFontMetrics metrics(option.font);
    size.setWidth(std::max(size.width(),
                           metrics.horizontalAdvance(QStringLiteral("00:00:00"))
                               + metrics.horizontalAdvance(dlqMarkerText()) + 40));
    return size;
}

} // namespace inflight::ui
