#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QToolButton;

namespace inflight::ui {

// A read-only value that never sets its panel's width: as wide as it is given, elided in the
// middle when it does not fit (a 64-character deduplication id keeps its start and its end), the
// whole value in its tooltip and behind a copy button. Widgets: fieldValue, copyFieldButton.
class ElidedField : public QWidget {
    Q_OBJECT
public:
    explicit ElidedField(QWidget* parent = nullptr);

    void setText(const QString& text);
    QString text() const { return m_text; }
    // The text as shown (elided or whole), for tests.
    QString shownText() const;
    // Shown where there is nothing to show ("none: not in flight").
    void setPlaceholder(const QString& placeholder);
    void setCopyable(bool copyable);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

Q_SIGNALS:
    void copied(const QString& text);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    QLabel* m_value = nullptr;
    QToolButton* m_copy = nullptr;
    QString m_text;
    QString m_placeholder;
    bool m_copyable = true;
};

} // namespace inflight::ui
