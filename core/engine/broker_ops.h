#pragma once

// The broker's operations that live in their own files (queue-level calls, move tasks). Internal.
#include "broker_state.h"

namespace inflight::engine {

QueueRef refOf(const Queue& q);
Status checkRedriveTarget(BrokerState& s, const QueueConfig& c, const std::string& sourceArn);
Result<QueueRef> createQueueIn(BrokerState& s, const CreateQueueRequest& r, Millis now);
Status deleteQueueIn(BrokerState& s, std::string_view name, Millis now, const Origin& origin);
Result<StringMap> getAttributesIn(BrokerState& s, Queue& q, const std::vector<std::string>& names);
Status setAttributesIn(BrokerState& s, Queue& q, const StringMap& attributes, Millis now,
                       const Origin& origin);
Status purgeIn(BrokerState& s, Queue& q, PurgeTarget target, Millis now, const Origin& origin);
Result<ListQueuesResult> listQueuesIn(BrokerState& s, const ListQueuesRequest& r);
Result<ListQueuesResult> listSourcesIn(BrokerState& s, Queue& dlq, const ListQueuesRequest& page);
Status tagIn(BrokerState& s, Queue& q, const StringMap& tags, Millis now, const Origin& origin);
Status untagIn(BrokerState& s, Queue& q, const std::vector<std::string>& keys, Millis now,
               const Origin& origin);
Status addPermissionIn(BrokerState& s, Queue& q, const std::string& label,
                       const std::vector<std::string>& accounts,
                       const std::vector<std::string>& actions, Millis now, const Origin& origin);
Status removePermissionIn(BrokerState& s, Queue& q, const std::string& label, Millis now,
                          const Origin& origin);

Result<std::string> startMoveTaskIn(BrokerState& s, const StartMoveTaskRequest& r, Millis now);
Result<std::vector<MoveTaskInfo>> listMoveTasksIn(BrokerState& s, std::string_view sourceArn,
                                                  std::optional<std::int64_t> maxResults,
                                                  Millis now);
Result<std::int64_t> cancelMoveTaskIn(BrokerState& s, std::string_view handle, Millis now,
                                      const Origin& origin);

} // namespace inflight::engine
