// Tests of JsonPositions (pointer → line/column), Glob and Suggest.
#include "core/util/glob.h"
#include "core/util/jsonpositions.h"
#include "core/util/suggest.h"

#include <QTest>

using namespace Throughline;

class TestJsonPositions : public QObject
{
    Q_OBJECT
private slots:
    void lookup_data();
    void lookup();
    void keyPositions();
    void nearestAncestor();
    void duplicates();
    void escaping();
    void positionOfByte();
    void tolerant();
    void deepNesting();
    void glob_data();
    void glob();
    void globCheck_data();
    void globCheck();
    void suggest();
};

namespace {
// Line 1..7 of this document; columns are 1-based code points.
const char *kDoc = "{\n"
                   "  \"name\": \"x\",\n"
                   "  \"list\": [1, {\"a/b\": true}, [ \"z\" ]],\n"
                   "  \"ünï\": {\"k~\": null},\n"
                   "\t\"tab\": -1.5e3,\n"
                   "  \"empty\": {}, \"arr\": []\n"
                   "}\n";
} // namespace

void TestJsonPositions::lookup_data()
{
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::newRow("root") << QString() << 1 << 1;
    QTest::newRow("name") << u"/name"_qs << 2 << 11;
    QTest::newRow("list") << u"/list"_qs << 3 << 11;
    QTest::newRow("list/0") << u"/list/0"_qs << 3 << 12;
    QTest::newRow("list/1") << u"/list/1"_qs << 3 << 15;
    QTest::newRow("escaped slash") << u"/list/1/a~1b"_qs << 3 << 23;
    QTest::newRow("nested array") << u"/list/2/0"_qs << 3 << 32;
    QTest::newRow("unicode key") << u"/ünï/k~0"_qs << 4 << 17;
    QTest::newRow("tab counts one") << u"/tab"_qs << 5 << 9;
    QTest::newRow("same line 2nd member") << u"/arr"_qs << 6 << 23;
    QTest::newRow("empty object") << u"/empty"_qs << 6 << 12;
}

void TestJsonPositions::lookup()
{
    QFETCH(QString, pointer);
    QFETCH(int, line);
    QFETCH(int, column);
    const auto p = JsonPositions::index(kDoc);
    const auto loc = p.find(pointer.toStdString());
    QVERIFY2(loc.has_value(), qPrintable(pointer));
    QCOMPARE(loc->value.line, line);
    QCOMPARE(loc->value.column, column);
}

void TestJsonPositions::keyPositions()
{
    const auto p = JsonPositions::index(kDoc);
    QCOMPARE(p.find("/name")->key, (JsonPosition{2, 3}));
    QCOMPARE(p.find("/arr")->key, (JsonPosition{6, 16}));
    QVERIFY(!p.find("/list/0")->key.valid()); // array items have no key
    QVERIFY(!p.find("/missing").has_value());
    QVERIFY(!p.find("/list/3").has_value());
}

void TestJsonPositions::nearestAncestor()
{
    const auto p = JsonPositions::index(kDoc);
    QCOMPARE(p.nearest("/list/1/nope/deeper").value, (JsonPosition{3, 15}));
    QCOMPARE(p.nearest("/zzz").value, (JsonPosition{1, 1}));
}

void TestJsonPositions::duplicates()
{
    const auto p = JsonPositions::index("{\"a\": 1, \"b\": {\"c\": 1,\n \"c\": 2}, \"a\": 3}");
    QCOMPARE(p.duplicateKeys().size(), size_t(2));
    QCOMPARE(p.duplicateKeys()[0].first, std::string("/b/c"));
    QCOMPARE(p.duplicateKeys()[0].second, (JsonPosition{2, 2}));
    QCOMPARE(p.duplicateKeys()[1].first, std::string("/a"));
    // The last occurrence wins, as in the DOM.
    QCOMPARE(p.find("/a")->value, (JsonPosition{2, 16}));
}

void TestJsonPositions::escaping()
{
    QCOMPARE(JsonPositions::escapeToken("a/b~c"), std::string("a~1b~0c"));
    QCOMPARE(JsonPositions::join("/x", "1/2"), std::string("/x/1~12"));
    const auto p = JsonPositions::index("{\"q\\\"uo\\u00e9\\n\": 5}");
    QVERIFY(p.find("/q\"uo\xC3\xA9\n").has_value());
}

