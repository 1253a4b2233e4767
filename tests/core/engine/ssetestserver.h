#pragma once
// A small real HTTP/1.1 SSE server on 127.0.0.1 for engine tests (QTcpServer, chunked keep-alive responses).
// Behaviour per request from the X-Test-Mode header: "ok" (default), "status500", "disconnect" (close after
// 2 tokens), "stall" (stop after 2 tokens, keep the socket open), "malformed", "errorevent", "slowfirst"
// (first token after 3 s), "closeeach" (Connection: close). Tokens: X-Test-Tokens (default 8), interval
// X-Test-Interval-Ms (default 2). Lives in the test's main thread; records every request it saw.

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <memory>

class SseTestServer : public QObject
{
public:
    struct Seen {
        QByteArray method, path, body;
        QHash<QByteArray, QByteArray> headers; // lower-case names
        QByteArray peerAddress;
    };

    SseTestServer()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                ++m_connections;
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onRead(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    quint16 listen()
    {
        m_server.listen(QHostAddress::Any, 0);
        return m_server.serverPort();
    }
    QList<Seen> seen;
    int connections() const { return m_connections; }

private:
    void onRead(QTcpSocket *s)
    {
        QByteArray &buf = m_buffers[s];
        buf += s->readAll();
        for (;;) {
            const int hdrEnd = buf.indexOf("\r\n\r\n");
            if (hdrEnd < 0)
                return;
            Seen req;
            const QList<QByteArray> lines = buf.left(hdrEnd).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            req.method = first.value(0);
            req.path = first.value(1);
            for (int i = 1; i < lines.size(); ++i) {
                const int c = lines[i].indexOf(':');
                if (c > 0)
                    req.headers.insert(lines[i].left(c).trimmed().toLower(), lines[i].mid(c + 1).trimmed());
            }
            const int len = req.headers.value("content-length", "0").toInt();
            if (buf.size() < hdrEnd + 4 + len)
                return;
            req.body = buf.mid(hdrEnd + 4, len);
            req.peerAddress = s->peerAddress().toString().toLatin1();
            buf.remove(0, hdrEnd + 4 + len);
            seen.append(req);
            respond(s, req);
        }
    }

    static QByteArray chunk(const QByteArray &d)
    {
        return QByteArray::number(d.size(), 16) + "\r\n" + d + "\r\n";
    }

    void respond(QTcpSocket *s, const Seen &req)
    {
        const QByteArray mode = req.headers.value("x-test-mode", "ok");
        const int tokens = req.headers.value("x-test-tokens", "8").toInt();
        const int interval = req.headers.value("x-test-interval-ms", "2").toInt();
        if (mode == "status500") {
            const QByteArray body = "{\"error\":\"overloaded; Authorization: Bearer " +
                                    req.headers.value("authorization").mid(7) + "\"}";
            s->write(
                "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: " +
                QByteArray::number(body.size()) + "\r\n\r\n" + body);
            return;
        }
        const bool close = mode == "closeeach";
        s->write(QByteArray(
                     "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n") +
                 (close ? "Connection: close\r\n" : "") + "\r\n");
        auto state = std::make_shared<int>(0);
        auto *timer = new QTimer(s);
        timer->setInterval(interval);
        const int firstDelay = mode == "slowfirst" ? 3000 : interval;
        QTimer::singleShot(firstDelay, s, [timer] { timer->start(); });
        connect(timer, &QTimer::timeout, s, [=] {
            int &i = *state;
            if ((mode == "disconnect") && i == 2) {
                timer->stop();
                s->abort();
                return;
            }
            if (mode == "stall" && i == 2) {
                timer->stop();
                return;
            }
            if (mode == "malformed" && i == 1) {
                s->write(chunk("data: {\"choices\":[{\"delta\":{\"content\":\"x\"}\n\n"));
            } else if (mode == "errorevent" && i == 1) {
                s->write(chunk("data: {\"error\":{\"message\":\"engine failure\"}}\n\n"));
            } else if (i < tokens) {
                // Two events per chunk sometimes, and a split event, to exercise reassembly over TCP.
                s->write(chunk("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"t" +
                               QByteArray::number(i) + "\"}}]}\n\n"));
            }
            ++i;
            if (i >= tokens || ((mode == "malformed" || mode == "errorevent") && i > 1)) {
                timer->stop();
                s->write(chunk("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":" +
                               QByteArray::number(std::min(i, tokens)) + "}}\n\n"));
                s->write(chunk("data: [DONE]\n\n"));
                s->write("0\r\n\r\n");
                if (close)
                    s->disconnectFromHost();
                timer->deleteLater();
            }
        });
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    int m_connections = 0;
};
