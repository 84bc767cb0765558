#pragma once

#include "engine/error.h"
#include "protocol/member_tree.h"

#include <memory>
#include <string_view>

namespace inflight::protocol {

// The Query protocol's flattened parameters (spec §2.3) read into the member tree the JSON codec
// also makes (member_tree.h), keyed by the JSON member names: `Attribute.1.Name=VisibilityTimeout`
// and `Attribute.1.Value=45` become `Attributes: {VisibilityTimeout: "45"}`. Scalars stay strings.
struct QueryParameters {
    // The Action parameter (the last given), a view of the tree's text; empty when none.
    std::string_view action;
    std::shared_ptr<const MemberTree> tree; // its root is an object; text of the tree's own
};

// Why the parameters cannot be read. The Query codec answers each with one MalformedQueryString.
enum class QueryFault {
    NotUtf8,      // a name or value is not UTF-8 once percent-decoded
    TooManyParts, // a name has more than kMaxNameSegments parts separated by '.'
};

// The most parts a parameter name may have. The deepest name of the API,
// SendMessageBatchRequestEntry.N.MessageAttribute.M.Value.StringListValue.K, has 7; a name of
// 20,000 parts used to overflow the stack while the tree was read.
constexpr int kMaxNameSegments = 16;

// The parameters of the query string and of the form body (empty for a GET), in that order; a
// name given twice keeps its last value.
engine::Result<QueryParameters, QueryFault> readQueryParameters(std::string_view query,
                                                                std::string_view body);

} // namespace inflight::protocol
