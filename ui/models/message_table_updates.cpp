// How a message table's rows follow its source: the engine's event batches (sends insert,
// receives and visibility changes update, deletes and moves remove, a purge resets), a merge with
// a fresh peek, and — where the source cannot peek — the messages the window itself holds.

#include "ui/models/message_table_model.h"

#include "ui/models/model_text.h"
#include "ui/models/row_runs.h"
#include "ui/source/queue_source.h"

#include <algorithm>

namespace inflight::ui {

void MessageTableModel::refresh()
{
    if (m_queueName.empty())
        return;
    if (!m_source.has(QueueSource::Feature::PeekEveryMessage))
        return; // the rows are the messages held (hold)
    const QueueSource::Messages views = m_source.peekAll(m_queue);
    m_now = m_source.now();
    // Both lists are in sequence order: drop the rows that are gone, update the others, insert the
    // new ones where they belong.
    std::vector<std::uint64_t> gone;
    std::size_t v = 0;
    for (const RowPtr& row : m_rows) {
        while (v < views.size() && views[v].key.sequence < row->key.sequence)
            ++v;
        if (v == views.size() || views[v].key.sequence != row->key.sequence)
            gone.push_back(row->key.sequence);
    }
    removeSequences(std::move(gone));
    std::vector<RowPtr> added;
    std::size_t r = 0;
    for (const engine::MessageView& view : views) {
        if (isPending(view.key.sequence))
            continue; // its turn lists it
        if (r < m_rows.size() && m_rows[r]->key.sequence == view.key.sequence) {
            countTimed(*m_rows[r], -1);
            assign(*m_rows[r], view);
            countTimed(*m_rows[r], +1);
            ++r;
        } else {
            added.push_back(makeRow(view));
        }
    }
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    insertRows(std::move(added));
}

// ---- events --------------------------------------------------------------------------------------

void MessageTableModel::onEvents(const std::vector<engine::Event>& events)
{
    if (m_queueName.empty())
        return;
    using engine::EventKind;
    bool reload = false;
    bool deleted = false;
    std::vector<engine::MessageKey> touched;
    std::vector<std::uint64_t> removed;
    for (const engine::Event& e : events) {
        if (e.queue != m_queueName) {
            // Moved here (a DLQ, a task's destination): the event has its key here.
            if (engine::isMove(e.kind) && e.detail == m_queueName)
                touched.push_back(e.relatedKey);
            continue;
        }
        // Not listed yet: the turn that lists it reads it as it is then.
        if (e.key.sequence != 0 && isPending(e.key.sequence))
            continue;
        switch (e.kind) {
        case EventKind::QueueCreated:
        case EventKind::QueueChanged:
        case EventKind::QueuePurged:
            reload = true;
            deleted = false;
            break;
        case EventKind::QueueDeleted:
            deleted = true;
            reload = false;
            break;
        case EventKind::MessageSent: touched.push_back(e.key); break;
        case EventKind::DelayEnded:
        case EventKind::MessageReceived:
        case EventKind::VisibilityChanged:
        case EventKind::MessageReleased:
        case EventKind::VisibilityExpired: touched.push_back(e.key); break;
        case EventKind::MessageDeleted:
        case EventKind::MovedToDeadLetterQueue:
        case EventKind::MovedByTask:
        case EventKind::RetentionExpired: removed.push_back(e.key.sequence); break;
        case EventKind::MessageDeduplicated:
        case EventKind::MoveTaskProgress: break;
        }
    }
    m_now = m_source.now();
    if (m_fifo && !m_blockedTimer.isActive())
        m_blockedTimer.start();
    if (deleted) {
        clearRows();
        return;
    }
    if (reload) {
        // A purge empties the queue: start afresh. A change of attributes (redrive policy, FIFO
        // delay) can change any row: merge, so that selections survive.
        bool purged = std::any_of(events.begin(), events.end(), [this](const engine::Event& e) {
            return e.queue == m_queueName && e.kind == EventKind::QueuePurged;
        });
        if (purged)
            setQueue(m_queue);
        else
            refresh();
        return;
    }

    // Sequences are never reused: a removed message does not come back, whatever came before.
    std::sort(removed.begin(), removed.end());
    removed.erase(std::unique(removed.begin(), removed.end()), removed.end());
    removeSequences(removed);

    std::sort(touched.begin(), touched.end(),
              [](const auto& a, const auto& b) { return a.sequence < b.sequence; });
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());

