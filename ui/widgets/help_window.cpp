#include "ui/widgets/help_window.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QMenu>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace inflight::ui {

namespace {

// Every action of `menu` with a shortcut, submenus included, in menu order.
void collect(const QMenu* menu, QList<const QAction*>& out)
{
    for (const QAction* action : menu->actions()) {
        if (action->menu())
            collect(action->menu(), out);
        else if (!action->isSeparator() && !action->shortcut().isEmpty() && !out.contains(action))
            out << action;
    }
}

QString plain(QString text)
{
    text.remove(QLatin1Char('&'));
    return text.toHtmlEscaped();
}

} // namespace

HelpWindow::HelpWindow(const QList<QMenu*>& menus, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("helpWindow"));
    setWindowTitle(tr("Inflight help"));
    auto* layout = new QVBoxLayout(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("helpTabs"));
    const auto page = [this](const QString& name, const QString& title) {
        auto* browser = new QTextBrowser(m_tabs);
        browser->setObjectName(name);
        browser->setOpenExternalLinks(true);
        m_tabs->addTab(browser, title);
        m_browsers << browser;
        return browser;
    };
    page(QStringLiteral("guideBrowser"), tr("User guide"))
        ->setMarkdown(bundledText(QStringLiteral(":/help/guide.md")));
    page(QStringLiteral("shortcutsBrowser"), tr("Keyboard shortcuts"))
        ->setHtml(shortcutsHtml(menus));
    page(QStringLiteral("behaviourBrowser"), tr("Behaviour choices"))
        ->setMarkdown(bundledText(QStringLiteral(":/help/behaviour.md")));
    layout->addWidget(m_tabs, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    layout->addWidget(buttons);
    resize(760, 640);
}

void HelpWindow::showPage(Page page)
{
    m_tabs->setCurrentIndex(int(page));
    show();
    raise();
    activateWindow();
}

QTextBrowser* HelpWindow::browser(Page page) const
{
    return m_browsers.value(int(page));
}

QString HelpWindow::shortcutsHtml(const QList<QMenu*>& menus)
{
    QString html = QStringLiteral("<h2>%1</h2>").arg(tr("Keyboard shortcuts"));
    for (const QMenu* menu : menus) {
        QList<const QAction*> actions;
        collect(menu, actions);
        if (actions.isEmpty())
            continue;
        html += QStringLiteral("<h3>%1</h3><table cellpadding=\"3\">").arg(plain(menu->title()));
        for (const QAction* action : actions)
            html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                             plain(action->text()));
        html += QStringLiteral("</table>");
    }
    html += QStringLiteral("<p>%1</p>")
                .arg(tr("In the message table, Delete deletes the selected in-flight messages "
                        "with their receipts."));
    return html;
}

QString HelpWindow::bundledText(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return tr("This help text (%1) is not in this build.").arg(path);
    return QString::fromUtf8(file.readAll());
}

} // namespace inflight::ui
