#pragma once

#include "engine/types.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace inflight::ui {

// What a receive asks back besides the body, as SQS's ReceiveMessage does: system attributes
// (AttributeNames / MessageSystemAttributeNames: "All" or single names) and message attributes
// (MessageAttributeNames: "All", none, or exact names and "prefix.*" patterns). The receive
// dialog offers it and remembers it in QSettings ("receive/systemAttributes",
// "receive/messageAttributes", "receive/messageAttributeNames"); the default is All and All.
struct ReceiveAttributeChoice {
    enum class Messages { All, None, Names };

    bool allSystem = true;
    QStringList systemNames; // when !allSystem: these (none if empty)
    Messages messages = Messages::All;
    QString messageNamesText; // Names: "customer, trace.*" (commas or spaces between names)

    static ReceiveAttributeChoice load();
    void save() const;

    // For ReceiveRequest::systemAttributeNames: {"All"}, or the names.
    std::vector<std::string> systemAttributeNames() const;
    // For ReceiveRequest::messageAttributeNames: {"All"}, {} or the names as written; nullopt
    // with `error` set when Names holds no name or one that SQS would not accept.
    std::optional<std::vector<std::string>> messageAttributeNames(QString* error) const;
};

// The system attributes a receive from a queue of `kind` can return, in the order the dialog
// lists them (the FIFO ones only for FIFO queues). OCI receives choose none: GetMessages returns
// what it returns.
QStringList systemAttributeNamesFor(engine::QueueKind kind);

// The names in "customer, trace.*" (split at commas and white space).
QStringList splitAttributeNames(const QString& text);

} // namespace inflight::ui
