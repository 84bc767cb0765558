#pragma once

#include <cassert>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace inflight::engine {

// The service's own error names. The protocol layer maps each to its wire form (Query code, JSON
// shape, HTTP status); the window shows errorCodeName() and the message.
enum class ErrorCode {
    QueueDoesNotExist,
    QueueNameExists,
    QueueDeletedRecently,
    PurgeQueueInProgress,
    OverLimit,
    MessageNotInflight,
    ReceiptHandleIsInvalid,
    InvalidIdFormat,
    InvalidMessageContents,
    InvalidAttributeName,
    InvalidAttributeValue,
    TooManyEntriesInBatchRequest,
    EmptyBatchRequest,
    BatchEntryIdsNotDistinct,
    InvalidBatchEntryId,
    BatchRequestTooLong,
    UnsupportedOperation,
    ResourceNotFound,
    InvalidParameterValue,
    MissingParameter,
};

// The short name a user knows the error by: the Query protocol's code without the
// `AWS.SimpleQueueService.` prefix (e.g. "InvalidParameterValue", "QueueDoesNotExist").
std::string_view errorCodeName(ErrorCode code);

// One error type for the whole engine: a stable code, the message the real service gives, and
// the parameter it concerns (empty when none).
struct Error {
    ErrorCode code;
    std::string message;
    std::string parameter;

    friend bool operator==(const Error&, const Error&) = default;
};

// "InvalidParameterValue: Value 11 for parameter MaxNumberOfMessages is invalid. ..."
std::string describe(const Error& error);

// Either a value or an Error. Engine calls never throw for bad input. The one error shape of the
// codebase: the layers above the engine use it with their own error type as E (a workspace's
// store::StoreError, the window's sentence for the user).
template <class T, class E = Error>
class [[nodiscard]] Result {
public:
    Result(T value) : m_state(std::move(value)) {}
    Result(E error) : m_state(std::move(error)) {}

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() &
    {
        assert(ok());
        return std::get<0>(m_state);
    }
    const T& value() const&
    {
        assert(ok());
        return std::get<0>(m_state);
    }
    T&& value() &&
    {
        assert(ok());
        return std::get<0>(std::move(m_state));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }

    const E& error() const
    {
        assert(!ok());
        return std::get<1>(m_state);
    }

private:
    std::variant<T, E> m_state;
};

struct Done {
    friend bool operator==(Done, Done) = default;
};
using Status = Result<Done>;

inline Error makeError(ErrorCode code, std::string message, std::string parameter = {})
{
    return Error{code, std::move(message), std::move(parameter)};
}

// How much of a client's value an error message may quote: a message never grows with the
// request that caused it.
inline constexpr std::size_t kMaxExcerptBytes = 1'024;

// `value` whole when it has at most kMaxExcerptBytes bytes; else its longest prefix of whole
// UTF-8 characters within that, followed by "...".
std::string excerpt(std::string_view value);

} // namespace inflight::engine
