#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace inflight::ui {

// A one-line notice next to what the user acted on: an engine error with the service's code and
// message, or a short confirmation. Hidden until something is shown; the close button hides it.
class NoticeBar : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Info, Error };

    explicit NoticeBar(QWidget* parent = nullptr);

    void showInfo(const QString& text);
    void showError(const QString& text);
    void clear();

    Kind kind() const { return m_kind; }
    QString text() const;

private:
    void show(Kind kind, const QString& text);

    QLabel* m_icon = nullptr;
    QLabel* m_label = nullptr;
    QToolButton* m_close = nullptr;
    Kind m_kind = Kind::Info;
};

} // namespace inflight::ui
