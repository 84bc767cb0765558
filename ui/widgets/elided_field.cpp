#include "ui/widgets/elided_field.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace inflight::ui {

ElidedField::ElidedField(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    m_value = new QLabel(this);
    m_value->setObjectName(QStringLiteral("fieldValue"));
    m_value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_value->setMinimumWidth(1);
    layout->addWidget(m_value, 1);
    m_copy = new QToolButton(this);
    m_copy->setObjectName(QStringLiteral("copyFieldButton"));
    m_copy->setText(tr("Copy"));
    m_copy->setToolTip(tr("Copy the whole value"));
    m_copy->setAutoRaise(true);
    m_copy->hide();
    layout->addWidget(m_copy);
    connect(m_copy, &QToolButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_text);
        Q_EMIT copied(m_text);
    });
}

void ElidedField::setText(const QString& text)
{
    if (text == m_text && !m_value->text().isEmpty())
        return;
    m_text = text;
    m_copy->setVisible(m_copyable && !text.isEmpty());
    setToolTip(text);
    elide();
}

void ElidedField::setPlaceholder(const QString& placeholder)
{
    m_placeholder = placeholder;
    elide();
}

void ElidedField::setCopyable(bool copyable)
{
    m_copyable = copyable;
    m_copy->setVisible(m_copyable && !m_text.isEmpty());
}

QString ElidedField::shownText() const
{
    return m_value->text();
}

QSize ElidedField::minimumSizeHint() const
{
    const QSize button = m_copy->isVisible() ? m_copy->sizeHint() : QSize();
    return {fontMetrics().horizontalAdvance(QStringLiteral("xxxx…xxxx")) + button.width(),
            std::max(fontMetrics().height(), button.height())};
}

QSize ElidedField::sizeHint() const
{
    return minimumSizeHint();
}

void ElidedField::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    elide();
}

void ElidedField::elide()
{
    if (m_text.isEmpty()) {
        m_value->setEnabled(false); // a placeholder reads as one
        m_value->setText(m_placeholder);
        return;
    }
    m_value->setEnabled(true);
    const int room = std::max(1, m_value->width());
    m_value->setText(m_value->fontMetrics().elidedText(m_text, Qt::ElideMiddle, room));
}

} // namespace inflight::ui