    int first = rowCount();
    int last = -1;
    std::vector<RowPtr> added;
    auto apply = [&](const engine::MessageView& view) {
        const int r = rowOfKey(view.key);
        if (r < 0) {
            added.push_back(makeRow(view));
            return;
        }
        Row& row = *m_rows[static_cast<std::size_t>(r)];
        countTimed(row, -1);
        assign(row, view);
        countTimed(row, +1);
        first = std::min(first, r);
        last = std::max(last, r);
    };
    for (const engine::MessageKey& key : touched) {
        if (std::binary_search(removed.begin(), removed.end(), key.sequence))
            continue;
        // Gone already (a later batch will say so): nothing to show.
        auto view = m_source.peek(m_queue, key);
        if (view)
            apply(*view);
    }
    if (last >= first)
        Q_EMIT dataChanged(index(first, 0), index(last, ColumnCount - 1));
    std::sort(added.begin(), added.end(),
              [](const RowPtr& a, const RowPtr& b) { return a->key.sequence < b->key.sequence; });
    insertRows(std::move(added));
}

void MessageTableModel::removeSequences(std::vector<std::uint64_t> sequences)
{
    std::vector<int> rows;
    rows.reserve(sequences.size());
    for (std::uint64_t sequence : sequences) {
        const std::size_t i = lowerBound(sequence);
        if (i < m_rows.size() && m_rows[i]->key.sequence == sequence)
            rows.push_back(static_cast<int>(i));
    }
    std::sort(rows.begin(), rows.end());
    forEachRunDescending(rows, [this](int first, int last) {
        beginRemoveRows({}, first, last);
        for (int r = first; r <= last; ++r)
            countTimed(*m_rows[static_cast<std::size_t>(r)], -1);
        m_rows.erase(m_rows.begin() + first, m_rows.begin() + last + 1);
        endRemoveRows();
    });
}

void MessageTableModel::insertRows(std::vector<RowPtr> rows)
{
    // New messages have the highest sequences, so this is normally one block at the end.
    std::size_t i = 0;
    while (i < rows.size()) {
        const std::size_t at = lowerBound(rows[i]->key.sequence);
        std::size_t j = i + 1;
        const std::uint64_t bound = at < m_rows.size() ? m_rows[at]->key.sequence : UINT64_MAX;
        while (j < rows.size() && rows[j]->key.sequence < bound)
            ++j;
        const int first = static_cast<int>(at);
        beginInsertRows({}, first, first + static_cast<int>(j - i) - 1);
        for (std::size_t k = i; k < j; ++k)
            countTimed(*rows[k], +1);
        m_rows.insert(m_rows.begin() + static_cast<std::ptrdiff_t>(at),
                      std::make_move_iterator(rows.begin() + static_cast<std::ptrdiff_t>(i)),
                      std::make_move_iterator(rows.begin() + static_cast<std::ptrdiff_t>(j)));
        endInsertRows();
        i = j;
    }
}

// ---- messages held (a source without peek) --------------------------------------------------

void MessageTableModel::hold(const std::vector<engine::MessageView>& received)
{
    m_now = m_source.now();
    std::vector<RowPtr> added;
    for (const engine::MessageView& view : received) {
        const int r = rowOfMessageId(toQString(view.messageId));
        if (r >= 0) {
            Row& row = *m_rows[static_cast<std::size_t>(r)];
            engine::MessageView again = view;
            again.key = row.key;
            countTimed(row, -1);
            assign(row, again);
            countTimed(row, +1);
            Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1));
            continue;
        }
        // A remote message has no sequence here: the order the window received them in.
        engine::MessageView held = view;
        held.key.sequence = ++m_heldSequence;
        added.push_back(makeRow(held));
    }
    insertRows(std::move(added));
}

void MessageTableModel::forget(const QStringList& messageIds)
{
    std::vector<std::uint64_t> sequences;
    for (const QString& id : messageIds)
        if (const int r = rowOfMessageId(id); r >= 0)
            sequences.push_back(m_rows[static_cast<std::size_t>(r)]->key.sequence);
    std::sort(sequences.begin(), sequences.end());
    removeSequences(std::move(sequences));
}

} // namespace inflight::ui
