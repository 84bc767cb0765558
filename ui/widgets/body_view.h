#pragma once

#include <QPlainTextEdit>
#include <QString>
#include <QWidget>

class QLabel;
class QPushButton;

namespace inflight::ui {

// A message body in the window, whatever its size (SQS allows 1 MiB, OCI 512 KiB). A text edit
// lays out a paragraph whole: a 1 MB body on one line froze the window (and, while the engine
// shares its thread, every client) for minutes. Up to kShownChars a body is plain text as usual;
// past it the text held is the whole body (body()), and the editor shows its start with a bar
// saying so: "Show all" (in lines of kLineChars, each laid out on its own), "Save…" and, where
// the body is edited, "Clear". A paste past the limit becomes the body (no layout of it).
// The inner editor is the one named `editorName` (tests and settings find it by it).
class BodyView : public QWidget {
    Q_OBJECT
public:
    static constexpr qsizetype kShownChars = 64 * 1024;
    static constexpr qsizetype kLineChars = 4096;

    BodyView(const QString& editorName, bool readOnly, QWidget* parent = nullptr);

    void setBody(const QString& body);
    QString body() const;
    // The body is larger than what is shown (the bar is up).
    bool isElided() const { return m_large && !m_showingAll; }
    bool isLarge() const { return m_large; }
    QPlainTextEdit* editor() const { return m_edit; }
    void clear() { setBody({}); }
    // "Show all": the whole body in lines of kLineChars (still read-only while large).
    void showAll();

Q_SIGNALS:
    void bodyChanged();

private:
    class Editor;
    void showLarge();
    void save();

    QPlainTextEdit* m_edit = nullptr; // an Editor
    QWidget* m_bar = nullptr;
    QLabel* m_note = nullptr;
    QPushButton* m_showAll = nullptr;
    QPushButton* m_clear = nullptr;
    bool m_readOnly = false;
    bool m_large = false;
    bool m_showingAll = false;
    QString m_full; // the whole body while large
};

} // namespace inflight::ui
