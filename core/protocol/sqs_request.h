#pragma once

#include "engine/error.h"
#include "engine/types.h"

#include <QString>

#include "protocol/member_tree.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::protocol {

// One SQS request, whichever protocol carried it: the action name and its input members keyed by
// the AWS JSON member names (`QueueUrl`, `Attributes`, `Entries`, `tags`, …), in a MemberTree
// (member_tree.h). The JSON codec fills it from the body; the Query codec folds its flattened
// parameters into the same tree (§2.3), with scalars left as strings. The accessors accept both
// spellings of a scalar (JSON number or string), so the actions read one model. The JSON codec has
// refused every member of the API whose JSON type does not fit its shape (a
// SerializationException), so what an accessor skips (a map value that is an object, …) can only be
// the Query tree's. Values are the UTF-8 std::strings the engine takes, with no conversion on the
// way.
class SqsRequest {
public:
    using Node = MemberTree::Node;

    SqsRequest() = default;
    // A request without members.
    explicit SqsRequest(QString action);
    // The tree's root is the request's members: an object (anything else counts as none).
    SqsRequest(QString action, std::shared_ptr<const MemberTree> tree);

    const QString& action() const { return m_action; }
    bool has(std::string_view key) const;
    // Every input member as JSON (an object; null for none), for code that shows the request
    // whole. Made on each call.
    nlohmann::json membersJson() const;

    // A scalar as text (a JSON number or boolean in its JSON spelling); nullopt when absent or
    // null, or when the member is an object or array.
    std::optional<std::string> string(std::string_view key) const;
    // A string member as it is, without a copy; nullopt when absent or not a string. Valid while
    // this request (or one sharing its tree) lives.
    std::optional<std::string_view> text(std::string_view key) const;
    // An integer given as a JSON number or a decimal string; nullopt when absent.
    // InvalidParameterValue "Value <v> for parameter <P> is invalid. Reason: Must be an integer."
    engine::Result<std::optional<std::int64_t>> integer(std::string_view key) const;
    // A list of scalars; empty when absent.
    std::vector<std::string> stringList(std::string_view key) const;
    // A map of scalars (Attributes, tags); empty when absent.
    engine::StringMap stringMap(std::string_view key) const;
    // A map of MessageAttributeValue objects (DataType, StringValue, BinaryValue in base64).
    // InvalidParameterValue when a BinaryValue is not base64.
    engine::Result<engine::MessageAttributes> messageAttributes(std::string_view key) const;
    // A list of objects (batch Entries), each as a request of its own (same action). They share
    // this request's members; nothing is copied.
    std::vector<SqsRequest> entries(std::string_view key) const;

    // The error for a parameter the action requires and the request lacks.
    static engine::Error missing(std::string_view parameter);

private:
    SqsRequest(QString action, std::shared_ptr<const MemberTree> tree, const Node* members);
    // The member of that name; nullptr when absent or null.
    const Node* find(std::string_view key) const;

    QString m_action;
    std::shared_ptr<const MemberTree> m_tree; // owns what m_members points into
    const Node* m_members = nullptr;          // an object, or nullptr for no members
};

} // namespace inflight::protocol
