// Tests of CampaignValidator: a data-driven table of bad inputs (tests/data/campaign/bad-inputs.txt),
// each asserting the exact set of problems: pointer, line, column and message.
#include "core/campaign/campaignvalidator.h"

#include <QFile>
#include <QTest>

using namespace Throughline;

namespace {

struct Case {
    QString name;
    QStringList expected; // "pointer | line | column | message"
    QString text;
};

QList<Case> loadCases()
{
    QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/campaign/bad-inputs.txt"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open bad-inputs.txt");
    QList<Case> cases;
    const QStringList lines = QString::fromUtf8(f.readAll()).split(u'\n');
    for (const QString &line : lines) {
        if (line.startsWith(u"### ")) {
            cases.append(Case{line.mid(4).trimmed(), {}, {}});
        } else if (cases.isEmpty() || line.startsWith(u"# ")) {
            continue;
        } else if (line.startsWith(u"! ")) {
            cases.last().expected.append(line.mid(2));
        } else {
            cases.last().text += line + u'\n';
        }
    }
    return cases;
}

QString describe(const ValidationProblem &p)
{
    return QString::fromStdString(p.pointer) + u" | "_qs + QString::number(p.line) + u" | "_qs +
           QString::number(p.column) + u" | "_qs + QString::fromStdString(p.message);
}

} // namespace

class TestCampaignValidator : public QObject
{
    Q_OBJECT
private slots:
    void badInputs_data();
    void badInputs();
    void enoughCases();
    void everyProblemAtOnce();
    void shippedCampaignsAreClean_data();
    void shippedCampaignsAreClean();
    void goldenIsClean();
    void v0ProblemsUseOriginalPointers();
};

void TestCampaignValidator::badInputs_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected");
    for (const Case &c : loadCases())
        QTest::newRow(qPrintable(c.name)) << c.text << c.expected;
}

void TestCampaignValidator::badInputs()
{
    QFETCH(QString, text);
    QFETCH(QStringList, expected);
    const auto outcome = CampaignValidator().validate(text.toStdString());
    QStringList actual;
    for (const auto &p : outcome.problems)
        actual << describe(p);
    if (qEnvironmentVariableIsSet("THROUGHLINE_PRINT_ACTUAL")) {
        for (const auto &a : actual)
            qInfo().noquote() << u"! "_qs + a;
    }
    QVERIFY2(!expected.isEmpty(), "case has no expectation");
    QCOMPARE(actual, expected);
    // Secrets in the fixtures are spelled with SECRET or hunter22: never echoed.
    for (const auto &a : actual)
        QVERIFY2(!a.contains(u"SECRET"_qs) && !a.contains(u"hunter22"_qs), qPrintable(a));
}

void TestCampaignValidator::enoughCases()
{
    QVERIFY(loadCases().size() >= 25);
}

void TestCampaignValidator::everyProblemAtOnce()
{
    const std::string text = "{\"schema\": \"throughline.campaign/1\", \"name\": \"\",\n"
                             " \"models\": [\"nope\"], \"backends\": [\"vllm\", 3],\n"
                             " \"deployments\": [{\"gpu\": \"H200\", \"gpus\": -1}], \"phases\": [],\n"
                             " \"endpoints\": [{\"kind\": \"simulated\", \"color\": \"red\"}]}\n";
    const auto outcome = CampaignValidator().validate(text);
    QStringList actual;
    for (const auto &p : outcome.problems)
        actual << describe(p);
    QCOMPARE(actual,
             (QStringList{
                 u"/name | 1 | 46 | must not be empty"_qs,
                 u"/models/0 | 2 | 13 | unknown model 'nope'; add it under custom_models to use it"_qs,
                 u"/backends/1 | 2 | 43 | expected a string, got a number"_qs,
                 u"/deployments/0/gpus | 3 | 42 | must be between 1 and 1000000, got -1"_qs,
                 u"/phases | 3 | 58 | at least one phase is needed"_qs,
                 u"/endpoints/0/color | 4 | 38 | unknown member 'color'"_qs,
             }));
}

void TestCampaignValidator::shippedCampaignsAreClean_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("demo") << u":/campaigns/demo.json"_qs;
    QTest::newRow("exemplar-recipes") << u":/campaigns/exemplar-recipes.json"_qs;
    QTest::newRow("v0 fixture") << QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/campaign/v0-campaign.json");
}

void TestCampaignValidator::shippedCampaignsAreClean()
{
    QFETCH(QString, path);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto outcome = CampaignValidator().validate(f.readAll().toStdString());
    QStringList actual;
    for (const auto &p : outcome.problems)
        actual << describe(p);
    QCOMPARE(actual, QStringList());
    QVERIFY(outcome.campaign.has_value());
}

void TestCampaignValidator::goldenIsClean()
{
    QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/campaign/golden-full.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    // With a base dir the missing targets file is reported; without, nothing.
    const std::string text = f.readAll().toStdString();
    QCOMPARE(CampaignValidator().validate(text).problems.size(), size_t(0));
    const auto withDir = CampaignValidator().validate(text, THROUGHLINE_TEST_DATA_DIR "/campaign");
    QCOMPARE(withDir.problems.size(), size_t(1));
    QCOMPARE(withDir.problems[0].pointer, std::string("/targets/file"));
    QCOMPARE(withDir.problems[0].message,
             std::string("targets file 'golden-targets.json' not found next to the campaign"));
}

void TestCampaignValidator::v0ProblemsUseOriginalPointers()
{
    QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/campaign/v0-bad.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto outcome = CampaignValidator().validate(f.readAll().toStdString());
    QStringList actual;
    for (const auto &p : outcome.problems)
        actual << describe(p);
    if (qEnvironmentVariableIsSet("THROUGHLINE_PRINT_ACTUAL"))
        qInfo().noquote() << actual.join(u'\n');
    QVERIFY(actual.contains(
        u"/matrix/deployments/0/gpu_type | 7 | 36 | unknown GPU 'H300' (did you mean 'H100'?); add it under custom_gpus to use it"_qs));
    QVERIFY(actual.contains(
        u"/matrix/deployments/0/gpu_count | 7 | 57 | must be between 1 and 1000000, got 0"_qs));
    QVERIFY(actual.contains(u"/endpoint/url | 10 | 24 | expected an http:// or https:// URL"_qs));
    QVERIFY(actual.contains(u"/load/concurrency/1 | 11 | 32 | must be between 1 and 10000000, got -2"_qs));
}

QTEST_GUILESS_MAIN(TestCampaignValidator)
#include "tst_campaignvalidator.moc"
