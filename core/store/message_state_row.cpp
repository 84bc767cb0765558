#include "store/message_state_row.h"

namespace inflight::store {

namespace {

std::int64_t stateColumn(engine::MessageState s)
{
    switch (s) {
    case engine::MessageState::Delayed: return 0;
    case engine::MessageState::Available: return 1;
    case engine::MessageState::InFlight: return 2;
    }
    return 1;
}

engine::MessageState stateFromColumn(std::int64_t v)
{
    return v == 0 ? engine::MessageState::Delayed
                  : (v == 2 ? engine::MessageState::InFlight : engine::MessageState::Available);
}

// 0 none, 1 visibility expired, 2 released (visibility set to 0), 3 moved here as a dead letter.
std::int64_t returnCauseColumn(engine::ReturnCause c)
{
    switch (c) {
    case engine::ReturnCause::None: return 0;
    case engine::ReturnCause::VisibilityExpired: return 1;
    case engine::ReturnCause::Released: return 2;
    case engine::ReturnCause::MovedHere: return 3;
    }
    return 0;
}

engine::ReturnCause returnCauseFromColumn(std::int64_t v)
{
    using C = engine::ReturnCause;
    return v == 1 ? C::VisibilityExpired : v == 2 ? C::Released : v == 3 ? C::MovedHere : C::None;
}

} // namespace

void bindState(Statement& s, int first, const engine::MessageRecord& m)
{
    s.bind(first, stateColumn(m.state))
        .bind(first + 1, m.deadline)
        .bind(first + 2, m.receivedAt)
        .bind(first + 3, m.firstReceivedAt)
        .bind(first + 4, std::int64_t{m.receiveCount})
        .bind(first + 5, std::int64_t{m.receiptNonce})
        .bind(first + 6, std::int64_t{m.visibilityChanges})
        .bind(first + 7, m.retentionBase);
    if (!m.lastReceiveOrigin.empty()) // NULL: unknown
        s.bindText(first + 8, m.lastReceiveOrigin);
    s.bind(first + 9, returnCauseColumn(m.returnCause));
}

void readState(const Statement& row, int first, engine::MessageRecord& m)
{
    m.state = stateFromColumn(row.int64(first));
    m.deadline = row.int64(first + 1);
    m.receivedAt = row.int64(first + 2);
    m.firstReceivedAt = row.int64(first + 3);
    m.receiveCount = static_cast<std::uint32_t>(row.int64(first + 4));
    m.receiptNonce = static_cast<std::uint32_t>(row.int64(first + 5));
    m.visibilityChanges = static_cast<std::uint32_t>(row.int64(first + 6));
    m.retentionBase = row.int64(first + 7);
    m.lastReceiveOrigin = row.string(first + 8); // NULL reads as ""
    m.returnCause = returnCauseFromColumn(row.int64(first + 9));
}

} // namespace inflight::store
