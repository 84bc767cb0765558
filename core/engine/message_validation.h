#pragma once

#include "engine/error.h"
#include "engine/types.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace inflight::engine {

// Body characters allowed by SQS (§1.3): #x9 #xA #xD #x20–#xD7FF #xE000–#xFFFD #x10000–#x10FFFF,
// in well-formed UTF-8. An empty body is valid here (emptiness is checked separately).
bool isValidMessageText(std::string_view utf8);

// Message attributes (§1.3, §4.1 step 4). At most 10; names ≤256 chars of [A-Za-z0-9_.-] (plus
// any non-ASCII letter, as AWS accepted "attr.1øßä"), not starting with "AWS."/"Amazon." (any
// case), not starting/ending with '.', no ".."; DataType ≤256 chars starting String, Number or
// Binary with an optional ".custom" suffix; values non-empty; String values with forbidden
// characters; Number values up to 38 significant digits within 10^-128..10^126.
// Every failure is InvalidParameterValue with the AWS text where the spec gives one, e.g.
// "Message (user) attribute 'ErrorDetails' must contain a non-empty value of type 'String'.".
Status validateMessageAttributes(const MessageAttributes& attributes);

// System attributes on send: only AWSTraceHeader, of type String, non-empty.
Status validateMessageSystemAttributes(const MessageAttributes& attributes);

// Size accounting (§1.3): UTF-8 body bytes + for each attribute name + DataType + value bytes.
// System attributes do not count.
std::int64_t messageSize(std::string_view body, const MessageAttributes& attributes);

// MessageGroupId / MessageDeduplicationId / ReceiveRequestAttemptId: 1–128 characters of
// [A-Za-z0-9] and ASCII punctuation, no spaces.
bool isValidTokenId(std::string_view id);

// "Value <v> for parameter <P> is invalid. Reason: <P> can only include alphanumeric and
// punctuation characters. 1 to 128 in length."
Error invalidTokenIdError(std::string_view parameter, std::string_view value);

// Batch entry ids: 1–80 characters of [A-Za-z0-9_-].
bool isValidBatchEntryId(std::string_view id);

// The whole-request batch rules of §4.2 in order: EmptyBatchRequest (0 entries),
// TooManyEntriesInBatchRequest ("Maximum number of entries per request are 10. You have sent
// <n>."), InvalidBatchEntryId (the AWS text), BatchEntryIdsNotDistinct.
Status validateBatchEntryIds(const std::vector<std::string_view>& ids, std::size_t maxEntries = 10);

} // namespace inflight::engine
