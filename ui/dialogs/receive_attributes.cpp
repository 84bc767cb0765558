#include "ui/dialogs/receive_attributes.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSettings>

namespace inflight::ui {

namespace {

const QString kSystemKey = QStringLiteral("receive/systemAttributes");
const QString kMessagesKey = QStringLiteral("receive/messageAttributes");
const QString kMessageNamesKey = QStringLiteral("receive/messageAttributeNames");
const QString kAll = QStringLiteral("All");

QString tr(const char* text)
{
    return QCoreApplication::translate("inflight::ui::ReceiveAttributeChoice", text);
}

QString messagesKey(ReceiveAttributeChoice::Messages messages)
{
    switch (messages) {
    case ReceiveAttributeChoice::Messages::All: return QStringLiteral("all");
    case ReceiveAttributeChoice::Messages::None: return QStringLiteral("none");
    case ReceiveAttributeChoice::Messages::Names: return QStringLiteral("names");
    }
    return QStringLiteral("all");
}

// A message attribute name as SQS accepts it (letters, digits, '_', '-', '.'; no leading or
// trailing '.', no "..", at most 256 characters), optionally followed by ".*" to take every name
// with that prefix; or "All", "*" or ".*" for every name.
bool isValidNameOrPattern(const QString& name)
{
    if (name == kAll || name == QStringLiteral("*") || name == QStringLiteral(".*"))
        return true;
    static const QRegularExpression pattern(
        QStringLiteral("^(?!\\.)(?!.*\\.\\.)[A-Za-z0-9_.\\-]{1,256}(?<!\\.)(\\.\\*)?$"));
    return pattern.match(name).hasMatch();
}

} // namespace

ReceiveAttributeChoice ReceiveAttributeChoice::load()
{
    QSettings settings;
    ReceiveAttributeChoice choice;
    if (settings.contains(kSystemKey)) {
        const QString system = settings.value(kSystemKey).toString();
        choice.allSystem = system == kAll;
        if (!choice.allSystem)
            choice.systemNames = splitAttributeNames(system);
    }
    const QString messages = settings.value(kMessagesKey).toString();
    for (const Messages m : {Messages::All, Messages::None, Messages::Names})
        if (messages == messagesKey(m))
            choice.messages = m;
    choice.messageNamesText = settings.value(kMessageNamesKey).toString();
    return choice;
}

void ReceiveAttributeChoice::save() const
{
    QSettings settings;
    settings.setValue(kSystemKey, allSystem ? kAll : systemNames.join(QStringLiteral(", ")));
    settings.setValue(kMessagesKey, messagesKey(messages));
    settings.setValue(kMessageNamesKey, messageNamesText);
}

std::vector<std::string> ReceiveAttributeChoice::systemAttributeNames() const
{
    if (allSystem)
        return {kAll.toStdString()};
    std::vector<std::string> names;
    for (const QString& name : systemNames)
        names.push_back(name.toStdString());
    return names;
}

std::optional<std::vector<std::string>> ReceiveAttributeChoice::messageAttributeNames(
    QString* error) const
{
    switch (messages) {
    case Messages::All: return std::vector<std::string>{kAll.toStdString()};
    case Messages::None: return std::vector<std::string>{};
    case Messages::Names: break;
    }
    const QStringList names = splitAttributeNames(messageNamesText);
    if (names.isEmpty()) {
        if (error)
            *error = tr("Name the message attributes to receive (customer, trace.*), or choose "
                        "All or None.");
        return std::nullopt;
    }
    std::vector<std::string> out;
    for (const QString& name : names) {
        if (!isValidNameOrPattern(name)) {
            if (error)
                *error = tr("\u201c%1\u201d is not a message attribute name: use letters, "
                            "digits, _, - and . (not at either end, never two in a row), or a "
                            "prefix followed by .* (trace.*).")
                             .arg(name);
            return std::nullopt;
        }
        out.push_back(name.toStdString());
    }
    return out;
}

QStringList systemAttributeNamesFor(engine::QueueKind kind)
{
    if (kind == engine::QueueKind::Oci)
        return {};
    QStringList names{QStringLiteral("ApproximateFirstReceiveTimestamp"),
                      QStringLiteral("ApproximateReceiveCount"),
                      QStringLiteral("SenderId"),
                      QStringLiteral("SentTimestamp"),
                      QStringLiteral("AWSTraceHeader"),
                      QStringLiteral("DeadLetterQueueSourceArn"),
                      QStringLiteral("MessageGroupId")};
    if (kind == engine::QueueKind::Fifo)
        names << QStringLiteral("MessageDeduplicationId") << QStringLiteral("SequenceNumber");
    return names;
}

QStringList splitAttributeNames(const QString& text)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    return text.split(separators, Qt::SkipEmptyParts);
}

} // namespace inflight::ui
