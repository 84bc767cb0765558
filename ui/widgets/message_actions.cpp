#include "ui/widgets/message_actions.h"

#include "session/session.h"
#include "ui/widgets/engine_text.h"

namespace inflight::ui {

std::int64_t VisibilityChange::timeoutFor(engine::Millis visibleAt, engine::Millis now) const
{
    return mode == Mode::ExtendBy ? seconds + secondsUntil(visibleAt, now) : seconds;
}

ActionOutcome changeVisibility(session::Session& session, const QString& queue,
                               const std::vector<InFlightMessage>& messages,
                               VisibilityChange change)
{
    ActionOutcome outcome;
    const std::string name = toStdString(queue);
    for (const InFlightMessage& message : messages) {
        const std::int64_t timeout = change.timeoutFor(message.visibleAt, session.now());
        auto result = session.broker().changeMessageVisibility(name, message.receiptHandle, timeout,
                                                               windowOrigin());
        if (result)
            ++outcome.succeeded;
        else
            outcome.fail(message.messageId, describeError(result.error()));
    }
    return outcome;
}

ActionOutcome deleteMessages(session::Session& session, const QString& queue,
                             const std::vector<InFlightMessage>& messages)
{
    ActionOutcome outcome;
    const std::string name = toStdString(queue);
    for (const InFlightMessage& message : messages) {
        auto status = session.broker().deleteMessage(name, message.receiptHandle, windowOrigin());
        if (status)
            ++outcome.succeeded;
        else
            outcome.fail(message.messageId, describeError(status.error()));
    }
    return outcome;
}

} // namespace inflight::ui
