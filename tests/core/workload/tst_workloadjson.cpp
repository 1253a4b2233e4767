// The campaign model's per-phase "workload" object: decoding of every kind, canonical round trip, old
// campaigns unchanged, and validator problems that name the field (with line numbers).
#include "core/campaign/campaignjson.h"
#include "core/campaign/campaignvalidator.h"
#include "core/campaign/matrixexpander.h"

#include <QFile>
#include <QTest>

using namespace Throughline;

namespace {
std::string readData(const char *path)
{
    QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/") + QString::fromUtf8(path));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", path);
    return f.readAll().toStdString();
}

const ValidationProblem *find(const ValidationProblems &ps, const std::string &pointer)
{
    for (const auto &p : ps)
        if (p.pointer == pointer)
            return &p;
    return nullptr;
}

std::string dump(const ValidationProblems &ps)
{
    std::string s;
    for (const auto &p : ps)
        s += std::to_string(p.line) + ":" + std::to_string(p.column) + " " + p.pointer + ": " + p.message +
             "\n";
    return s;
}
} // namespace

class TestWorkloadJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decodesEveryKind();
    void roundTrip();
    void oldCampaignsUnchanged();
    void problemsNameTheField();
    void openLoopAgenticRefused();
};

void TestWorkloadJson::decodesEveryKind()
{
    auto r = CampaignJson::read(readData("workload/campaign-workloads.json"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    const auto &ph = r->phases;
    QCOMPARE(ph.size(), std::size_t(5));
    QCOMPARE(ph[0].workload.kind, Workload::Kind::Synthetic);
    QCOMPARE(ph[0].workload, Workload{});

    const Workload &d = ph[1].workload;
    QCOMPARE(d.kind, Workload::Kind::Dataset);
    QCOMPARE(d.path, std::string("tests/data/workload/sharegpt.jsonl"));
    QCOMPARE(d.format, Workload::DatasetFormat::ShareGpt);
    QCOMPARE(d.minPromptLen, 2);
    QCOMPARE(d.maxPromptLen, 400);
    QVERIFY(d.withReplacement);
    QVERIFY(d.outputFromDataset);
    QCOMPARE(d.lengthUnit, Workload::LengthUnit::Chars);

    const Workload &t = ph[2].workload;
    QCOMPARE(t.kind, Workload::Kind::Trace);
    QCOMPARE(t.speedUp, 2.0);
    QCOMPARE(t.blockTokens, 512);

    const Workload &m = ph[3].workload;
    QCOMPARE(m.kind, Workload::Kind::MultiTurn);
    QCOMPARE(m.turns, 3);
    QCOMPARE(m.thinkTimeS, 0.5);
    QCOMPARE(m.sessions, 8);

    // A preset phase with a workload: the preset's lengths, its own name and workload.
    const Workload &a = ph[4].workload;
    QCOMPARE(ph[4].name, std::string("Agent"));
    QCOMPARE(ph[4].isl, 128);
    QCOMPARE(a.kind, Workload::Kind::Agentic);
    QCOMPARE(a.chainLength, 3);
    QCOMPARE(a.steps.size(), std::size_t(3));
    QCOMPARE(a.steps[0].isl, 200);
    QCOMPARE(a.steps[0].osl, 20);
    QCOMPARE(a.steps[1].fanOut, 3);
    QCOMPARE(a.steps[1].isl, 0); // the phase's
    QCOMPARE(a.steps[2].osl, 100);
    QCOMPARE(a.thinkTimeS, 0.1);

    // Expansion carries the workload into each scenario.
    auto list = MatrixExpander().expand(*r);
    QVERIFY(list.ok());
    int agentic = 0;
    for (const Scenario &s : *list)
        agentic += s.phase.workload.kind == Workload::Kind::Agentic;
    QCOMPARE(agentic, 1);
}

void TestWorkloadJson::roundTrip()
{
    auto r = CampaignJson::read(readData("workload/campaign-workloads.json"));
    QVERIFY(r.ok());
    const std::string text = CampaignJson::write(*r);
    auto again = CampaignJson::read(text);
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
    QVERIFY(*again == *r);
    QCOMPARE(CampaignJson::write(*again), text); // canonical: stable
    // Synthetic phases write no workload member; the others write every parameter of their kind.
    const auto j = nlohmann::json::parse(text);
    QVERIFY(!j["phases"][0].contains("workload"));
    QCOMPARE(j["phases"][1]["workload"]["kind"].get<std::string>(), std::string("dataset"));
    QCOMPARE(j["phases"][1]["workload"]["sampling"].get<std::string>(), std::string("with_replacement"));
    QCOMPARE(j["phases"][3]["workload"]["turns"].get<int>(), 3);
    QVERIFY(!j["phases"][3]["workload"].contains("path"));            // not a multi_turn parameter
    QVERIFY(!j["phases"][4]["workload"]["steps"][1].contains("isl")); // 0 = the phase's: left out
}

void TestWorkloadJson::oldCampaignsUnchanged()
{
    // Shipped and golden campaigns have no workload: they read as synthetic and write exactly as before.
    for (const char *path : {":/campaigns/demo.json"}) {
        auto c = CampaignJson::readFile(path);
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().message.c_str());
        for (const auto &p : c->phases)
            QCOMPARE(p.workload.kind, Workload::Kind::Synthetic);
        QVERIFY(CampaignJson::write(*c).find("\"workload\"") == std::string::npos);
    }
    const std::string golden = readData("campaign/golden-full.json");
    auto g = CampaignJson::read(golden);
    QVERIFY(g.ok());
    QVERIFY(CampaignJson::write(*g).find("\"workload\"") == std::string::npos);
    const auto outcome = CampaignValidator().validate(readData("workload/campaign-workloads.json"));
    QVERIFY2(outcome.ok(), dump(outcome.problems).c_str());
}

void TestWorkloadJson::problemsNameTheField()
{
    const auto outcome = CampaignValidator().validate(readData("workload/campaign-bad-workloads.json"));
    QVERIFY(!outcome.ok());
    qInfo("%s", dump(outcome.problems).c_str());
    const ValidationProblem *p = find(outcome.problems, "/phases/0/workload/kind");
    QVERIFY(p);
    QVERIFY(p->message.find("unknown value 'datset'") != std::string::npos);
    QVERIFY(p->message.find("dataset") != std::string::npos); // did you mean
    QCOMPARE(p->line, 8);
    p = find(outcome.problems, "/phases/1/workload/turns");
    QVERIFY(p);
    QVERIFY(p->message.find("between 1 and") != std::string::npos);
    p = find(outcome.problems, "/phases/1/workload/speed_up");
    QVERIFY(p);
    QVERIFY(p->message.find("parameter of kind \"trace\"") != std::string::npos);
    QCOMPARE(p->line, 9);
    p = find(outcome.problems, "/phases/2/workload");
    QVERIFY(p);
    QVERIFY(p->message.find("missing required member 'path'") != std::string::npos);
    p = find(outcome.problems, "/phases/2/workload/length_unit");
    QVERIFY(p);
    QVERIFY(p->message.find("needs a tokenizer") != std::string::npos);
    p = find(outcome.problems, "/phases/3/workload/chain_length");
    QVERIFY(p);
    QVERIFY(p->message.find("differs from the number of steps (2)") != std::string::npos);
    p = find(outcome.problems, "/phases/3/workload/steps/1/osl");
    QVERIFY(p);
    QCOMPARE(p->line, 12);
    // read() refuses the document with the same pointers.
    auto r = CampaignJson::read(readData("workload/campaign-bad-workloads.json"));
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.find("/phases/1/workload/speed_up") != std::string::npos);
}

void TestWorkloadJson::openLoopAgenticRefused()
{
    const auto outcome = CampaignValidator().validate(readData("workload/campaign-open-agentic.json"));
    QVERIFY(!outcome.ok());
    const ValidationProblem *p = find(outcome.problems, "/phases/0/workload/kind");
    QVERIFY2(p, dump(outcome.problems).c_str());
    QVERIFY(p->message.find("open-loop plan") != std::string::npos);
    QCOMPARE(p->line, 9);
}

QTEST_GUILESS_MAIN(TestWorkloadJson)
#include "tst_workloadjson.moc"
