#pragma once

#include "engine/clock.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// An in-flight message as the window acts on it: the receipt comes from peek
// (MessageView::receiptHandle), so acting never needs a receive of its own.
struct InFlightMessage {
    QString messageId;
    std::string receiptHandle;
    engine::Millis visibleAt = 0;
};

// How to change the visibility of in-flight messages. ChangeMessageVisibility counts the new
// timeout from now, so "extend by" asks for the time each receipt still holds plus `seconds`.
struct VisibilityChange {
    enum class Mode { ExtendBy, SetTo };
    Mode mode = Mode::SetTo;
    std::int64_t seconds = 0;

    static VisibilityChange extendBy(std::int64_t s) { return {Mode::ExtendBy, s}; }
    static VisibilityChange setTo(std::int64_t s) { return {Mode::SetTo, s}; }
    static VisibilityChange release() { return {Mode::SetTo, 0}; }
    // The VisibilityTimeout to ask for a message in flight until `visibleAt`, at `now`.
    std::int64_t timeoutFor(engine::Millis visibleAt, engine::Millis now) const;
};

// What a window action on several messages did: how many succeeded and, for each failure, the
// message id and the service's error ("<id>: InvalidParameterValue: …").
struct ActionOutcome {
    int succeeded = 0;
    QStringList errors;
    QStringList failedIds;
    bool ok() const { return errors.isEmpty(); }
    void fail(const QString& messageId, const QString& error)
    {
        failedIds << messageId;
        errors << QStringLiteral("%1: %2").arg(messageId, error);
    }
};

// Changes the visibility of each message in turn, with the origin "window".
ActionOutcome changeVisibility(session::Session& session, const QString& queue,
                               const std::vector<InFlightMessage>& messages,
                               VisibilityChange change);
// Deletes each message by its receipt, with the origin "window".
ActionOutcome deleteMessages(session::Session& session, const QString& queue,
                             const std::vector<InFlightMessage>& messages);

} // namespace inflight::ui
