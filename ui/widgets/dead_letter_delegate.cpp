#include "ui/widgets/dead_letter_delegate.h"

#include "ui/models/queue_table_model.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QPainter>
#include <QStyle>

#include <algorithm>

namespace inflight::ui {

namespace {

struct Span {
    qsizetype start = 0;
    qsizetype length = 0;
};

} // namespace

DeadLetterDelegate::DeadLetterDelegate(QAbstractItemView* view)
    : QStyledItemDelegate(view), m_view(view)
{
}

QString DeadLetterDelegate::fitText(const QString& text, const QStringList& names,
                                    const QFontMetrics& metrics, int width)
{
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    QList<Span> spans;
    int widest = 0;
    qsizetype from = 0;
    for (const QString& name : names) {
        const qsizetype at = name.isEmpty() ? -1 : text.indexOf(name, from);
        if (at < 0)
            continue;
        spans.append({at, name.size()});
        widest = std::max(widest, metrics.horizontalAdvance(name));
        from = at + name.size();
    }
    const auto compose = [&](int nameWidth) {
        QString out;
        qsizetype at = 0;
        for (const Span& span : spans) {
            out += QStringView(text).mid(at, span.start - at);
            out += metrics.elidedText(text.mid(span.start, span.length), Qt::ElideMiddle,
                                      nameWidth);
            at = span.start + span.length;
        }
        out += QStringView(text).mid(at);
        return out;
    };
    // The narrowest a name gets: a character on each side of the ellipsis.
    const int narrowest = metrics.horizontalAdvance(QStringLiteral("w\u2026w"));
    if (spans.isEmpty() || widest <= narrowest
        || metrics.horizontalAdvance(compose(narrowest)) > width)
        return metrics.elidedText(text, Qt::ElideMiddle, width);
    // The widest common name width that fits (the text only grows with it).
    int low = narrowest;
    int high = widest;
    while (low < high) {
        const int middle = low + (high - low + 1) / 2;
        if (metrics.horizontalAdvance(compose(middle)) <= width)
            low = middle;
        else
            high = middle - 1;
    }
    return compose(low);
}

QString DeadLetterDelegate::fittedText(const QStyleOptionViewItem& option,
                                       const QModelIndex& index) const
{
    const QWidget* widget = option.widget;
    const QStyle* style = widget ? widget->style() : QApplication::style();
    // As QCommonStyle lays out an item's text: its rect less a margin on each side.
    const QRect rect = style->subElementRect(QStyle::SE_ItemViewItemText, &option, widget);
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    QStringList names{index.data(QueueTableModel::DeadLetterTargetRole).toString()};
    names += index.data(QueueTableModel::DeadLetterSourcesRole).toStringList();
    return fitText(option.text, names, option.fontMetrics, rect.width() - 2 * margin);
}

void DeadLetterDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text = fittedText(opt, index);
    const QWidget* widget = opt.widget;
    const QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
}

QString DeadLetterDelegate::shownText(const QModelIndex& index) const
{
    QStyleOptionViewItem option;
    option.initFrom(m_view->viewport());
    option.widget = m_view;
    option.rect = m_view->visualRect(index);
    option.font = m_view->font();
    option.fontMetrics = QFontMetrics(option.font);
    option.textElideMode = m_view->textElideMode();
    initStyleOption(&option, index);
    return fittedText(option, index);
}

} // namespace inflight::ui
