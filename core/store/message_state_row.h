#pragma once

// A message's state as the file holds it: the same columns, in the same order, in `messages` (the
// state a message was written with) and in `message_state` (its state since). One place that names
// them, binds them and reads them, so the two tables cannot drift apart.
#include "engine/snapshot.h"
#include "store/sqlite.h"

namespace inflight::store {

// The state columns, comma-separated, for the SQL that writes or reads them.
inline constexpr const char* kStateColumns
    = "state, deadline, received_at, first_received_at, receive_count, receipt_nonce, "
      "visibility_changes, retention_base, last_receive_origin, return_cause";
inline constexpr int kStateColumnCount = 10;

// Binds m's state to the parameters first .. first + kStateColumnCount - 1 (1-based).
void bindState(Statement& statement, int first, const engine::MessageRecord& m);
// Reads m's state from the columns first .. first + kStateColumnCount - 1 (0-based) of a row.
void readState(const Statement& row, int first, engine::MessageRecord& m);

} // namespace inflight::store
