#include "protocol/access_key.h"

#include <QByteArrayView>

namespace inflight::protocol {

QByteArray accessKeyId(const QByteArray& authorization, const QByteArray& query)
{
    if (!authorization.isEmpty()) {
        static constexpr QByteArrayView kCredential("Credential=");
        const qsizetype at = authorization.indexOf(kCredential);
        if (at < 0)
            return {};
        const qsizetype from = at + kCredential.size();
        const qsizetype slash = authorization.indexOf('/', from);
        const qsizetype end = slash < 0 ? authorization.indexOf(',', from) : slash;
        return authorization.mid(from, end < 0 ? -1 : end - from).trimmed();
    }
    static constexpr QByteArrayView kPresigned("x-amz-credential=");
    QByteArrayView rest(query);
    while (!rest.isEmpty()) {
        const qsizetype amp = rest.indexOf('&');
        const QByteArrayView pair = amp < 0 ? rest : rest.first(amp);
        rest = amp < 0 ? QByteArrayView() : rest.sliced(amp + 1);
        if (pair.size() > kPresigned.size()
            && pair.first(kPresigned.size()).compare(kPresigned, Qt::CaseInsensitive) == 0) {
            const QByteArray scope
                = QByteArray::fromPercentEncoding(pair.sliced(kPresigned.size()).toByteArray());
            return scope.left(scope.indexOf('/'));
        }
    }
    return {};
}

QByteArray accessKeyId(const HttpRequest& request)
{
    return accessKeyId(request.header(QByteArrayLiteral("Authorization")), request.query);
}

} // namespace inflight::protocol
