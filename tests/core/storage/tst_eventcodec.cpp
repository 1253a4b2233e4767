#include "core/storage/eventcodec.h"

#include <QTest>

#include <initializer_list>
#include <random>
#include <utility>
#include <vector>

using namespace Throughline;

class TestEventCodec : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void bytesPerDecodeEvent();
    void rejectsMalformed();
    void rawBufferAndContentSpan();
};

void TestEventCodec::roundTrip_data()
{
    QTest::addColumn<qint64>("refNs");
    QTest::addColumn<qint64>("firstNs");
    QTest::addColumn<qint64>("gapNs");
    QTest::addColumn<int>("tokens");
    QTest::newRow("decode 20ms") << qint64(1'000'000) << qint64(51'000'000) << qint64(20'000'000) << -1;
    QTest::newRow("with token counts") << qint64(0) << qint64(7'777) << qint64(3'333'333) << 4;
    QTest::newRow("no reference") << qint64(kNoTime) << qint64(5'000'123'456) << qint64(999) << 1;
    QTest::newRow("huge gap") << qint64(10) << qint64(3'600'000'000'000) << qint64(120'000'000'000) << 100000;
}

void TestEventCodec::roundTrip()
{
    QFETCH(qint64, refNs);
    QFETCH(qint64, firstNs);
    QFETCH(qint64, gapNs);
    QFETCH(int, tokens);
    std::vector<StreamEvent> in;
    std::int64_t t = firstNs;
    for (int i = 0; i < 50; ++i) {
        const auto kind = static_cast<StreamEvent::Kind>(i % 7);
        in.push_back({t, kind, i % 3 == 0 ? -1 : tokens});
        t += gapNs;
    }
    std::string blob;
    EventCodec::encode(in, refNs, blob);
    std::vector<StreamEvent> out;
    QVERIFY(EventCodec::decode(blob.data(), blob.size(), refNs, out));
    QCOMPARE(out.size(), in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        QVERIFY2(std::abs(out[i].tNs - in[i].tNs) < 1000, qPrintable(QString::number(i)));
        QCOMPARE(out[i].tNs, in[i].tNs / 1000 * 1000); // µs floor, no accumulated drift
        QCOMPARE(out[i].kind, in[i].kind);
        QCOMPARE(out[i].tokens, in[i].tokens);
    }
}

void TestEventCodec::bytesPerDecodeEvent()
{
    std::mt19937 rng(1);
    std::uniform_int_distribution<std::int64_t> jitter(-2'000'000, 2'000'000);
    std::vector<StreamEvent> in;
    std::int64_t t = 50'000'000;
    for (int i = 0; i < 1000; ++i) {
        in.push_back({t, StreamEvent::Kind::Content, -1});
        t += 20'000'000 + jitter(rng);
    }
    std::string blob;
    EventCodec::encode(in, 0, blob);
    // 20 ms gaps at µs resolution: 3 bytes per event.
    QVERIFY2(blob.size() <= 1 + 3 * in.size(), qPrintable(QString::number(blob.size())));
}

void TestEventCodec::rejectsMalformed()
{
    std::vector<StreamEvent> out;
    const std::string wrongFormat("\x02\x10", 2);
    QVERIFY(!EventCodec::decode(wrongFormat.data(), wrongFormat.size(), 0, out));
    const std::string truncated("\x01\x90", 2); // varint continuation without its next byte
    QVERIFY(!EventCodec::decode(truncated.data(), truncated.size(), 0, out));
    QVERIFY(!EventCodec::decode("", 0, 0, out));
    const std::string empty("\x01", 1);
    QVERIFY(EventCodec::decode(empty.data(), empty.size(), 0, out));
    QVERIFY(out.empty());
}

void TestEventCodec::rawBufferAndContentSpan()
{
    using K = StreamEvent::Kind;
    std::vector<StreamEvent> in;
    for (auto [t, k] : std::initializer_list<std::pair<std::int64_t, K>>{{1'000'000, K::RoleOnly},
                                                                         {2'500'000, K::Content},
                                                                         {3'000'000, K::Other},
                                                                         {4'200'000, K::Content},
                                                                         {9'000'000, K::Content},
                                                                         {9'500'000, K::Finish},
                                                                         {9'600'000, K::Done}}) {
        StreamEvent e;
        e.tNs = t;
        e.kind = k;
        in.push_back(e);
    }
    std::vector<char> buf(EventCodec::maxEncodedSize(in.size()), 'z');
    EventCodec::ContentSpan span;
    const std::size_t len = EventCodec::encode(in, 0, buf.data(), span);
    QCOMPARE(span.firstNs, std::int64_t(2'500'000));
    QCOMPARE(span.lastNs, std::int64_t(9'000'000));
    QCOMPARE(span.count, 3);
    std::string viaString;
    EventCodec::encode(in, 0, viaString);
    QCOMPARE(std::string(buf.data(), len), viaString); // both forms write the same bytes
    in[1].kind = K::Other;
    in[3].kind = K::Other;
    in[4].kind = K::Usage;
    (void)EventCodec::encode(in, 0, buf.data(), span);
    QCOMPARE(span.firstNs, kNoTime);
    QCOMPARE(span.lastNs, kNoTime);
    QCOMPARE(span.count, 0);
}

QTEST_GUILESS_MAIN(TestEventCodec)
#include "tst_eventcodec.moc"
