#include "session/session.h"
#include "ui/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QIcon>

#include <cstdio>
#include <cstring>
#include <memory>

namespace {

// Options answered without a window need no display: they run on a QCoreApplication.
bool needsWindow(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        for (const char* option : {"--version", "-v", "--help", "-h", "--help-all", "--headless"}) {
            if (std::strcmp(argv[i], option) == 0)
                return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication::setApplicationName(QStringLiteral(INFLIGHT_APP_NAME));
    QCoreApplication::setApplicationVersion(QStringLiteral(INFLIGHT_VERSION));
    QCoreApplication::setOrganizationName(QStringLiteral("Inflight"));

    std::unique_ptr<QCoreApplication> app;
    if (needsWindow(argc, argv))
        app = std::make_unique<QApplication>(argc, argv);
    else
        app = std::make_unique<QCoreApplication>(argc, argv);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("A desktop workbench for Amazon SQS and OCI Queue semantics."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption headless(
        QStringLiteral("headless"),
        QStringLiteral("Serve the SQS and OCI endpoint without a window (not yet available)."));
    parser.addOption(headless);
    parser.process(*app); // --help, --version and unknown options end here

    if (parser.isSet(headless)) {
        std::fputs("headless mode: not yet available\n", stderr);
        return 2;
    }

    QApplication::setDesktopFileName(QStringLiteral("inflight"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/inflight.svg")));

    inflight::session::Session session;
    inflight::ui::MainWindow window(session);
    window.show();
    return app->exec();
}