void TestJsonPositions::positionOfByte()
{
    const std::string t = "ab\n\xC3\xA9x\ny";
    QCOMPARE(JsonPositions::positionOfByte(t, 0), (JsonPosition{1, 1}));
    QCOMPARE(JsonPositions::positionOfByte(t, 3), (JsonPosition{2, 1}));
    QCOMPARE(JsonPositions::positionOfByte(t, 5), (JsonPosition{2, 2})); // after the two-byte é
    QCOMPARE(JsonPositions::positionOfByte(t, 7), (JsonPosition{3, 1}));
    QCOMPARE(JsonPositions::positionOfByte(t, 999), (JsonPosition{3, 2}));
}

void TestJsonPositions::tolerant()
{
    // Indexes what it can read before the error, never crashes.
    const auto p = JsonPositions::index("{\"a\": [1, 2}, \"b\": 3");
    QVERIFY(p.find("/a/1").has_value());
    QVERIFY(!p.find("/b").has_value());
    const auto q = JsonPositions::index("");
    QVERIFY(q.find("").has_value());
    const auto r = JsonPositions::index("{\"a\": \"unterminated");
    QVERIFY(r.find("/a").has_value());
}

void TestJsonPositions::deepNesting()
{
    std::string deep(5000, '[');
    deep += std::string(5000, ']');
    const auto p = JsonPositions::index(deep); // depth-limited, no stack overflow
    QVERIFY(p.find("/0/0/0").has_value());
}

void TestJsonPositions::glob_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("match");
    QTest::newRow("literal") << u"Chat"_qs << u"Chat"_qs << true;
    QTest::newRow("case-insensitive") << u"deepseek-r1"_qs << u"DeepSeek-R1"_qs << true;
    QTest::newRow("star") << u"gpt-oss-*"_qs << u"gpt-oss-120b"_qs << true;
    QTest::newRow("star empty") << u"gpt-oss-*"_qs << u"gpt-oss-"_qs << true;
    QTest::newRow("star no") << u"gpt-oss-*"_qs << u"gpt-os"_qs << false;
    QTest::newRow("question") << u"H?00"_qs << u"H200"_qs << true;
    QTest::newRow("class") << u"[GB]*200"_qs << u"GB200"_qs << true;
    QTest::newRow("range") << u"[1-4]"_qs << u"3"_qs << true;
    QTest::newRow("range no") << u"[1-4]"_qs << u"5"_qs << false;
    QTest::newRow("negated") << u"[!1]*"_qs << u"16"_qs << false;
    QTest::newRow("backtrack") << u"*a*b"_qs << u"xaxxab"_qs << true;
    QTest::newRow("trailing") << u"a*"_qs << u"b"_qs << false;
    QTest::newRow("exact length") << u"4"_qs << u"48"_qs << false;
    QTest::newRow("malformed never matches") << u"[ab"_qs << u"a"_qs << false;
}

void TestJsonPositions::glob()
{
    QFETCH(QString, pattern);
    QFETCH(QString, text);
    QFETCH(bool, match);
    QCOMPARE(Glob::match(pattern.toStdString(), text.toStdString()), match);
}

void TestJsonPositions::globCheck_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("error");
    QTest::newRow("ok") << u"a*[bc]?"_qs << QString();
    QTest::newRow("empty") << QString() << u"empty pattern"_qs;
    QTest::newRow("unterminated") << u"ab[c"_qs << u"unterminated '[' at position 3"_qs;
    QTest::newRow("unmatched") << u"ab]"_qs << u"unmatched ']' at position 3"_qs;
    QTest::newRow("empty class") << u"[!]"_qs << u"unterminated '[' at position 1"_qs;
}

void TestJsonPositions::globCheck()
{
    QFETCH(QString, pattern);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(Glob::check(pattern.toStdString())), error);
}

void TestJsonPositions::suggest()
{
    const std::vector<std::string> names{"concurrencies", "request_count", "rates"};
    QCOMPARE(Suggest::closest("concurrency", names), std::string("concurrencies"));
    QCOMPARE(Suggest::closest("zzzzzz", names), std::string());
    QCOMPARE(Suggest::didYouMean("Rates", names), std::string(" (did you mean 'rates'?)"));
    QCOMPARE(Suggest::distance("kitten", "sitting"), 3);
}

QTEST_GUILESS_MAIN(TestJsonPositions)
#include "tst_jsonpositions.moc"
