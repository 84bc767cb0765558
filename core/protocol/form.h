#pragma once

#include "engine/error.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inflight::protocol {

// The name/value pairs of a form, in order.
using FormParameters = QList<QPair<QString, QString>>;
// The same pairs as UTF-8 text, as the Query protocol's member tree holds it (sqs_request.h).
using FormPairs = std::vector<std::pair<std::string, std::string>>;

// Why a form cannot be read: the first of its pairs whose name or value, once percent-decoded, is
// not UTF-8. The callers answer every such form with one message of their protocol; this says
// which pair it was, for a test or a log.
struct FormError {
    enum class Part { Name, Value };
    std::size_t pair = 0; // its place among the form's pairs, from 1 ("&&" holds no pair)
    Part part = Part::Value;
    std::string name; // the pair's name, as engine::excerpt() quotes it, when it is the value
                      // that is not UTF-8
    friend bool operator==(const FormError&, const FormError&) = default;
};

// "the value of MessageBody (pair 2) is not UTF-8 once percent-decoded", "the name of pair 3 is
// not UTF-8 once percent-decoded".
std::string describe(const FormError& error);

template <class T>
using FormResult = engine::Result<T, FormError>;

// The pairs of an application/x-www-form-urlencoded text (a form body or a query string), fully
// decoded, in order: '+' is a space, %XX the byte XX, a '%' without two hex digits after it
// itself, a name without '=' has the empty value. A FormError when a name or value, once decoded,
// is not UTF-8 (a byte that cannot start a character, a sequence cut short, an overlong form, a
// surrogate, a code point past U+10FFFF): such text cannot be stored as sent, so it is refused
// rather than replaced.
FormResult<FormParameters> decodeForm(const QByteArray& encoded);

// The same pairs, appended to `pairs` as UTF-8; a FormError (and `pairs` in an unspecified state)
// when one is not UTF-8, as above.
FormResult<engine::Done> appendFormPairs(const QByteArray& encoded, FormPairs& pairs);

// The same pairs decoded into `out`, which has room for `encoded.size()` bytes (decoded text is
// never longer; the decoder may write anywhere in that room, past the decoded text too), and
// appended to `pairs` as views of it: no string of their own. The bytes of decoded text, or a
// FormError when a name or value is not UTF-8 (as above).
using FormViews = std::vector<std::pair<std::string_view, std::string_view>>;
FormResult<std::size_t> decodeFormInto(std::string_view encoded, char* out, FormViews& pairs);

} // namespace inflight::protocol
