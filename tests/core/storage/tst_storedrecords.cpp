// StoredRecords: requests written through StorageWriter come back as RequestRecords with every stored field
// equal (event times within the codec's 1 µs), in write order, warm-up and failed requests included — what
// `run --resume` puts into requests.csv for the points kept from the interrupted run.
#include "core/storage/historyreader.h"
#include "core/storage/storagewriter.h"
#include "core/storage/storedrecords.h"

#include "storagetestutil.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdlib>

using namespace Throughline;

class TestStoredRecords : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip();
    void unknownPoint();
};

void TestStoredRecords::roundTrip()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const std::string uuid = StorageTest::uuidFor(5);
    std::mt19937 rng(9);
    // Point (0,1) with per-token events, point (1,0) with first/last only; seqs written out of order.
    std::vector<RequestRecord> a = StorageTest::makeBatch(100, 120, 0, 1, 24, true, rng);
    std::reverse(a.begin(), a.end());
    a[3].replica = 2;
    a[3].tWire = kNoTime;
    a[3].curl = {1'000, 2'000, 3'000, 4'000, 5'000};
    a[4].usage = {-1, -1, 7, 3};
    a[4].nOut = -1;
    a[4].nOutSource = TokenCountSource::EventCount;
    a[4].nFirst = 2;
    a[4].nFirstApproximate = false;
    a[5].events.push_back({a[5].tEnd, StreamEvent::Kind::Content, 11});
    std::vector<RequestRecord> b = StorageTest::makeBatch(500, 30, 1, 0, 8, false, rng);
    {
        StorageWriter w;
        QVERIFY(w.open(path));
        w.beginRun(StorageTest::makeRun(uuid, 2, 2));
        w.addRequests(uuid, a);
        w.addRequests(uuid, b);
        QVERIFY(w.close());
    }
    HistoryReader reader;
    QVERIFY(reader.open(path));
    for (const auto *want : {&a, &b}) {
        const int sc = want->front().scenarioIndex, pt = want->front().pointIndex;
        auto got = StoredRecords::ofPoint(reader, uuid, sc, pt);
        QVERIFY2(got, got ? "" : got.error().message.c_str());
        QCOMPARE(got->size(), want->size());
        for (std::size_t i = 0; i < want->size(); ++i) {
            const RequestRecord &w = (*want)[i], &g = (*got)[i];
            QCOMPARE(g.seq, w.seq); // write order, not seq order
            QCOMPARE(g.scenarioIndex, sc);
            QCOMPARE(g.pointIndex, pt);
            QCOMPARE(g.warmup, w.warmup);
            QCOMPARE(g.replica, w.replica);
            QCOMPARE(g.intendedIsl, w.intendedIsl);
            QCOMPARE(g.intendedOsl, w.intendedOsl);
            QCOMPARE(g.tSched, w.tSched);
            QCOMPARE(g.tSend, w.tSend);
            QCOMPARE(g.tWire, w.tWire);
            QCOMPARE(g.tFirstByte, w.tFirstByte);
            QCOMPARE(g.tEnd, w.tEnd);
            QCOMPARE(g.curl.connectNs, w.curl.connectNs);
            QCOMPARE(g.curl.appConnectNs, w.curl.appConnectNs);
            QCOMPARE(g.curl.preTransferNs, w.curl.preTransferNs);
            QCOMPARE(g.curl.startTransferNs, w.curl.startTransferNs);
            QCOMPARE(g.usage.promptTokens, w.usage.promptTokens);
            QCOMPARE(g.usage.completionTokens, w.usage.completionTokens);
            QCOMPARE(g.usage.cachedTokens, w.usage.cachedTokens);
            QCOMPARE(g.usage.reasoningTokens, w.usage.reasoningTokens);
            QCOMPARE(g.nOut, w.nOut);
            QCOMPARE(g.nOutSource, w.nOutSource);
            QCOMPARE(g.nFirst, w.nFirst);
            QCOMPARE(g.nFirstApproximate, w.nFirstApproximate);
            QCOMPARE(g.error, w.error);
            QCOMPARE(g.httpStatus, w.httpStatus);
            QCOMPARE(g.errorDetail, w.errorDetail);
            QCOMPARE(g.events.size(), w.events.size());
            for (std::size_t k = 0; k < w.events.size(); ++k) {
                QCOMPARE(g.events[k].kind, w.events[k].kind);
                QCOMPARE(g.events[k].tokens, w.events[k].tokens);
                QVERIFY(std::abs(g.events[k].tNs - w.events[k].tNs) < 1000);
            }
        }
    }
}

void TestStoredRecords::unknownPoint()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const std::string uuid = StorageTest::uuidFor(6);
    {
        StorageWriter w;
        QVERIFY(w.open(path));
        w.beginRun(StorageTest::makeRun(uuid, 1, 1));
        QVERIFY(w.close());
    }
    HistoryReader reader;
    QVERIFY(reader.open(path));
    auto none = StoredRecords::ofPoint(reader, uuid, 0, 0); // planned, nothing written yet
    QVERIFY(none && none->empty());
    auto missing = StoredRecords::ofPoint(reader, uuid, 0, 5);
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, ErrorCode::NotFound);
    QVERIFY(missing.error().message.find("point 5 of scenario 0") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestStoredRecords)
#include "tst_storedrecords.moc"
