#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QAction;
class QMenu;
class QTabWidget;
class QTextBrowser;

namespace inflight::ui {

// Help inside the app: the user guide (resources/help/guide.md), the keyboard shortcuts of the
// window's menus, and the behaviour choices (docs/BEHAVIOUR.md), each a tab. Not modal: it stays
// open beside the window. Widgets: helpTabs, guideBrowser, shortcutsBrowser, behaviourBrowser.
class HelpWindow : public QDialog {
    Q_OBJECT
public:
    enum Page { Guide, Shortcuts, Behaviour };

    // `menus`: the menu bar's menus, whose actions with a shortcut are listed under their titles.
    explicit HelpWindow(const QList<QMenu*>& menus, QWidget* parent = nullptr);

    void showPage(Page page);
    QTextBrowser* browser(Page page) const;

    // The shortcuts table as HTML: one section per menu, "Ctrl+R — Receive…" rows.
    static QString shortcutsHtml(const QList<QMenu*>& menus);
    // A bundled help text (":/help/guide.md", ":/help/behaviour.md"); a sentence saying so when
    // it is missing.
    static QString bundledText(const QString& path);

private:
    QTabWidget* m_tabs = nullptr;
    QList<QTextBrowser*> m_browsers;
};

} // namespace inflight::ui
