// InlineText: the message id and receipt an event carries without a heap string.
#include "engine/events.h"
#include "engine/inline_text.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace inflight::engine;

TEST(InlineText, holdsTextUpToItsCapacityAndReadsAsAStringView)
{
    InlineText<8> text;
    EXPECT_TRUE(text.empty());
    EXPECT_EQ(text.view(), "");
    text = std::string("abc");
    EXPECT_FALSE(text.empty());
    EXPECT_EQ(text.size(), 3u);
    EXPECT_EQ(text, "abc");
    EXPECT_EQ(text.str(), std::string("abc"));
    text = "12345678";
    EXPECT_EQ(text, std::string_view("12345678"));
    text.clear();
    EXPECT_TRUE(text.empty());
}

TEST(InlineText, comparesConcatenatesAndPrintsLikeText)
{
    const MessageIdText a = formatMessageIdText(1, 2);
    const MessageIdText b = formatMessageIdText(1, 2);
    EXPECT_EQ(a, b);
    EXPECT_EQ(a.str(), formatMessageId(1, 2));
    EXPECT_NE(a, formatMessageIdText(1, 3));
    EXPECT_EQ(std::string("id ") + a, "id " + formatMessageId(1, 2));
    std::ostringstream out;
    out << a;
    EXPECT_EQ(out.str(), formatMessageId(1, 2));
}

TEST(InlineText, theReceiptTextIsTheReceiptString)
{
    const ReceiptToken token{3, 4, 5, 6};
    const ReceiptText text = encodeReceiptText(token, 99, 7);
    EXPECT_EQ(text.size(), kReceiptLength);
    EXPECT_EQ(text.str(), encodeReceipt(token, 99, 7));
    EXPECT_EQ(decodeReceipt(text, 99), token);
}

// An event is copied and moved with its texts (nothing shared, nothing left behind to free).
TEST(InlineText, eventsCopyTheirTextsWithThem)
{
    std::vector<Event> events(1);
    events[0].messageId = formatMessageIdText(10, 20);
    events[0].receipt = encodeReceiptText({1, 2, 3, 4}, 5, 6);
    const Event copy = events[0];
    events.resize(1000); // moves the first
    events[0].messageId.clear();
    EXPECT_EQ(copy.messageId, formatMessageId(10, 20));
    EXPECT_EQ(copy.receipt, encodeReceipt({1, 2, 3, 4}, 5, 6));
    EXPECT_TRUE(events[0].messageId.empty());
    EXPECT_EQ(events[0].receipt, copy.receipt);
    EXPECT_TRUE(events[999].messageId.empty());
}
