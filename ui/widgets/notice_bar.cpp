#include "ui/widgets/notice_bar.h"

#include "ui/widgets/palette_colors.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace inflight::ui {

NoticeBar::NoticeBar(QWidget* parent) : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 3, 3);
    m_icon = new QLabel(this);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("noticeText"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close = new QToolButton(this);
    m_close->setObjectName(QStringLiteral("noticeCloseButton"));
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Dismiss"));
    layout->addWidget(m_icon);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_close);
    connect(m_close, &QToolButton::clicked, this, &NoticeBar::clear);
    QFrame::hide();
}

void NoticeBar::showInfo(const QString& text)
{
    show(Kind::Info, text);
}

void NoticeBar::showError(const QString& text)
{
    show(Kind::Error, text);
}

void NoticeBar::clear()
{
    m_label->clear();
    QFrame::hide();
}

QString NoticeBar::text() const
{
    return isVisibleTo(parentWidget()) ? m_label->text() : QString();
}

void NoticeBar::show(Kind kind, const QString& text)
{
    m_kind = kind;
    m_label->setText(text);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()
                          ->standardIcon(kind == Kind::Error ? QStyle::SP_MessageBoxWarning
                                                             : QStyle::SP_MessageBoxInformation)
                          .pixmap(size, size));
    QPalette p = palette();
    const QColor base = p.color(QPalette::Window);
    const QColor tint = kind == Kind::Error ? warningColor(p) : p.color(QPalette::Highlight);
    p.setColor(QPalette::Window, blend(base, tint, 0.18));
    p.setColor(QPalette::WindowText, p.color(QPalette::Text));
    setPalette(p);
    setToolTip(text);
    QFrame::show();
}

} // namespace inflight::ui
