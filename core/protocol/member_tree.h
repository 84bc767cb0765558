#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace inflight::protocol {

// An SQS request's input members, as the codecs read them (sqs_request.h): one block of nodes
// and the text they hold, instead of a map node and a string per member. The JSON codec builds
// it from simdjson's document, the Query codec from the form's parameters.
//
// Node 0 is the root. An array's or object's children are one run of nodes; an object's are in
// key order with one member per key (the last given wins), as std::map keeps them, so every
// reader sees the members in the order and with the values the member tree they replace had.
// Text lives in blocks of the tree's own, which never move: views stay valid while the tree
// lives.
class MemberTree {
public:
    enum class Kind : std::uint8_t {
        Null,
        Boolean,
        Integer,
        Unsigned,
        Float,
        String,
        Array,
        Object
    };

    struct Node {
        std::string_view key;  // an object's member: its name
        std::string_view text; // String
        union {                // the one `kind` names
            std::int64_t integer = 0;
            std::uint64_t unsignedInteger;
            double real;
            bool boolean;
        };
        std::uint32_t first = 0; // Array, Object: the first child
        std::uint32_t count = 0; // Array, Object: how many children
        Kind kind = Kind::Null;
    };

    // A tree of one null node. `textBytes`: about how much text it will hold (the first block's
    // size; more blocks are added if it holds more).
    explicit MemberTree(std::size_t textBytes = 0);
    MemberTree(MemberTree&&) noexcept = default;
    MemberTree& operator=(MemberTree&&) noexcept = default;

    const Node& root() const { return m_nodes.front(); }
    const Node& node(std::uint32_t index) const { return m_nodes[index]; }
    std::span<const Node> children(const Node& parent) const
    {
        return {m_nodes.data() + parent.first, parent.count};
    }
    // An object's member by name; nullptr when the node is not an object or has no such member.
    const Node* find(const Node& object, std::string_view key) const;

    // The same members as nlohmann::json (integers stay integers), for code that shows a request
    // whole.
    nlohmann::json toJson(const Node& node) const;

    // ---- building ----
    Node& node(std::uint32_t index) { return m_nodes[index]; }
    // Makes `parent` an array or object of `count` children (null nodes for now) and returns the
    // index of the first. Indexes stay valid as the tree grows; references to nodes do not.
    std::uint32_t addChildren(std::uint32_t parent, Kind kind, std::uint32_t count);
    // A copy of the text in the tree's own storage.
    std::string_view keep(std::string_view text);
    // Room for `bytes` bytes of text in the tree's storage, for the caller to write into (a
    // decoder), then used() with what it wrote; views of the written text stay valid as for
    // keep().
    char* room(std::size_t bytes);
    void used(std::size_t bytes);
    // Puts an object's members in key order, keeping the last of each name (its member count can
    // drop). Call once its members have their keys.
    void orderMembers(std::uint32_t object);

private:
    std::vector<Node> m_nodes;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    char* m_free = nullptr;
    std::size_t m_room = 0;
    std::size_t m_nextBlock;
};

} // namespace inflight::protocol
