#include "transfer_command.h"

#include "workspace/workspace_files.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>

#include <cstdio>

namespace inflight::app {

namespace {

// Waits until what the session has done is on disk; false if it could not be stored.
bool waitDurable(session::Session& session)
{
    bool stored = true;
    if (session.isDurable())
        return stored;
    QEventLoop loop;
    session.whenDurable(&loop, [&](bool ok) {
        stored = ok;
        loop.quit();
    });
    if (!session.isDurable())
        loop.exec();
    return stored;
}

} // namespace

int runTransfer(QCoreApplication& app, const QString& command)
{
    QCommandLineParser parser;
    const bool isExport = command == QStringLiteral("export");
    parser.setApplicationDescription(
        isExport ? QStringLiteral("Export queues and their messages from a workspace to JSON.")
                 : QStringLiteral("Import queues and messages from JSON into a workspace. Bad "
                                  "JSON imports nothing and names the line."));
    parser.addHelpOption();
    parser.addPositionalArgument(command, QStringLiteral("The command."));
    const QCommandLineOption workspace(QStringLiteral("workspace"),
                                       QStringLiteral("The workspace file (required)."),
                                       QStringLiteral("file"));
    const QCommandLineOption queue(
        QStringLiteral("queue"),
        isExport ? QStringLiteral("A queue to export (repeatable; default: every queue).")
                 : QStringLiteral("Import every message into this queue, which must exist "
                                  "(default: each queue of the file into its own, created when "
                                  "missing)."),
        QStringLiteral("name"));
    const QCommandLineOption output(
        QStringLiteral("output"), QStringLiteral("Write to this file (default: standard output)."),
        QStringLiteral("file"));
    const QCommandLineOption message(QStringLiteral("message"),
                                     QStringLiteral("Export only this message id (repeatable)."),
                                     QStringLiteral("id"));
    const QCommandLineOption regenerate(
        QStringLiteral("regenerate-ids"),
        QStringLiteral("New FIFO deduplication ids (and group \"imported\" where none)."));
    parser.addOption(workspace);
    parser.addOption(queue);
    if (isExport) {
        parser.addOption(output);
        parser.addOption(message);
    } else {
        parser.addOption(regenerate);
        parser.addPositionalArgument(
            QStringLiteral("file"),
            QStringLiteral("The JSON file to import (- for standard input)."));
    }
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    if (!parser.isSet(workspace) || (!isExport && args.size() != 2)
        || (isExport && args.size() != 1)) {
        std::fprintf(stderr, "inflight: usage: %s\n",
                     isExport
                         ? "inflight export --workspace FILE [--queue NAME]... [--output F]"
                         : "inflight import --workspace FILE [--queue NAME] [--regenerate-ids] "
                           "FILE.json");
        return 2;
    }
    auto opened = workspace::WorkspaceSession::open(parser.value(workspace),
                                                    isExport ? store::OpenMode::OpenExisting
                                                             : store::OpenMode::OpenOrCreate);
    if (!opened) {
        std::fprintf(stderr, "inflight: %s\n", opened.error().message.c_str());
        return 3;
    }
    session::Session& session = (*opened)->session();
    if (isExport) {
        store::ExportRequest request;
        for (const QString& name : parser.values(queue))
            request.queues.push_back(name.toStdString());
        for (const QString& id : parser.values(message))
            request.messageIds.push_back(id.toStdString());
        if (!parser.isSet(output)) {
            const auto text = store::exportQueues(session.broker(), request);
            if (!text) {
                std::fprintf(stderr, "inflight: %s\n", text.error().message.c_str());
                return 1;
            }
            std::fwrite(text->data(), 1, text->size(), stdout);
            return std::fflush(stdout) == 0 ? 0 : 1;
        }
        if (auto written = workspace::exportToFile(session.broker(), request, parser.value(output));
            !written) {
            std::fprintf(stderr, "inflight: %s\n", written.error().message.c_str());
            return 1;
        }
        return 0;
    }
    store::ImportRequest request;
    request.intoQueue = parser.value(queue).toStdString();
    request.regenerateIds = parser.isSet(regenerate);
    request.origin = "command line";
    const auto imported = workspace::importFromFile(session.broker(), args.at(1), request);
    if (!imported) {
        std::fprintf(stderr, "inflight: %s\n", imported.error().message.c_str());
        return 1;
    }
    session.advanceNow();
    if (!waitDurable(session)) {
        std::fprintf(stderr, "inflight: not stored: %s\n", qPrintable(session.persistenceError()));
        return 3;
    }
    for (const std::string& refused : imported->refused)
        std::fprintf(stderr, "inflight: refused: %s\n", refused.c_str());
    std::printf("Imported %lld messages (%lld queues created)\n",
                static_cast<long long>(imported->messages),
                static_cast<long long>(imported->queuesCreated));
    return imported->refused.empty() ? 0 : 1;
}

} // namespace inflight::app
