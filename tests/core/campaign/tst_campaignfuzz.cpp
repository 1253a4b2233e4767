// Fuzz-style robustness: 10,000 mutated copies of demo.json (fixed seed) through the validator,
// the reader and the expander: no crash, no hang; every accepted document round-trips.
#include "core/campaign/campaignjson.h"
#include "core/campaign/campaignvalidator.h"
#include "core/campaign/matrixexpander.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <random>

using namespace Throughline;

class TestCampaignFuzz : public QObject
{
    Q_OBJECT
private slots:
    void mutatedDemo();
};

namespace {

// Fragments that make mutations structurally interesting rather than pure noise.
const char *const kTokens[] = {"{",
                               "}",
                               "[",
                               "]",
                               ",",
                               ":",
                               "\"",
                               "null",
                               "true",
                               "-1",
                               "1e308",
                               "0.5",
                               "\"x\"",
                               "{}",
                               "[]",
                               "\"*\"",
                               "\"[\"",
                               "\\u0000",
                               "\xC3\xA9",
                               "\"api_key\": \"sk-1\"",
                               "99999999999999999999",
                               "\"gpus\": 0",
                               "\n"};

std::string mutate(const std::string &base, std::mt19937_64 &rng)
{
    std::string s = base;
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits && !s.empty(); ++e) {
        const size_t pos = rng() % s.size();
        switch (rng() % 6) {
        case 0:
            s[pos] = char(rng() % 256);
            break; // flip a byte
        case 1:
            s.erase(pos, 1 + rng() % 16);
            break; // delete a run
        case 2:
            s.insert(pos, kTokens[rng() % std::size(kTokens)]);
            break; // insert a token
        case 3:
            s.insert(pos, s.substr(rng() % s.size(), 1 + rng() % 40));
            break; // duplicate a slice
        case 4: {  // swap a digit for another number
            const size_t d = s.find_first_of("0123456789", pos);
            if (d != std::string::npos)
                s.replace(d, 1, std::to_string(int64_t(rng() % 2000001) - 1000000));
            break;
        }
        default: { // swap two slices
            const size_t a = rng() % s.size(), b = rng() % s.size();
            std::swap(s[a], s[b]);
        }
        }
    }
    return s;
}

} // namespace

void TestCampaignFuzz::mutatedDemo()
{
    QFile f(u":/campaigns/demo.json"_qs);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const std::string base = f.readAll().toStdString();
    std::mt19937_64 rng(20261129);
    const CampaignValidator validator;
    const MatrixExpander expander;
    QElapsedTimer timer;
    timer.start();
    int accepted = 0, rejected = 0;
    for (int i = 0; i < 10000; ++i) {
        const std::string text = mutate(base, rng);
        const auto outcome = validator.validate(text);
        for (const auto &p : outcome.problems) {
            // Positions always point into the text.
            QVERIFY(p.line >= 1 && p.column >= 1);
            QVERIFY(!p.message.empty());
        }
        auto read = CampaignJson::read(text);
        if (outcome.ok()) {
            ++accepted;
            QVERIFY2(read.ok(), text.c_str()); // the validator accepts only readable documents
            QVERIFY(expander.expand(*read).ok());
            auto again = CampaignJson::read(CampaignJson::write(*read));
            QVERIFY(again.ok());
            QVERIFY(*again == *read);
        } else {
            ++rejected;
        }
    }
    qInfo("accepted %d, rejected %d, %lld ms", accepted, rejected, timer.elapsed());
    QVERIFY(accepted > 0);
    QVERIFY(rejected > 0);
#if !defined(__SANITIZE_ADDRESS__) // sanitizer builds run several times slower: the bound is for real builds
    QVERIFY2(timer.elapsed() < 30000, "fuzz run took longer than 30 s");
#endif
}

QTEST_GUILESS_MAIN(TestCampaignFuzz)
#include "tst_campaignfuzz.moc"
